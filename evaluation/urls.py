from django.urls import path

from evaluation.views import (
    analysis,
    curves,
    human,
    in_the_loop,
    leaderboard,
    release_scoring,
    results,
    results_baseline,
    results_experiments,
    results_files,
    results_rounds,
    results_tables,
    schedule_chart,
)

app_name = "evaluation"

urlpatterns = [
    path("leaderboard/", leaderboard.leaderboard_page, name="leaderboard"),
    path("manage/human-performance/", human.human_performance_page, name="human-performance"),
    path("manage/results/", results.results_page, name="results"),
    path("manage/results/scores/", results_tables.results_scores_page, name="results-scores"),
    path(
        "manage/results/experiments/",
        results_experiments.results_experiments_page,
        name="results-experiments",
    ),
    path(
        "manage/results/unanswerable/",
        results_tables.results_unanswerable_page,
        name="results-unanswerable",
    ),
    path("manage/results/types/", results_tables.results_types_page, name="results-types"),
    path("manage/results/curves/", results_tables.results_curves_page, name="results-curves"),
    path(
        "manage/results/baseline/",
        results_baseline.results_baseline_page,
        name="results-baseline",
    ),
    path("manage/results/training-files/", results_files.results_files_page, name="results-files"),
    path("manage/results/model-rounds/", results_rounds.results_rounds_page, name="results-rounds"),
    path(
        "manage/baseline-runs/<int:pk>/status/",
        results.baseline_run_status,
        name="baseline-run-status",
    ),
    path(
        "manage/releases/<int:pk>/scoring/",
        release_scoring.release_scoring_view,
        name="release-scoring",
    ),
    path("manage/analysis/", analysis.analysis_page, name="analysis"),
    path(
        "manage/releases/schedules/<int:pk>/chart/",
        schedule_chart.schedule_chart_page,
        name="schedule-chart",
    ),
    path(
        "manage/campaigns/<int:pk>/model/",
        in_the_loop.campaign_model_page,
        name="campaign-model",
    ),
    path(
        "manage/campaigns/<int:pk>/learning-estimate/",
        curves.campaign_learning_estimate_view,
        name="campaign-learning-estimate",
    ),
    path(
        "manage/campaigns/<int:pk>/learning-estimate/targets/",
        curves.campaign_targets_accept_view,
        name="campaign-learning-targets",
    ),
    path("manage/analysis/start/", analysis.analysis_start_view, name="analysis-start"),
    path("manage/analysis/<int:pk>/status/", analysis.analysis_status, name="analysis-status"),
]
