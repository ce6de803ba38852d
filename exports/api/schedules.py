"""Release schedules API (admins only): CRUD, and "run now" (docs/release-schedules.md)."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from core.permissions import IsPlatformAdmin
from exports.models import Release, ReleaseSchedule
from exports.services.schedules import (
    schedule_create,
    schedule_delete,
    schedule_run_now,
    schedule_update,
)

SNAPSHOTS_LISTED = 50


class SnapshotSerializer(serializers.ModelSerializer):
    class Meta:
        model = Release
        fields = [
            "id",
            "name",
            "version",
            "status",
            "data_fingerprint",
            "files_pruned_at",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class ReleaseScheduleSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username", default=None)
    campaigns = serializers.SerializerMethodField()
    snapshots = serializers.SerializerMethodField()

    class Meta:
        model = ReleaseSchedule
        fields = [
            "id",
            "name",
            "version",
            "campaigns",
            "frequency",
            "hour",
            "weekday",
            "options",
            "score_with",
            "keep_last",
            "enabled",
            "next_run_at",
            "last_checked_at",
            "last_fingerprint",
            "created_by",
            "created_at",
            "snapshots",
        ]
        read_only_fields = fields

    def get_campaigns(self, schedule) -> list[int]:
        return sorted(schedule.campaigns.values_list("pk", flat=True))

    @extend_schema(responses=SnapshotSerializer(many=True))
    def get_snapshots(self, schedule) -> list[dict]:
        """The newest snapshots first (at most 50)."""
        rows = schedule.snapshots.order_by("-created_at", "-pk")[:SNAPSHOTS_LISTED]
        return SnapshotSerializer(rows, many=True).data


class ReleaseScheduleInputSerializer(serializers.Serializer):
    """Types only; the rules (and the defaults of a new schedule) are the service's."""

    name = serializers.CharField(max_length=200, required=False)
    version = serializers.CharField(max_length=100, required=False)
    campaigns = serializers.ListField(child=serializers.IntegerField(), required=False)
    frequency = serializers.CharField(max_length=32, required=False)
    hour = serializers.IntegerField(required=False)
    weekday = serializers.IntegerField(required=False)
    keep_last = serializers.IntegerField(required=False)
    enabled = serializers.BooleanField(required=False)
    formats = serializers.ListField(child=serializers.CharField(), required=False)
    splits = serializers.ListField(child=serializers.CharField(), required=False)
    approved_only = serializers.BooleanField(required=False)
    include_test_answers = serializers.BooleanField(required=False)
    include_history = serializers.BooleanField(required=False)
    squad_version = serializers.CharField(required=False)
    language = serializers.CharField(max_length=12, required=False)
    score_with = serializers.JSONField(required=False)


class RunNowSerializer(serializers.Serializer):
    built = serializers.BooleanField()
    release = serializers.IntegerField(allow_null=True)
    fingerprint = serializers.CharField()
    message = serializers.CharField()


class ReleaseScheduleViewSet(viewsets.ModelViewSet):
    """Admins only: schedules of snapshots, each with its newest snapshots."""

    permission_classes = [IsPlatformAdmin]
    serializer_class = ReleaseScheduleSerializer
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]

    def get_queryset(self):
        return ReleaseSchedule.objects.select_related("created_by").order_by("name")

    def _input(self, request) -> dict:
        payload = ReleaseScheduleInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return dict(payload.validated_data)

    @extend_schema(
        request=ReleaseScheduleInputSerializer, responses={201: ReleaseScheduleSerializer}
    )
    def create(self, request):
        schedule = schedule_create(created_by=request.user, **self._input(request))
        return Response(self.get_serializer(schedule).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ReleaseScheduleInputSerializer, responses=ReleaseScheduleSerializer)
    def update(self, request, pk=None, partial=False):
        """PUT and PATCH both change the values given; the others stay."""
        schedule = schedule_update(schedule=self.get_object(), **self._input(request))
        return Response(self.get_serializer(schedule).data)

    @extend_schema(request=ReleaseScheduleInputSerializer, responses=ReleaseScheduleSerializer)
    def partial_update(self, request, pk=None):
        return self.update(request, pk=pk, partial=True)

    def destroy(self, request, pk=None):
        """The schedule goes; its snapshots stay, as releases of no schedule."""
        schedule_delete(schedule=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={201: RunNowSerializer, 200: RunNowSerializer})
    @action(detail=True, methods=["post"])
    def run(self, request, pk=None):
        """Take a snapshot now: 201 with the new release, or 200 with `built` false when the
        data has not changed since the last snapshot."""
        outcome = schedule_run_now(schedule=self.get_object(), created_by=request.user)
        body = outcome.as_dict()
        body = {key: body[key] for key in ("built", "release", "fingerprint")}
        if outcome.built:
            body["message"] = _("Snapshot %(name)s is being built.") % {
                "name": outcome.release.name
            }
            return Response(body, status=status.HTTP_201_CREATED)
        body["message"] = _("The data has not changed since the last snapshot: nothing to build.")
        return Response(body, status=status.HTTP_200_OK)
