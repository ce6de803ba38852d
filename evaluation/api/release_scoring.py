"""The scoring of a release (docs/release-scoring.md) for admins: its `score_with` list and the
runs it started, with their status and scores (`/api/v1/releases/{id}/scoring/`)."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import JobSerializer, job_fields
from core.inputs import object_by_id
from core.permissions import IsPlatformAdmin
from evaluation.api.baselines import NORMALIZATION, RUN_MODEL
from evaluation.models import BaselineRun
from evaluation.services.release_scoring import release_scoring_runs
from exports.models import Release


class ScoringRunSerializer(JobSerializer):
    class Meta:
        model = BaselineRun
        fields = job_fields(f"scoring_key {RUN_MODEL}", results=f"attempts metrics {NORMALIZATION}")
        read_only_fields = fields


class ReleaseScoringView(APIView):
    """Admins: the baselines a release runs once built, and their runs (one per entry)."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(
        responses=inline_serializer(
            "ReleaseScoring",
            {
                "release": serializers.IntegerField(),
                "release_status": serializers.CharField(),
                "score_with": serializers.JSONField(),
                "runs": ScoringRunSerializer(many=True),
            },
        )
    )
    def get(self, request, pk):
        release = object_by_id(Release.objects, pk, field="release", missing=_("No such release."))
        runs = release_scoring_runs(release).select_related("created_by")
        return Response(
            {
                "release": release.pk,
                "release_status": release.status,
                "score_with": release.score_with,
                "runs": ScoringRunSerializer(runs, many=True).data,
            }
        )
