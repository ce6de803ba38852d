from django.urls import path

from exports.views import releases as views
from exports.views import schedules as schedule_views

app_name = "exports"

PREFIX = "manage/releases/"  # every page of this app is under it


def _page(route: str, view, name: str):
    """A page at PREFIX + route."""
    return path(PREFIX + route, view, name=name)


urlpatterns = [
    _page("", views.releases_page, "releases"),
    _page("diff/", views.release_diff_page, "release-diff"),
    _page("schedules/", schedule_views.schedules_page, "schedules"),
    _page("schedules/<int:pk>/", schedule_views.schedule_page, "schedule"),
    _page("schedules/<int:pk>/run/", schedule_views.schedule_run_view, "schedule-run"),
    _page("schedules/<int:pk>/enable/", schedule_views.schedule_enable_view, "schedule-enable"),
    _page("schedules/<int:pk>/delete/", schedule_views.schedule_delete_view, "schedule-delete"),
    _page("<int:pk>/", views.release_page, "release"),
    _page("<int:pk>/status/", views.release_status, "release-status"),
    _page("<int:pk>/resume/", views.release_resume_view, "release-resume"),
    _page("<int:pk>/files/<str:name>", views.release_download, "release-file"),
]
