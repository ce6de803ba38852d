"""Baseline runs and dataset analyses API: admins start them and follow them."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.response import Response

from core.errors import ServiceError
from core.permissions import IsPlatformAdmin
from evaluation.analysis import analysis_start
from evaluation.baselines.runs import baseline_run_start
from evaluation.models import BaselineRun, DatasetAnalysis
from exports.models import Release


class BaselineRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = BaselineRun
        fields = [
            "id",
            "release",
            "kind",
            "model",
            "hyperparameters",
            "device",
            "status",
            "progress",
            "message",
            "error",
            "metrics",
            "breakdown",
            "normalization",
            "normalization_version",
            "checkpoint",
            "log",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class BaselineRunCreateSerializer(serializers.Serializer):
    """Types only; the rules are the service's."""

    release = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=BaselineRun.Kind.choices)
    model = serializers.CharField(required=False, allow_blank=True, max_length=500)
    hyperparameters = serializers.DictField(required=False)


class BaselineRunViewSet(viewsets.ReadOnlyModelViewSet):
    """Admins only: baseline runs and their scores per split and per type."""

    permission_classes = [IsPlatformAdmin]
    serializer_class = BaselineRunSerializer
    queryset = BaselineRun.objects.all()

    @extend_schema(request=BaselineRunCreateSerializer, responses={201: BaselineRunSerializer})
    def create(self, request):
        payload = BaselineRunCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        release = Release.objects.filter(pk=data["release"]).first()
        if release is None:
            raise ServiceError({"release": [_("No such release.")]}, status=404)
        run = baseline_run_start(
            release=release,
            kind=data["kind"],
            model=data.get("model", ""),
            hyperparameters=data.get("hyperparameters", {}),
            created_by=request.user,
        )
        return Response(BaselineRunSerializer(run).data, status=status.HTTP_201_CREATED)


class DatasetAnalysisSerializer(serializers.ModelSerializer):
    class Meta:
        model = DatasetAnalysis
        fields = [
            "id",
            "status",
            "progress",
            "message",
            "error",
            "results",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class DatasetAnalysisViewSet(viewsets.ReadOnlyModelViewSet):
    """Admins only: start a dataset analysis (POST, no body) and read its figures."""

    permission_classes = [IsPlatformAdmin]
    serializer_class = DatasetAnalysisSerializer
    queryset = DatasetAnalysis.objects.all()

    @extend_schema(request=None, responses={201: DatasetAnalysisSerializer})
    def create(self, request):
        analysis = analysis_start(created_by=request.user)
        return Response(DatasetAnalysisSerializer(analysis).data, status=status.HTTP_201_CREATED)
