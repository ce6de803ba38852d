from django.urls import path

from evaluation import views

app_name = "evaluation"

urlpatterns = [
    path("manage/human-performance/", views.human_performance_page, name="human-performance"),
]
