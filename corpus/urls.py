from django.urls import path

from corpus import offline_views, views

app_name = "corpus"

urlpatterns = [
    path("manage/corpus/", views.articles_page, name="articles"),
    path("manage/corpus/articles/<int:pk>/", views.article_page, name="article"),
    path("manage/corpus/stats/", views.stats_page, name="stats"),
    path("manage/corpus/scrape-runs/", views.scrape_runs_page, name="scrape-runs"),
    path("manage/corpus/scrape-runs/<int:pk>/", views.scrape_run_page, name="scrape-run"),
    path(
        "manage/corpus/scrape-runs/<int:pk>/resume/",
        views.scrape_run_resume_view,
        name="scrape-run-resume",
    ),
    path(
        "manage/corpus/scrape-runs/<int:pk>/status/",
        views.scrape_run_status,
        name="scrape-run-status",
    ),
    # The demo's offline Wikipedia (404 unless OFFLINE_WIKIPEDIA_FILE names a file).
    path("offline-wikipedia/w/api.php", offline_views.api, name="offline-wikipedia"),
]
