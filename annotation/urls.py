from django.urls import path

from annotation import views, work_views

app_name = "annotation"

urlpatterns = [
    path(
        "annotate/campaigns/<int:campaign_pk>/next/",
        work_views.next_paragraph,
        name="next-paragraph",
    ),
    path("annotate/leases/<int:pk>/", work_views.lease_page, name="lease"),
    path("annotate/leases/<int:pk>/release/", work_views.lease_release_view, name="lease-release"),
    path("manage/campaigns/", views.campaigns_page, name="campaigns"),
    path("manage/campaigns/new/", views.campaign_page, name="campaign-new"),
    path("manage/campaigns/<int:pk>/", views.campaign_page, name="campaign"),
    path(
        "manage/campaigns/<int:pk>/dashboard/", views.campaign_dashboard, name="campaign-dashboard"
    ),
]
