"""The baseline runs API: admins start runs and follow them, with their scores."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from core.api import JobViewSet
from core.inputs import object_by_id
from evaluation.baselines.runs import baseline_run_start
from evaluation.models import BaselineRun
from exports.models import Release


class BaselineRunSerializer(serializers.ModelSerializer):
    message = serializers.CharField(source="message_text", read_only=True)

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


class BaselineRunViewSet(JobViewSet):
    """Admins only: baseline runs and their scores per split and per type."""

    serializer_class = BaselineRunSerializer
    create_serializer_class = BaselineRunCreateSerializer
    queryset = BaselineRun.objects.all()

    def start(self, data):
        return baseline_run_start(
            release=object_by_id(
                Release.objects, data["release"], field="release", missing=_("No such release.")
            ),
            kind=data["kind"],
            model=data.get("model", ""),
            hyperparameters=data.get("hyperparameters", {}),
            created_by=self.request.user,
        )
