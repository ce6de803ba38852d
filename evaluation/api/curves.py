"""A campaign's learning-curve estimate and the question-type targets it proposes (admins):
what the campaign dashboard shows and its accept form saves."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import Campaign
from core.inputs import object_by_id
from core.permissions import IsPlatformAdmin
from evaluation.services.curves.campaigns import campaign_learning_estimate, campaign_targets_accept


def _campaign(pk) -> Campaign:
    return object_by_id(Campaign.objects, pk, field="campaign", missing=_("No such campaign."))


def estimate_data(estimate: dict | None) -> dict:
    """Return the estimate as JSON (`{"estimate": null}` when no curve covers the campaign)."""
    if estimate is None:
        return {"estimate": None}
    run = estimate["run"]
    shown = {k: v for k, v in estimate.items() if k != "run"}
    return {"estimate": shown | {"run": run.pk, "release": run.release_id, "model": run.model}}


class CampaignLearningEstimateView(APIView):
    """Admins: about how many more hours of this campaign's annotation buy how much F1, from
    the newest finished learning curve covering its questions, with the proposed targets."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, pk):
        return Response(estimate_data(campaign_learning_estimate(campaign=_campaign(pk))))


class CampaignTargetsAcceptView(APIView):
    """Admins: save the question-type targets (the proposal, accepted or edited):
    `POST {question_type_targets: {type: whole percent}}`; 400 naming the field."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request, pk):
        campaign = campaign_targets_accept(
            campaign=_campaign(pk), targets=request.data.get("question_type_targets")
        )
        return Response({"question_type_targets": campaign.question_type_targets})
