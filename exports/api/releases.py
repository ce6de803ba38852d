"""Releases API: admins create releases, follow their build, download files, diff two."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import JobViewSet
from core.inputs import object_by_id
from core.permissions import IsPlatformAdmin
from core.schema import error_responses
from corpus.models import Split
from exports.diff import release_diff
from exports.downloads import release_file_response
from exports.models import Release, ReleaseFile
from exports.services.releases import release_create, release_resume


class ReleaseFileSerializer(serializers.ModelSerializer):
    class Meta:
        model = ReleaseFile
        fields = ["name", "bytes", "sha256", "counts", "media_type"]


class ReleaseSerializer(serializers.ModelSerializer):
    message = serializers.CharField(source="message_text", read_only=True)
    files = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.username", default=None)

    class Meta:
        model = Release
        fields = [
            "id",
            "name",
            "version",
            "description",
            "options",
            "status",
            "progress",
            "message",
            "error",
            "attempts",
            "created_by",
            "created_at",
            "started_at",
            "finished_at",
            "files",
            "manifest",
            "score_with",
            "schedule",  # a scheduled snapshot's schedule (docs/release-schedules.md)
            "data_fingerprint",
            "files_pruned_at",  # its downloadable files removed by the schedule's retention
        ]
        read_only_fields = fields

    @extend_schema_field(ReleaseFileSerializer(many=True))
    def get_files(self, release):
        """The downloadable files (the server keeps the answers it scores with apart)."""
        shown = [item for item in release.files.all() if not item.internal]
        return ReleaseFileSerializer(shown, many=True).data


class StrictChoiceField(serializers.ChoiceField):
    """A choice given as a JSON string: 2 or 2.0 is not "2.0" (DRF would turn it into one)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class ReleaseCreateSerializer(serializers.Serializer):
    """Types only; the rules are the service's."""

    name = serializers.CharField(max_length=100)
    version = serializers.CharField(max_length=32)
    description = serializers.CharField(required=False, allow_blank=True, max_length=5000)
    formats = serializers.ListField(child=serializers.ChoiceField(["squad", "hf", "mrqa"]))
    splits = serializers.ListField(child=serializers.ChoiceField(Split.choices), required=False)
    approved_only = serializers.BooleanField(required=False, default=False)
    include_test_answers = serializers.BooleanField(required=False, default=False)
    include_history = serializers.BooleanField(required=False, default=False)
    squad_version = StrictChoiceField(
        ["1.1", "2.0"],
        required=False,
        default="1.1",
        help_text='"1.1": answerable questions only; "2.0": with the unanswerable questions '
        "(SQuAD 2.0 layout; MRQA leaves them out).",
    )
    campaigns = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The campaigns whose questions the release takes, by id (left out or []: "
        "every campaign; docs/release-schedules.md).",
    )
    language = serializers.CharField(
        required=False,
        max_length=12,
        help_text="The release's one language (a code of the registry, docs/languages.md); "
        "left out: its campaigns' language, else the site's. A release never mixes languages.",
    )
    score_with = serializers.JSONField(
        required=False,
        help_text='Baselines to run once built (docs/release-scoring.md): [{"kind": "lexical"}, '
        '{"kind": "finetune", "model": "camembert-base", "hyperparameters": {"epochs": 3}}, '
        '{"kind": "http", "model": "http://host:8888/"}]; scores at /releases/{id}/scoring/.',
    )


class ReleaseViewSet(JobViewSet):
    """Admins only: every release, its build, its files."""

    serializer_class = ReleaseSerializer
    create_serializer_class = ReleaseCreateSerializer

    def get_queryset(self):
        return Release.objects.select_related("created_by").prefetch_related("files")

    def start(self, data):
        return release_create(created_by=self.request.user, **data)

    @extend_schema(request=None, responses=ReleaseSerializer)
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return Response(ReleaseSerializer(release_resume(release=self.get_object())).data)

    @extend_schema(
        parameters=[OpenApiParameter("against", OpenApiTypes.INT, required=True)],
        responses={200: OpenApiTypes.OBJECT, **error_responses(409)},
    )
    @action(detail=True, methods=["get"])
    def diff(self, request, pk=None):
        """Questions added, removed and changed from release `against` to this one."""
        old = object_by_id(
            Release.objects,
            request.query_params.get("against", ""),
            field="against",
            missing=_("No such release."),
        )
        return Response(release_diff(old=old, new=self.get_object()))


class ReleaseFileView(APIView):
    """Admins only: download one file of a finished release, as an attachment."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(
        responses={
            # What each kind of file is sent as (`ReleaseFile.media_type`): SQuAD files and
            # the manifest, HF and history lines, MRQA's gzip, the datasheet.
            (200, "application/json"): OpenApiTypes.OBJECT,
            (200, "application/x-ndjson"): OpenApiTypes.BINARY,
            (200, "application/gzip"): OpenApiTypes.BINARY,
            (200, "text/markdown"): OpenApiTypes.STR,
            **error_responses(409, 410),
        }
    )
    def get(self, request, pk: int, name: str):
        release = object_by_id(Release.objects, pk, field="release", missing=_("No such release."))
        return release_file_response(release, name)


@extend_schema(exclude=True)
class ReleaseFileSlashView(ReleaseFileView):
    """The same download with a trailing slash (the router's other routes take one)."""
