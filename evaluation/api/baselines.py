"""The baseline runs API: admins start runs and follow them, with their scores; they import
SQuAD-format training files (`/baseline-runs/training-files/`) that runs may train on, stop
sharing them (`…/training-files/{id}/unshare/`) and delete them (`DELETE
…/training-files/{id}/`)."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from core.api import JobSerializer, JobViewSet, job_fields
from core.inputs import object_by_id
from core.parsers import DepthLimitedJSONParser
from evaluation.models import BaselineRun, CrossEvaluation, TrainingFile
from evaluation.services.baselines.runs import baseline_run_start
from evaluation.services.baselines.sources import (
    training_file_delete,
    training_file_import,
    training_file_unshare,
    training_files_readable,
)
from evaluation.services.cross_evaluation import cross_evaluation_start
from evaluation.services.curves.learning_curves import learning_curve_start
from exports.models import Release

# A training file's id in the path (its rows are TrainingFile, not this viewset's runs).
FILE_ID = OpenApiParameter("file_id", int, OpenApiParameter.PATH)


# What every run's API shows of its model, and of the normalization its scores used.
RUN_MODEL = "kind model hyperparameters device"
NORMALIZATION = "normalization normalization_version"


class BaselineRunSerializer(JobSerializer):
    # "" for the kinds that do not train (the schema's enum must say so).
    mode = serializers.ChoiceField(
        choices=BaselineRun.Mode.choices, allow_blank=True, read_only=True
    )
    curve = serializers.SerializerMethodField(
        help_text="learning_curve runs: settings, points (without each dev question's F1), "
        "fit, estimates at 1×, 2× and 4×, per-type gains, proposed targets."
    )

    def get_curve(self, run) -> dict:
        curve = dict(run.curve or {})
        if "points" in curve:
            curve["points"] = [
                {k: v for k, v in point.items() if k != "per_question_f1"}
                for point in curve["points"]
            ]
        return curve

    class Meta:
        model = BaselineRun
        fields = job_fields(
            f"release {RUN_MODEL}",
            results=f"metrics breakdown {NORMALIZATION} checkpoint train_sources mode curve log",
        )
        read_only_fields = fields


class BaselineRunCreateSerializer(serializers.Serializer):
    """Types only; the rules are the service's."""

    release = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=BaselineRun.Kind.choices)
    model = serializers.CharField(required=False, allow_blank=True, max_length=500)
    hyperparameters = serializers.DictField(required=False)
    train_releases = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Fine-tuning only: train on these finished releases' train splits.",
    )
    train_files = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Fine-tuning only: train on these imported training files (yours or shared).",
    )
    fractions = serializers.JSONField(
        required=False,
        help_text="learning_curve only (another kind refuses it): percentages of the train "
        "questions (default 10, 25, 50, 100), increasing, each in (0, 100].",
    )


class CrossEvaluationSerializer(JobSerializer):
    split = serializers.ChoiceField(
        choices=CrossEvaluation.Split.choices, allow_blank=True, read_only=True
    )
    file = serializers.IntegerField(
        source="file_key",
        read_only=True,
        allow_null=True,
        help_text="The imported file scored on (its id stays after the file is deleted).",
    )

    class Meta:
        model = CrossEvaluation
        fields = job_fields(
            "run release split file target_label", results=f"metrics breakdown {NORMALIZATION}"
        )
        read_only_fields = fields


class CrossEvaluationCreateSerializer(serializers.Serializer):
    """Types only; the rules are the service's. A release and its split, or a file."""

    release = serializers.IntegerField(
        required=False, help_text="Another finished release, scored on its `split`."
    )
    split = serializers.ChoiceField(choices=CrossEvaluation.Split.choices, required=False)
    file = serializers.IntegerField(
        required=False, help_text="An imported SQuAD-format file (yours or shared)."
    )


class SkippedQuestionSerializer(serializers.Serializer):
    id = serializers.CharField(
        allow_null=True, help_text="The question's id in the file; null when it had none."
    )
    reason = serializers.ChoiceField(
        choices=[
            ("misaligned", "the first answer is not the context's text at its offset"),
            ("unanswered", "no answer, and is_impossible is not true"),
            ("malformed", "an entry the SQuAD reader could not read"),
        ]
    )
    detail = serializers.CharField(help_text="Where in the file, and what was wrong.")


class TrainingFileSerializer(serializers.ModelSerializer):
    skipped = SkippedQuestionSerializer(
        many=True,
        read_only=True,
        help_text="The questions the import skipped (the first 1,000; counts.skipped has them "
        "all), in the file's order.",
    )

    class Meta:
        model = TrainingFile
        fields = [
            "id",
            "name",
            "language",
            "translated",
            "shared",
            "squad_version",
            "bytes",
            "sha256",
            "counts",
            "skipped",
            "created_by",
            "created_at",
        ]
        read_only_fields = fields


