from django.urls import path

from exports.views import releases as views
from exports.views import schedules as schedule_views

app_name = "exports"

urlpatterns = [
    path("manage/releases/", views.releases_page, name="releases"),
    path("manage/releases/diff/", views.release_diff_page, name="release-diff"),
    path("manage/releases/schedules/", schedule_views.schedules_page, name="schedules"),
    path("manage/releases/schedules/<int:pk>/", schedule_views.schedule_page, name="schedule"),
    path(
        "manage/releases/schedules/<int:pk>/run/",
        schedule_views.schedule_run_view,
        name="schedule-run",
    ),
    path(
        "manage/releases/schedules/<int:pk>/enable/",
        schedule_views.schedule_enable_view,
        name="schedule-enable",
    ),
    path(
        "manage/releases/schedules/<int:pk>/delete/",
        schedule_views.schedule_delete_view,
        name="schedule-delete",
    ),
    path("manage/releases/<int:pk>/", views.release_page, name="release"),
    path("manage/releases/<int:pk>/status/", views.release_status, name="release-status"),
    path("manage/releases/<int:pk>/resume/", views.release_resume_view, name="release-resume"),
    path(
        "manage/releases/<int:pk>/files/<str:name>",
        views.release_download,
        name="release-file",
    ),
]
