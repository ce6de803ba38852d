from django.urls import URLPattern, path
from rest_framework.routers import DefaultRouter

from accounts.api import MeView, TokenView, UsersImportView
from annotation.api.campaigns import CampaignViewSet, leases_response
from annotation.api.differences import (
    DifferenceLabelsView,
    DifferenceSampleView,
    DifferenceTableView,
)
from annotation.api.quality import AnnotatorPauseView, QualityView
from annotation.api.questions import QuestionViewSet
from annotation.api.work import LeaseViewSet, submit_response
from core.api import WorkerCheckViewSet
from core.lean import lean_post
from corpus.api import ArticleViewSet, ParagraphViewSet, ScrapeRunViewSet
from evaluation.api.analyses import DatasetAnalysisViewSet
from evaluation.api.baselines import BaselineRunViewSet
from evaluation.api.curves import CampaignLearningEstimateView, CampaignTargetsAcceptView
from evaluation.api.human import HumanPerformanceView
from evaluation.api.in_the_loop import CampaignModelView, LeaseAttemptsView
from evaluation.api.leaderboard import SubmissionsView
from evaluation.api.release_scoring import ReleaseScoringView
from evaluation.api.rounds import CampaignModelRoundsView
from exports.api.releases import ReleaseFileSlashView, ReleaseFileView, ReleaseViewSet
from exports.api.schedules import ReleaseScheduleViewSet

router = DefaultRouter(trailing_slash=True)
router.register("worker-checks", WorkerCheckViewSet, basename="worker-check")
router.register("campaigns", CampaignViewSet, basename="campaign")
router.register("leases", LeaseViewSet, basename="lease")
router.register("questions", QuestionViewSet, basename="question")
router.register("articles", ArticleViewSet, basename="article")
router.register("paragraphs", ParagraphViewSet, basename="paragraph")
router.register("scrape-runs", ScrapeRunViewSet, basename="scrape-run")
router.register("releases", ReleaseViewSet, basename="release")
router.register("release-schedules", ReleaseScheduleViewSet, basename="release-schedule")
router.register("baseline-runs", BaselineRunViewSet, basename="baseline-run")
router.register("analyses", DatasetAnalysisViewSet, basename="analysis")

# The work loop's two hot calls, a claim and a submission, served the lean way when they are
# the common case (core/lean.py): the same URLs, names, schema and answers.
LEAN = {
    "campaign-leases": (leases_response, False),
    "lease-submit": (submit_response, True),
}


def _lean(pattern):
    """The router's pattern, its view wrapped by `lean_post` if it is one of LEAN (not the
    format-suffix variant: a `.json` suffix goes DRF's way)."""
    if pattern.name not in LEAN or "format" in pattern.pattern.regex.groupindex:
        return pattern
    handler, body = LEAN[pattern.name]
    view = lean_post(pattern.callback, handler, body=body)
    return URLPattern(pattern.pattern, view, pattern.default_args, pattern.name)


urlpatterns = [
    # Before the router: its format-suffix routes would read "hf-dev.jsonl" as name + format.
    path(
        "releases/<int:pk>/files/<str:name>",
        ReleaseFileView.as_view(),
        name="release-file",
    ),
    path("releases/<int:pk>/files/<str:name>/", ReleaseFileSlashView.as_view()),
    path("releases/<str:pk>/scoring/", ReleaseScoringView.as_view(), name="release-scoring"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("me/", MeView.as_view(), name="me"),
    path("users/import/", UsersImportView.as_view(), name="users-import"),
    path("quality/", QualityView.as_view(), name="quality"),
    path("differences/sample/", DifferenceSampleView.as_view(), name="difference-sample"),
    path("differences/table/", DifferenceTableView.as_view(), name="difference-table"),
    path(
        "differences/questions/<str:pk>/", DifferenceLabelsView.as_view(), name="difference-labels"
    ),
    path("annotators/<str:pk>/pause/", AnnotatorPauseView.as_view(), name="annotator-pause"),
    path("human-performance/", HumanPerformanceView.as_view(), name="human-performance"),
    path("submissions/", SubmissionsView.as_view(), name="submissions"),
    path(
        "campaigns/<str:pk>/model-rounds/",
        CampaignModelRoundsView.as_view(),
        name="campaign-model-rounds",
    ),
    path("campaigns/<str:pk>/model/", CampaignModelView.as_view(), name="campaign-model"),
    path(
        "campaigns/<str:pk>/learning-estimate/",
        CampaignLearningEstimateView.as_view(),
        name="campaign-learning-estimate",
    ),
    path(
        "campaigns/<str:pk>/learning-estimate/targets/",
        CampaignTargetsAcceptView.as_view(),
        name="campaign-learning-targets",
    ),
    path("leases/<str:pk>/attempts/", LeaseAttemptsView.as_view(), name="lease-attempts"),
    *(_lean(pattern) for pattern in router.urls),
]
