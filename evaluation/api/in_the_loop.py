"""Model in the loop: a campaign's model settings (admins) and the attempts of a write lease
(its annotator)."""

from django.utils.translation import gettext as _
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Campaign, ModelAttempt
from annotation.services.work import lease_get
from core.errors import ServiceError
from core.inputs import object_by_id, parse_id
from core.permissions import IsAnnotator, IsPlatformAdmin
from core.ratelimit import RateLimited
from evaluation.services.model_loop.attempts import attempt_data, attempt_make
from evaluation.services.model_loop.campaign_model import campaign_model_data, campaign_model_set


class CampaignModelView(APIView):
    """Admins: the model that answers a campaign's questions while they are written.

    `PUT {model_kind: none|lexical|run|server, model_run?, model_url?, model_mode?:
    show|adversarial, model_f1_threshold?: 0–100, model_fooling_target?}`; a new model or
    threshold starts the campaign's next round.
    """

    permission_classes = [IsPlatformAdmin]

    def _campaign(self, pk) -> Campaign:
        return object_by_id(
            Campaign.objects.select_related("model_run"),
            pk,
            field="campaign",
            missing=_("No such campaign."),
        )

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(campaign_model_data(self._campaign(pk)))

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def put(self, request, pk):
        data = request.data if isinstance(request.data, dict) else None
        campaign = campaign_model_set(campaign=self._campaign(pk), data=data, user=request.user)
        return Response(campaign_model_data(campaign))


class LeaseAttemptsView(APIView):
    """The annotator's own write lease: ask the campaign's model the question being written.

    `POST {key, text, answer_start, answer_text}` → 201 with the model's answer, its EM/F1
    against the span and `fooled`; `status: "unavailable"` (still 201) when the model is down
    or slow; 429 with `Retry-After` past the annotator's MODEL_ATTEMPTS_RATE. `GET` lists the
    lease's attempts in order.
    """

    permission_classes = [IsAnnotator]

    def _lease(self, request, pk):
        try:
            lease_pk = parse_id(pk, "lease")
        except ServiceError:
            raise ServiceError({"lease": [_("No such lease.")]}, status=404) from None
        return lease_get(lease_pk=lease_pk, annotator=request.user)

    @extend_schema(responses={200: build_array_type(build_basic_type(OpenApiTypes.OBJECT))})
    def get(self, request, pk):
        lease = self._lease(request, pk)
        attempts = ModelAttempt.objects.filter(lease=lease).select_related("round")
        return Response([attempt_data(a) for a in attempts.order_by("key", "number")])

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={201: OpenApiTypes.OBJECT, 429: OpenApiTypes.OBJECT},
    )
    def post(self, request, pk):
        try:
            attempt = attempt_make(lease=self._lease(request, pk), data=request.data)
        except RateLimited as limited:  # past MODEL_ATTEMPTS_RATE: say when to try again
            return Response(
                {"errors": limited.errors},
                status=limited.status,
                headers={"Retry-After": str(limited.retry_after)},
            )
        return Response(attempt_data(attempt), status=status.HTTP_201_CREATED)
