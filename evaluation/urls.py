from django.urls import path

from evaluation import results_views, views

app_name = "evaluation"

urlpatterns = [
    path("manage/human-performance/", views.human_performance_page, name="human-performance"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("manage/results/", results_views.results_page, name="results"),
    path(
        "manage/baseline-runs/<int:pk>/status/",
        results_views.baseline_run_status,
        name="baseline-run-status",
    ),
    path("manage/analysis/", results_views.analysis_page, name="analysis"),
    path("manage/analysis/start/", results_views.analysis_start_view, name="analysis-start"),
    path(
        "manage/analysis/<int:pk>/status/",
        results_views.analysis_status,
        name="analysis-status",
    ),
]