class TrainingFileUploadSerializer(serializers.Serializer):
    """Types only; the rules (and the file's checks) are the service's."""

    file = serializers.FileField(help_text="A SQuAD v1.1 or v2.0 JSON file.")
    name = serializers.CharField(required=False, allow_blank=True, max_length=200)
    language = serializers.CharField(required=False, allow_blank=True, max_length=16)
    translated = serializers.BooleanField(required=False, default=False)
    shared = serializers.BooleanField(required=False, default=False)


class BaselineRunViewSet(JobViewSet):
    """Admins only: baseline runs and their scores per split and per type."""

    serializer_class = BaselineRunSerializer
    create_serializer_class = BaselineRunCreateSerializer
    queryset = BaselineRun.objects.all()

    def start(self, data):
        release = object_by_id(
            Release.objects, data["release"], field="release", missing=_("No such release.")
        )
        if data["kind"] == BaselineRun.Kind.LEARNING_CURVE:
            return learning_curve_start(
                release=release,
                model=data.get("model", ""),
                hyperparameters=data.get("hyperparameters", {}),
                fractions=data.get("fractions"),
                created_by=self.request.user,
                train_releases=data.get("train_releases"),
                train_files=data.get("train_files"),
            )
        return baseline_run_start(
            release=release,
            kind=data["kind"],
            model=data.get("model", ""),
            hyperparameters=data.get("hyperparameters", {}),
            created_by=self.request.user,
            train_releases=data.get("train_releases"),
            train_files=data.get("train_files"),
            as_user=True,
            fractions=data.get("fractions"),
        )

    @extend_schema(
        methods=["GET"], request=None, responses={200: CrossEvaluationSerializer(many=True)}
    )
    @extend_schema(
        methods=["POST"],
        request=CrossEvaluationCreateSerializer,
        responses={201: CrossEvaluationSerializer},
    )
    @action(detail=True, methods=["get", "post"], url_path="evaluations", pagination_class=None)
    def evaluations(self, request, pk=None):
        """GET: the run's scores on other datasets, oldest first. POST `{release, split}` or
        `{file}`: score this finished run on another release's dev or test split, or on an
        imported file (the cross-dataset matrix's columns); 409 if it is already scored there
        and that has not failed."""
        run = self.get_object()
        if request.method == "GET":
            rows = run.cross_evaluations.order_by("created_at", "pk")[:500]
            return Response(CrossEvaluationSerializer(rows, many=True).data)
        payload = CrossEvaluationCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        made = cross_evaluation_start(
            run=run,
            release=data.get("release"),
            split=data.get("split", ""),
            file=data.get("file"),
            created_by=request.user,
        )
        return Response(CrossEvaluationSerializer(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"], request=None, responses={200: TrainingFileSerializer(many=True)}
    )
    @extend_schema(
        methods=["POST"],
        request={"multipart/form-data": TrainingFileUploadSerializer},
        responses={201: TrainingFileSerializer},
    )
    @action(
        detail=False,
        methods=["get", "post"],
        url_path="training-files",
        pagination_class=None,
        parser_classes=[MultiPartParser, FormParser, DepthLimitedJSONParser],
    )
    def training_files(self, request):
        """GET: the training files you may use (yours and the shared ones), newest first.
        POST (multipart): import a SQuAD-format JSON file to train baselines on."""
        if request.method == "GET":
            files = training_files_readable(request.user)[:500]
            return Response(TrainingFileSerializer(files, many=True).data)
        payload = TrainingFileUploadSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        made = training_file_import(
            file=data["file"],
            name=data.get("name", ""),
            language=data.get("language", ""),
            translated=data["translated"],
            shared=data["shared"],
            created_by=request.user,
        )
        return Response(TrainingFileSerializer(made).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None}, parameters=[FILE_ID])
    @action(detail=False, methods=["delete"], url_path=r"training-files/(?P<file_id>[^/.]+)")
    def training_file(self, request, file_id=None):
        """Delete a training file (yours, or a shared one) and its stored bytes; runs that
        trained on it keep its name. 404 for a file you may not read; 409 while a run that
        has not ended trains on it."""
        training_file_delete(file_id=file_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={200: TrainingFileSerializer}, parameters=[FILE_ID])
    @action(detail=False, methods=["post"], url_path=r"training-files/(?P<file_id>[^/.]+)/unshare")
    def training_file_stop_sharing(self, request, file_id=None):
        """Stop sharing a training file (yours, or a shared one): only its uploader may then
        read it and train on it."""
        found = training_file_unshare(file_id=file_id, user=request.user)
        return Response(TrainingFileSerializer(found).data)
