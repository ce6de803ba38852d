from django.urls import path

from annotation import views

app_name = "annotation"

urlpatterns = [
    path("manage/campaigns/", views.campaigns_page, name="campaigns"),
    path("manage/campaigns/new/", views.campaign_page, name="campaign-new"),
    path("manage/campaigns/<int:pk>/", views.campaign_page, name="campaign"),
]
