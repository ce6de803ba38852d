from django.urls import path

from annotation.views import reports

app_name = "reports"

urlpatterns = [
    path("manage/reports/hours/", reports.hours_page, name="hours"),
    path("manage/reports/hours.csv", reports.hours_csv, name="hours-csv"),
]
