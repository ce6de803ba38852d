"""Questions: annotators see their own, reviewers and admins all, each with its history."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from annotation.api.serializers.questions import QuestionDetailSerializer, QuestionSerializer
from annotation.models import Question
from annotation.selectors.questions import questions_filter, questions_visible_to
from annotation.services.gold import gold_mark, gold_unmark
from core.permissions import IsPlatformAdmin
from core.schema import ID_SCHEMA, error_responses
from corpus.models import Split

# As `questions_filter` reads them ("" filters nothing).
FILTERS = [
    OpenApiParameter("campaign", ID_SCHEMA),
    OpenApiParameter("author", OpenApiTypes.STR),
    OpenApiParameter("status", OpenApiTypes.STR, enum=["", *Question.Status.values]),
    OpenApiParameter("split", OpenApiTypes.STR, enum=["", *Split.values]),
]


@extend_schema_view(list=extend_schema(parameters=FILTERS))
class QuestionViewSet(viewsets.ReadOnlyModelViewSet):
    """Questions; annotators see only their own, reviewers and admins see all."""

    serializer_class = QuestionSerializer
    lookup_field = "uuid"

    def get_serializer_class(self):
        return QuestionDetailSerializer if self.action == "retrieve" else QuestionSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Question.objects.none()
        params = self.request.query_params
        questions = (
            questions_visible_to(self.request.user)
            .select_related("author", "paragraph__article")
            .prefetch_related("answers")
        )
        if self.action == "retrieve":
            questions = questions.prefetch_related(
                "revisions__editor", "reviews__reviewer", "reviews__revision"
            )
        return questions_filter(
            questions,
            campaign=params.get("campaign"),
            author=params.get("author"),
            status=params.get("status"),
            split=params.get("split"),
        )

    @extend_schema(
        request=None,
        responses={200: OpenApiTypes.OBJECT, **error_responses(409)},
        description=(
            "Admins: POST makes the question gold (a reviewed train or dev question whose "
            "additional answers agree with the original; a test question is refused with "
            "409), DELETE takes it out of the gold pool (its scored answers stay)."
        ),
    )
    @action(detail=True, methods=["post", "delete"], permission_classes=[IsPlatformAdmin])
    def gold(self, request, uuid=None):
        question = self.get_object()
        if request.method == "DELETE":
            gold_unmark(question=question, admin=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        gold = gold_mark(question=question, admin=request.user)
        return Response(
            {
                "question": str(question.uuid),
                "answers": gold.answers,
                "language": gold.language,
                "active": gold.active,
            }
        )
