"""API plumbing shared by every app: the error shape, the base of every job API, and the
worker-check API."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.views.defaults import page_not_found
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, serializers, status, viewsets
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ServiceError
from core.models import WorkerCheck
from core.permissions import IsPlatformAdmin
from core.services.workers import worker_check_start


def _as_field_errors(detail) -> dict[str, list[str]]:
    """Flatten DRF's error detail into {field: [messages]}."""
    if isinstance(detail, dict):
        errors = {}
        for field, value in detail.items():
            if isinstance(value, dict):
                for sub, messages in _as_field_errors(value).items():
                    errors[f"{field}.{sub}"] = messages
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                for index, item in enumerate(value):
                    for sub, messages in _as_field_errors(item).items():
                        errors[f"{field}[{index}].{sub}"] = messages
            else:
                errors[field] = [str(m) for m in (value if isinstance(value, list) else [value])]
        return errors
    if isinstance(detail, list):
        return {"non_field_errors": [str(m) for m in detail]}
    return {"detail": [str(detail)]}


def exception_handler(exc, context):
    """Answer every refused request as {"errors": {field: [messages]}} with a 4xx."""
    if isinstance(exc, ServiceError):
        return Response({"errors": exc.errors}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    key = "non_field_errors" if isinstance(exc, exceptions.ValidationError) else "detail"
    detail = exc.detail if isinstance(exc, exceptions.APIException) else response.data
    errors = _as_field_errors(detail)
    if list(errors) == ["detail"] and key == "non_field_errors":
        errors = {key: errors["detail"]}
    response.data = {"errors": errors}
    return response


class JobViewSet(viewsets.ReadOnlyModelViewSet):
    """Admins start a job (POST) and follow it (GET): the one `create` of every job's API.

    A subclass names the body's serializer (`create_serializer_class`, types only; None for a
    job without settings) and starts the job from the checked body in `start`; the answer is
    the new row, 201. The schema of `create` is documented from these two serializers.
    """

    permission_classes = [IsPlatformAdmin]
    create_serializer_class: type[serializers.Serializer] | None = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        body, row = cls.create_serializer_class, cls.serializer_class
        extend_schema_view(create=extend_schema(request=body, responses={201: row}))(cls)

    def start(self, data: dict):
        """Start the job from the checked body; return its row."""
        raise NotImplementedError

    def create(self, request):
        data = {}
        if self.create_serializer_class is not None:
            payload = self.create_serializer_class(data=request.data)
            payload.is_valid(raise_exception=True)
            data = payload.validated_data
        job = self.start(data)
        return Response(self.get_serializer(job).data, status=status.HTTP_201_CREATED)


# Every job row's state and times (`core.models.Job`), as each job's API shows them.
JOB_STATE = ("status", "progress", "message", "error")
JOB_TIMES = ("created_at", "started_at", "finished_at")


def job_fields(settings: str = "", results: str = "", more: str = "") -> list[str]:
    """A job serializer's `fields`, in the order every job's API lists them: the id and the
    job's own settings, its state, what it produced, its times, then `more` (each argument
    names fields apart by spaces, as `namedtuple` does)."""
    own = settings.split(), results.split(), more.split()
    return ["id", *own[0], *JOB_STATE, *own[1], *JOB_TIMES, *own[2]]


# The base of a job row's serializer: its message in the reader's language. A subclass lists
# its fields with `job_fields`, all read only. (No docstring: the schema would show it as the
# description of every job's row.)
class JobSerializer(serializers.ModelSerializer):
    message = serializers.CharField(source="message_text", read_only=True)


class WorkerCheckSerializer(JobSerializer):
    class Meta:
        model = WorkerCheck
        fields = job_fields("queue", results="worker")
        read_only_fields = fields


class WorkerCheckCreateSerializer(serializers.Serializer):
    queue = serializers.CharField(max_length=32)


class WorkerCheckViewSet(JobViewSet):
    """Admins send a check to a queue and watch a worker pick it up."""

    serializer_class = WorkerCheckSerializer
    create_serializer_class = WorkerCheckCreateSerializer
    queryset = WorkerCheck.objects.all()

    def start(self, data):
        return worker_check_start(queue=data["queue"], created_by=self.request.user)


def not_found(request, exception=None):
    """Django's 404 handler (`config.urls.handler404`): a path under /api/ that names no
    operation (an id that is not a number, a mistyped name) answers the API's JSON error, as
    its schema says; every other path, the site's page."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"errors": {"detail": [str(exceptions.NotFound.default_detail)]}}, status=404
        )
    return page_not_found(request, exception)
