from django.urls import path

from annotation import report_views

app_name = "reports"

urlpatterns = [
    path("manage/reports/hours/", report_views.hours_page, name="hours"),
    path("manage/reports/hours.csv", report_views.hours_csv, name="hours-csv"),
]
