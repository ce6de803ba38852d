from django.urls import path

from exports import views

app_name = "exports"

urlpatterns = [
    path("manage/releases/", views.releases_page, name="releases"),
    path("manage/releases/diff/", views.release_diff_page, name="release-diff"),
    path("manage/releases/<int:pk>/", views.release_page, name="release"),
    path("manage/releases/<int:pk>/status/", views.release_status, name="release-status"),
    path("manage/releases/<int:pk>/resume/", views.release_resume_view, name="release-resume"),
    path(
        "manage/releases/<int:pk>/files/<str:name>",
        views.release_download,
        name="release-file",
    ),
]
