"""A person's own leases, of any kind: read, save a draft, submit, give back."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from annotation.api.serializers import (
    AnswerSerializer,
    DraftSerializer,
    LeaseReleaseSerializer,
    LeaseSerializer,
    QuestionSerializer,
    ReviewSerializer,
    SubmitSerializer,
)
from annotation.models import Lease, Question, Review
from annotation.services.answers import answer_submit
from annotation.services.reviews import review_submit
from annotation.services.work import draft_save, lease_get, lease_release, questions_submit
from core.errors import ServiceError
from core.inputs import parse_id
from core.permissions import IsAnnotatorOrReviewer


def lease_response(lease: Lease, created: bool | None = None) -> Response:
    code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return Response(LeaseSerializer(lease).data, status=code)


class LeaseViewSet(viewsets.GenericViewSet):
    """A person's own leases, of any kind: read, save a draft, submit, give back."""

    permission_classes = [IsAnnotatorOrReviewer]
    serializer_class = LeaseSerializer

    def get_queryset(self):
        return Lease.objects.none()

    def _lease(self, pk) -> Lease:
        try:
            lease_pk = parse_id(pk, "lease")
        except ServiceError:
            raise ServiceError({"lease": [_("No such lease.")]}, status=404) from None
        return lease_get(lease_pk=lease_pk, annotator=self.request.user)

    def retrieve(self, request, pk=None):
        return lease_response(self._lease(pk))

    @extend_schema(request=DraftSerializer, responses=LeaseSerializer)
    @action(detail=True, methods=["put"])
    def draft(self, request, pk=None):
        lease = self._lease(pk)
        payload = DraftSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        return lease_response(draft_save(lease=lease, draft=payload.validated_data["draft"]))

    @extend_schema(
        request=SubmitSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description=(
            "Write lease: `{questions: [...]}` → the stored questions. Answer lease: "
            "`{answer_start, answer_text, seconds_spent}` or `{no_answer: true}` → the answer. "
            "Review lease: `{verdict, reason?, comment?, question_text?, answer_start?, "
            "answer_text?}` → the review."
        ),
    )
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        lease = self._lease(pk)
        data = request.data if isinstance(request.data, dict) else None
        if lease.kind == Lease.Kind.ANSWER:
            answer = answer_submit(lease=lease, data=data)
            return Response(AnswerSerializer(answer).data, status=status.HTTP_201_CREATED)
        if lease.kind == Lease.Kind.REVIEW:
            review = review_submit(lease=lease, data=data)
            review = Review.objects.select_related("reviewer", "question", "revision").get(
                pk=review.pk
            )
            return Response(ReviewSerializer(review).data, status=status.HTTP_201_CREATED)
        stored = questions_submit(lease=lease, questions=data.get("questions") if data else None)
        # One read with everything the answer shows (author, split, spans), in position order.
        rows = (
            Question.objects.filter(pk__in=[q.pk for q in stored])
            .select_related("author", "paragraph__article")
            .prefetch_related("answers")
            .order_by("position")
        )
        return Response(QuestionSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=LeaseReleaseSerializer, responses=LeaseSerializer)
    @action(detail=True, methods=["post"])
    def release(self, request, pk=None):
        lease = self._lease(pk)
        payload = LeaseReleaseSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        return lease_response(
            lease_release(lease=lease, reason=data["reason"], note=data.get("note", ""))
        )
