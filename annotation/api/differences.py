"""Question–answer differences (reviewers and admins): the sample with one's own labels, a
question's labels (PUT), and the table per wave (docs/differences.md)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.models import DifferenceLabel
from annotation.selectors.differences import difference_table, labeller_check, sample_rows
from annotation.services.differences import difference_label
from core.inputs import check_text

LabelsSerializer = inline_serializer(  # the schema only: `difference_label` checks the body
    "DifferenceLabels",
    fields={
        "labels": serializers.ListField(child=serializers.ChoiceField(DifferenceLabel.choices))
    },
)


def _wave(request) -> str | None:
    wave = request.query_params.get("wave") or None
    return check_text(wave, "wave") if wave else None


class DifferenceSampleView(APIView):
    """The sampled dev questions (6 per article), in labelling order, each with its answer
    and the caller's labels (null: not labelled by them yet)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("wave", OpenApiTypes.STR)], responses=OpenApiTypes.OBJECT
    )
    def get(self, request):
        labeller_check(request.user)
        rows = sample_rows(request.user, wave=_wave(request))
        return Response({"count": len(rows), "results": rows})


class DifferenceLabelsView(APIView):
    """PUT a sampled question's labels: `{"labels": [...]}` (an empty list: none applies)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=LabelsSerializer, responses=OpenApiTypes.OBJECT)
    def put(self, request, pk):
        labeller_check(request.user)
        data = request.data if isinstance(request.data, dict) else {}
        labelling = difference_label(question=pk, labeller=request.user, labels=data.get("labels"))
        return Response(
            {
                "question": labelling.question_id,
                "labels": labelling.labels,
                "created_at": labelling.created_at,
                "updated_at": labelling.updated_at,
            }
        )


class DifferenceTableView(APIView):
    """The table: per wave and in all, each label's count and percentage of the labelled
    sampled questions."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request):
        labeller_check(request.user)
        return Response(difference_table())
