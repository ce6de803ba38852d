"""Campaign API: workers list the active campaigns; admins create and change them."""

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from accounts.permissions import IsAnnotator, IsPlatformAdmin
from annotation.models import Answer, Campaign, Lease, Question
from annotation.selectors import campaigns_for, questions_filter, questions_visible_to
from annotation.services import FIELDS, campaign_create, campaign_update
from annotation.work import draft_save, lease_claim_next, lease_get, lease_release, questions_submit
from core.errors import ServiceError
from core.inputs import parse_id


class CampaignSerializer(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["id", *FIELDS, "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]


class CampaignWriteSerializer(serializers.Serializer):
    """Types only; the rules (bounds, splits, targets) are the service's."""

    name = serializers.CharField(max_length=200)
    kind = serializers.CharField(max_length=32, required=False)
    language = serializers.CharField(max_length=12, required=False)
    splits = serializers.ListField(child=serializers.CharField(max_length=8), required=False)
    questions_min = serializers.IntegerField(required=False)
    questions_max = serializers.IntegerField(required=False)
    review_rate = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
    extra_answers = serializers.IntegerField(required=False)
    lease_minutes = serializers.IntegerField(required=False)
    question_type_targets = serializers.DictField(child=serializers.IntegerField(), required=False)
    guidelines = serializers.CharField(allow_blank=True, required=False, max_length=20_000)
    active = serializers.BooleanField(required=False)


class ArticleBriefSerializer(serializers.Serializer):
    title = serializers.CharField()
    split = serializers.CharField()
    url = serializers.CharField()


class ParagraphBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    article = ArticleBriefSerializer()


class LeaseSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(source="campaign.kind")
    paragraph = ParagraphBriefSerializer()
    question = serializers.SerializerMethodField()
    questions_min = serializers.IntegerField(source="campaign.questions_min")
    questions_max = serializers.IntegerField(source="campaign.questions_max")

    class Meta:
        model = Lease
        fields = [
            "id",
            "kind",
            "campaign",
            "status",
            "expires_at",
            "paragraph",
            "question",
            "questions_min",
            "questions_max",
            "draft",
            "draft_saved_at",
        ]

    @extend_schema_field({"type": "object", "nullable": True})
    def get_question(self, lease):
        return None  # additional-answer leases (next issue) carry the question here


class DraftSerializer(serializers.Serializer):
    draft = serializers.JSONField()


class SubmittedQuestionSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    answer_start = serializers.IntegerField()
    answer_text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    seconds_spent = serializers.IntegerField(required=False)


class SubmitSerializer(serializers.Serializer):
    questions = SubmittedQuestionSerializer(many=True)


class ReleaseSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=Lease.Reason.choices)
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class AnswerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Answer
        fields = ["answer_start", "text", "kind", "seconds_spent"]


class QuestionSerializer(serializers.ModelSerializer):
    id = serializers.UUIDField(source="uuid")
    author = serializers.CharField(source="author.username")
    split = serializers.CharField(source="paragraph.article.split")
    answers = AnswerSerializer(many=True)

    class Meta:
        model = Question
        fields = [
            "id",
            "campaign",
            "paragraph",
            "author",
            "position",
            "text",
            "question_type",
            "seconds_spent",
            "status",
            "split",
            "answers",
            "created_at",
        ]


def lease_response(lease: Lease, created: bool | None = None) -> Response:
    code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
    return Response(LeaseSerializer(lease).data, status=code)


class LeaseViewSet(viewsets.GenericViewSet):
    """The annotator's own leases: read, save a draft, submit, give back."""

    permission_classes = [IsAnnotator]
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

    @extend_schema(request=SubmitSerializer, responses=QuestionSerializer(many=True))
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        lease = self._lease(pk)
        questions = request.data.get("questions") if isinstance(request.data, dict) else None
        stored = questions_submit(lease=lease, questions=questions)
        # One read with everything the answer shows (author, split, spans), in position order.
        rows = (
            Question.objects.filter(pk__in=[q.pk for q in stored])
            .select_related("author", "paragraph__article")
            .prefetch_related("answers")
            .order_by("position")
        )
        return Response(QuestionSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ReleaseSerializer, responses=LeaseSerializer)
    @action(detail=True, methods=["post"])
    def release(self, request, pk=None):
        lease = self._lease(pk)
        payload = ReleaseSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        return lease_response(
            lease_release(lease=lease, reason=data["reason"], note=data.get("note", ""))
        )


FILTERS = [
    OpenApiParameter(name, OpenApiTypes.STR) for name in ("campaign", "author", "status", "split")
]


@extend_schema_view(list=extend_schema(parameters=FILTERS))
class QuestionViewSet(viewsets.ReadOnlyModelViewSet):
    """Questions; annotators see only their own, reviewers and admins see all."""

    serializer_class = QuestionSerializer
    lookup_field = "uuid"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Question.objects.none()
        params = self.request.query_params
        questions = (
            questions_visible_to(self.request.user)
            .select_related("author", "paragraph__article")
            .prefetch_related("answers")
        )
        return questions_filter(
            questions,
            campaign=params.get("campaign"),
            author=params.get("author"),
            status=params.get("status"),
            split=params.get("split"),
        )


class CampaignViewSet(viewsets.ModelViewSet):
    serializer_class = CampaignSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [IsAuthenticated()]
        if self.action == "leases":
            return [IsAnnotator()]
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
        """Claim the next paragraph (201), get the one already held (200), or 204: none left."""
        claim = lease_claim_next(campaign=self.get_object(), annotator=request.user)
        if claim is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return lease_response(claim.lease, created=claim.created)
