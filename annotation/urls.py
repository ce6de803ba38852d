from django.urls import path

from annotation import quality_views, review_views, views, work_views

app_name = "annotation"

urlpatterns = [
    path(
        "annotate/campaigns/<int:campaign_pk>/next/",
        work_views.next_paragraph,
        name="next-paragraph",
    ),
    path("annotate/leases/<int:pk>/", work_views.lease_page, name="lease"),
    path("annotate/leases/<int:pk>/release/", work_views.lease_release_view, name="lease-release"),
    path("annotate/leases/<int:pk>/answer/", work_views.answer_submit_view, name="answer-submit"),
    path("review/campaigns/<int:campaign_pk>/next/", review_views.next_review, name="next-review"),
    path("review/leases/<int:pk>/", review_views.review_page, name="review"),
    path("review/leases/<int:pk>/skip/", review_views.review_release, name="review-skip"),
    path("questions/<uuid:uuid>/", quality_views.question_page, name="question"),
    path("manage/quality/", quality_views.quality_page, name="quality"),
    path(
        "manage/annotators/<int:pk>/pause/",
        quality_views.annotator_pause_view,
        name="annotator-pause",
    ),
    path("manage/campaigns/", views.campaigns_page, name="campaigns"),
    path("manage/campaigns/new/", views.campaign_page, name="campaign-new"),
    path("manage/campaigns/<int:pk>/", views.campaign_page, name="campaign"),
    path(
        "manage/campaigns/<int:pk>/dashboard/", views.campaign_dashboard, name="campaign-dashboard"
    ),
]
