"""Questions: annotators see their own, reviewers and admins all, each with its history."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import viewsets

from annotation.api.serializers.questions import QuestionDetailSerializer, QuestionSerializer
from annotation.models import Question
from annotation.selectors.questions import questions_filter, questions_visible_to
from core.schema import ID_SCHEMA
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
