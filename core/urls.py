from django.urls import path

from core import views

app_name = "core"

urlpatterns = [
    path("manage/system/", views.system_page, name="system"),
    path("manage/system/checks/<int:pk>/status/", views.worker_check_status, name="check-status"),
]
