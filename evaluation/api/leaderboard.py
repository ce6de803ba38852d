"""The leaderboard API: read a split's rows, or submit predictions to be scored on it."""

from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ServiceError
from core.parsers import DepthLimitedJSONParser
from core.permissions import HoldsARole
from core.schema import ID_SCHEMA, error_responses
from core.services.figure_jobs import figure_read
from evaluation.selectors.human import HUMAN_FIGURE, release_human_params
from evaluation.services.leaderboard.board import leaderboard
from evaluation.services.leaderboard.submissions import (
    SPLITS,
    check_split,
    leaderboard_release,
    submission_check_size,
    submission_create,
    submission_too_big,
)
from evaluation.throttles import SubmissionsThrottle


class NormalizationSerializer(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()


class SubmissionRequestSerializer(serializers.Serializer):
    """The body of a submission (documentation only: evaluation.services.leaderboard checks it)."""

    release = serializers.IntegerField(help_text=_("The id of a finished release."))
    split = serializers.CharField(help_text=_("dev or test (the test answers stay hidden)."))
    label = serializers.CharField(help_text=_("The model or team, at most 200 characters."))
    predictions = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        help_text=_(
            "{question id: answer text}, one answer for every question of the split; on a "
            'SQuAD v2.0 release, "" says the paragraph does not answer the question.'
        ),
    )
    na_probs = serializers.DictField(
        child=serializers.FloatField(min_value=0, max_value=1),
        required=False,
        help_text=_(
            "SQuAD v2.0 releases only, optional: {question id: probability that the question "
            "has no answer, from 0 to 1} for every question of the split; adds best_exact, "
            "best_f1 and their thresholds."
        ),
    )


class NoAnswerSerializer(serializers.Serializer):
    precision = serializers.FloatField(allow_null=True)
    recall = serializers.FloatField(allow_null=True)
    f1 = serializers.FloatField(allow_null=True)
    true_positives = serializers.IntegerField()
    false_positives = serializers.IntegerField()
    false_negatives = serializers.IntegerField()
    true_negatives = serializers.IntegerField()
    missing = serializers.IntegerField()


class SubmissionMetricsSerializer(serializers.Serializer):
    """A v2.0 submission's figures beside EM and F1 (official v2.0 keys); {} for v1.1."""

    squad_version = serializers.CharField()
    HasAns_exact = serializers.FloatField(required=False)
    HasAns_f1 = serializers.FloatField(required=False)
    HasAns_total = serializers.IntegerField(required=False)
    NoAns_exact = serializers.FloatField(required=False)
    NoAns_f1 = serializers.FloatField(required=False)
    NoAns_total = serializers.IntegerField(required=False)
    best_exact = serializers.FloatField(required=False)
    best_exact_thresh = serializers.FloatField(required=False)
    best_f1 = serializers.FloatField(required=False)
    best_f1_thresh = serializers.FloatField(required=False)
    no_answer = NoAnswerSerializer(help_text=_("Telling unanswerable questions apart."))


class RowV2Serializer(serializers.Serializer):
    HasAns_exact = serializers.FloatField(allow_null=True)
    HasAns_f1 = serializers.FloatField(allow_null=True)
    HasAns_total = serializers.IntegerField()
    NoAns_exact = serializers.FloatField(allow_null=True)
    NoAns_f1 = serializers.FloatField(allow_null=True)
    NoAns_total = serializers.IntegerField()
    no_answer_f1 = serializers.FloatField(allow_null=True)
    best_f1 = serializers.FloatField(allow_null=True)
    best_f1_thresh = serializers.FloatField(allow_null=True)


class SubmissionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    split = serializers.CharField()
    release = serializers.IntegerField(source="release_id")
    exact_match = serializers.FloatField()
    f1 = serializers.FloatField()
    total = serializers.IntegerField()
    normalization = serializers.SerializerMethodField()
    squad_version = serializers.CharField(source="release.squad_version")
    metrics = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()

    @extend_schema_field(NormalizationSerializer)
    def get_normalization(self, submission) -> dict:
        return {"name": submission.normalization, "version": submission.normalization_version}

    @extend_schema_field(SubmissionMetricsSerializer)
    def get_metrics(self, submission) -> dict:
        return submission.metrics


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text=_("Submissions only."))
    kind = serializers.CharField(help_text=_("submission, baseline or human."))
    id = serializers.IntegerField(allow_null=True)
    label = serializers.CharField()
    submitted_by = serializers.CharField(allow_null=True)
    exact_match = serializers.FloatField(allow_null=True)
    f1 = serializers.FloatField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)
    normalization = NormalizationSerializer()
    v2 = RowV2Serializer(
        allow_null=True,
        help_text=_("SQuAD v2.0 releases: answerable / unanswerable figures; else null."),
    )
    note = serializers.CharField()


class SubmissionsView(APIView):
    """Every role: read a split's leaderboard, or submit predictions to be scored on it.

    Only figures come back (EM, F1, counts); the answers a split is scored against never
    leave the server. Sending a submission is rate-limited per user (SUBMISSIONS_RATE);
    reading the leaderboard is not.
    """

    permission_classes = [HoldsARole]
    parser_classes = [DepthLimitedJSONParser]

    def get_throttles(self):
        return [SubmissionsThrottle()] if self.request.method == "POST" else []

    def initial(self, request, *args, **kwargs):
        # From the declared length, before authentication (a session's CSRF check) or the
        # parser reads the body: a 50 MB attack is refused unread.
        if request.method == "POST":
            submission_check_size(content_length=request.META.get("CONTENT_LENGTH"))
        super().initial(request, *args, **kwargs)

    def handle_exception(self, exc):
        if isinstance(exc, RequestDataTooBig):  # Django refused the body: the same answer
            exc = submission_too_big()
        return super().handle_exception(exc)

    @extend_schema(
        parameters=[
            OpenApiParameter("release", ID_SCHEMA, required=True),
            OpenApiParameter("split", OpenApiTypes.STR, enum=list(SPLITS), required=True),
        ],
        responses={200: LeaderboardRowSerializer(many=True), **error_responses(409)},
    )
    def get(self, request):
        release = leaderboard_release(release_id=request.query_params.get("release"))
        split = check_split(request.query_params.get("split"))
        human = figure_read(
            HUMAN_FIGURE, **release_human_params(release)
        ).value  # None while it is being computed: no row
        rows = leaderboard(release=release, split=split, human=human)
        return Response(LeaderboardRowSerializer(rows, many=True).data)

    @extend_schema(
        request=SubmissionRequestSerializer,
        responses={201: SubmissionSerializer, **error_responses(413, 429)},
    )
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise ServiceError(
                {"non_field_errors": [_("Send a JSON object: release, split, label, predictions.")]}
            )
        release = leaderboard_release(release_id=data.get("release"))
        submission = submission_create(
            user=request.user,
            release=release,
            split=data.get("split"),
            label=data.get("label"),
            predictions=data.get("predictions"),
            na_probs=data.get("na_probs"),
        )
        return Response(SubmissionSerializer(submission).data, status=status.HTTP_201_CREATED)
