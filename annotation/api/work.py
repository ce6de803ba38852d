"""A person's own leases, of any kind: read, save a draft, submit, give back."""

from django.db import transaction
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from annotation.api.serializers.work import (
    AnswerSerializer,
    DraftSerializer,
    LeaseReleaseSerializer,
    LeaseSerializer,
    ReviewSerializer,
    SubmitSerializer,
    lease_data,
    written_data,
)
from annotation.models import Lease, Review
from annotation.selectors.qualification import qualification_feedback
from annotation.services.answers import answer_submit
from annotation.services.reviews import review_submit
from annotation.services.work import draft_save, lease_get, lease_release, questions_submit
from core.errors import ServiceError
from core.inputs import parse_id
from core.permissions import IsAnnotatorOrReviewer
from core.schema import error_responses


def lease_response(lease: Lease, created: bool | None = None) -> Response:
    code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return Response(lease_data(lease), status=code)


def lease_of(user, pk, *, lock: bool = False) -> Lease:
    """The person's lease `pk` (a 404 naming `lease` for an id that is not one)."""
    try:
        lease_pk = parse_id(pk, "lease")
    except ServiceError:
        raise ServiceError({"lease": [_("No such lease.")]}, status=404) from None
    return lease_get(lease_pk=lease_pk, annotator=user, lock=lock)


def submit_response(user, data, *, pk) -> Response:
    """`POST /leases/{pk}/submit/`: the view's work, also called by the lean way
    (`core.lean.lean_post`, config/api_urls.py) with the same user and body."""
    data = data if isinstance(data, dict) else None
    with transaction.atomic():
        lease = lease_of(user, pk, lock=True)
        if lease.kind == Lease.Kind.ANSWER:
            answer = answer_submit(lease=lease, data=data, locked=True)
        elif lease.kind == Lease.Kind.REVIEW:
            review = review_submit(lease=lease, data=data, locked=True)
        else:
            questions = data.get("questions") if data else None
            stored = questions_submit(lease=lease, questions=questions, locked=True)
    if lease.kind == Lease.Kind.ANSWER:
        data = AnswerSerializer(answer).data
        item = getattr(answer, "qualification_item", None)
        if item is not None:  # the qualification round: the right answer and the score
            data["qualification"] = qualification_feedback(item)
        return Response(data, status=status.HTTP_201_CREATED)
    if lease.kind == Lease.Kind.REVIEW:
        review = Review.objects.select_related("reviewer", "question", "revision").get(pk=review.pk)
        return Response(ReviewSerializer(review).data, status=status.HTTP_201_CREATED)
    author = user.username
    return Response(
        [written_data(question, author) for question in stored],
        status=status.HTTP_201_CREATED,
    )


class LeaseViewSet(viewsets.GenericViewSet):
    """A person's own leases, of any kind: read, save a draft, submit, give back.

    The calls that change a lease read it with its row lock, its campaign, paragraph and
    question in one statement (`lease_get(lock=True)`) inside one transaction, and answer
    with plain dicts: the work loop's hot path.
    """

    permission_classes = [IsAnnotatorOrReviewer]
    serializer_class = LeaseSerializer

    def get_queryset(self):
        return Lease.objects.none()

    def _lease(self, pk, *, lock: bool = False) -> Lease:
        return lease_of(self.request.user, pk, lock=lock)

    def retrieve(self, request, pk=None):
        return lease_response(self._lease(pk))

    @extend_schema(
        request=DraftSerializer, responses={200: LeaseSerializer, **error_responses(413)}
    )
    @action(detail=True, methods=["put"])
    def draft(self, request, pk=None):
        payload = DraftSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        with transaction.atomic():
            lease = self._lease(pk, lock=True)
            saved = draft_save(lease=lease, draft=payload.validated_data["draft"], locked=True)
        return lease_response(saved)

    @extend_schema(
        request=SubmitSerializer,
        responses={201: OpenApiTypes.OBJECT},
        description=(
            "Write lease: `{questions: [...]}` → the stored questions. Answer lease: "
            "`{answer_start, answer_text, seconds_spent}` or `{no_answer: true}` → the answer. "
            "Review lease: `{verdict, reason?, comment?, question_text?, answer_start?, "
            "answer_text?}` → the review; on an unanswerable question, `{verdict: "
            '"answerable", answer_start, answer_text, question_text?}` makes it answerable '
            "with that answer."
        ),
    )
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        return submit_response(request.user, request.data, pk=pk)

    @extend_schema(request=LeaseReleaseSerializer, responses=LeaseSerializer)
    @action(detail=True, methods=["post"])
    def release(self, request, pk=None):
        payload = LeaseReleaseSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        with transaction.atomic():
            lease = self._lease(pk, lock=True)
            released = lease_release(
                lease=lease, reason=data["reason"], note=data.get("note", ""), locked=True
            )
        return lease_response(released)
