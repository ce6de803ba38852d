"""Per-annotator quality (reviewers and admins), and pausing an annotator (admins)."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.services import annotator_pause, annotator_resume
from annotation.api.serializers.quality import (
    AnnotatorStateSerializer,
    PauseSerializer,
    QualityRowSerializer,
)
from annotation.models import Campaign
from annotation.selectors.quality import (
    quality_measures,
    quality_measures_params,
    quality_table,
)
from core.inputs import object_by_id
from core.permissions import HasRole, IsPlatformAdmin
from core.roles import Role
from core.services.figure_jobs import figure_read


class IsReviewerOrAdmin(HasRole):
    roles = (Role.REVIEWER, Role.ADMIN)


class QualityView(APIView):
    """Reviewers and admins: per-annotator quality (questions, reviewed, verdict shares,
    median seconds; agreement, signs of careless work and flags: docs/quality.md).
    Read-only: pausing stays with admins (`AnnotatorPauseView`)."""

    permission_classes = [IsReviewerOrAdmin]

    @extend_schema(
        parameters=[OpenApiParameter("campaign", OpenApiTypes.INT)],
        responses=QualityRowSerializer(many=True),
    )
    def get(self, request):
        campaign = None
        if request.query_params.get("campaign"):
            campaign = object_by_id(
                Campaign.objects,
                request.query_params["campaign"],
                field="campaign",
                missing=_("No such campaign."),
            )
        measures = quality_measures()
        value = None
        if measures is not None:
            value = figure_read(measures.figure, **quality_measures_params(campaign)).value
        rows = quality_table(campaign=campaign, measures=value)
        return Response(QualityRowSerializer(rows, many=True).data)


class AnnotatorPauseView(APIView):
    """Admins: pause an annotator (POST) or let them work again (DELETE)."""

    permission_classes = [IsPlatformAdmin]

    def _user(self, pk):
        users = get_user_model().objects
        return object_by_id(users, pk, field="annotator", missing=_("No such annotator."))

    @extend_schema(request=PauseSerializer, responses=AnnotatorStateSerializer)
    def post(self, request, pk):
        user = self._user(pk)
        payload = PauseSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        annotator_pause(user=user, note=payload.validated_data.get("note", ""))
        return Response(AnnotatorStateSerializer(user).data)

    @extend_schema(request=None, responses={200: AnnotatorStateSerializer})
    def delete(self, request, pk):
        user = self._user(pk)
        annotator_resume(user=user)
        return Response(AnnotatorStateSerializer(user).data)
