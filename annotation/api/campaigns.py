"""Campaigns: workers list the active ones and claim their next item; admins change them."""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from annotation.api.serializers.campaigns import CampaignSerializer, CampaignWriteSerializer
from annotation.api.serializers.work import LeaseSerializer
from annotation.api.work import lease_response
from annotation.models import Campaign
from annotation.selectors.campaigns import campaign_for, campaigns_for
from annotation.selectors.qualification import qualification_data
from annotation.services.answers import answer_claim_next
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.qualification import qualification_reset, qualification_retry
from annotation.services.reviews import review_claim_next
from annotation.services.work import lease_claim_next
from core.errors import ServiceError
from core.inputs import object_by_id, parse_id
from core.permissions import IsAnnotator, IsPlatformAdmin, IsReviewer


class CampaignViewSet(viewsets.ModelViewSet):
    serializer_class = CampaignSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [IsAuthenticated()]
        if self.action in ("leases", "qualification", "qualification_retry"):
            return [IsAnnotator()]
        if self.action == "review_leases":
            return [IsReviewer()]
        return [IsPlatformAdmin()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation, no real user
            return Campaign.objects.none()
        return campaigns_for(self.request.user)

    def _payload(self, partial: bool) -> dict:
        payload = CampaignWriteSerializer(data=self.request.data, partial=partial)
        payload.is_valid(raise_exception=True)
        return dict(payload.validated_data)

    @extend_schema(request=CampaignWriteSerializer, responses={201: CampaignSerializer})
    def create(self, request):
        campaign = campaign_create(created_by=request.user, **self._payload(partial=False))
        return Response(CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CampaignWriteSerializer, responses=CampaignSerializer)
    def partial_update(self, request, pk=None):
        campaign = campaign_update(campaign=self.get_object(), **self._payload(partial=True))
        return Response(CampaignSerializer(campaign).data)

    @extend_schema(request=None, responses={201: LeaseSerializer, 200: LeaseSerializer, 204: None})
    @action(detail=True, methods=["post"])
    def leases(self, request, pk=None):
        """Claim the next paragraph (questions) or question (additional answers).

        201 with a new lease, 200 with the one already held, 204 when nothing is left.
        """
        return leases_response(request.user, None, pk=pk)

    @extend_schema(request=None, responses={201: LeaseSerializer, 200: LeaseSerializer, 204: None})
    @action(detail=True, methods=["post"], url_path="review-leases")
    def review_leases(self, request, pk=None):
        """Reviewers: claim the next sampled question to audit (201), the one held (200), 204.

        Closed questions campaigns too: their sampled questions still wait for an audit.
        """
        campaign = object_by_id(
            Campaign.objects.filter(kind__in=Campaign.WRITING_KINDS),
            pk,
            field="campaign",
            missing=_("No such questions campaign."),
        )
        return claim_response(review_claim_next(campaign=campaign, reviewer=request.user))

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def qualification(self, request, pk=None):
        """Annotators: where they stand in the campaign's qualification round (`status`:
        exempt, new, open, passed, failed, waiting) and their current try's answers, each with
        the right answer and its score."""
        campaign = _campaign(request.user, pk)
        return Response(qualification_data(campaign=campaign, user=request.user))

    @extend_schema(request=None, responses={201: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["post"], url_path="qualification/retry")
    def qualification_retry(self, request, pk=None):
        """Annotators who failed the round once: start the second try (409 otherwise)."""
        campaign = _campaign(request.user, pk)
        qualification_retry(campaign=campaign, user=request.user)
        data = qualification_data(campaign=campaign, user=request.user)
        return Response(data, status=status.HTTP_201_CREATED)

    @extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["post"], url_path="qualification/reset")
    def qualification_reset(self, request, pk=None):
        """Admins: `{annotator: id}` who failed the round starts it again."""
        campaign = self.get_object()
        data = request.data if isinstance(request.data, dict) else {}
        annotator = object_by_id(
            get_user_model().objects.all(),
            data.get("annotator"),
            field="annotator",
            missing=_("No such person."),
        )
        reset = qualification_reset(campaign=campaign, annotator=annotator, admin=request.user)
        return Response({"reset": reset})


def leases_response(user, _data, *, pk) -> Response:
    """`POST /campaigns/{pk}/leases/`: the view's work, also called by the lean way
    (`core.lean.lean_post`, config/api_urls.py) with the same user; it reads no body."""
    campaign = _campaign(user, pk)
    claim_next = (
        answer_claim_next if campaign.kind == Campaign.Kind.ADDITIONAL_ANSWERS else lease_claim_next
    )
    return claim_response(claim_next(campaign=campaign, annotator=user))


def _campaign(user, pk) -> Campaign:
    """The campaign of a claim, from the cache (`campaign_for`): the hot path reads no row."""
    try:
        campaign = campaign_for(user, parse_id(pk, "campaign"))
    except ServiceError:
        campaign = None
    if campaign is None:
        raise Http404
    return campaign


def claim_response(claim) -> Response:
    if claim is None:
        return Response(status=status.HTTP_204_NO_CONTENT)
    return lease_response(claim.lease, created=claim.created)
