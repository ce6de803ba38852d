"""Campaign API: workers list the active campaigns; admins create and change them."""

from django.contrib.auth import get_user_model
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
from rest_framework.views import APIView

from accounts.permissions import IsAnnotator, IsAnnotatorOrReviewer, IsPlatformAdmin, IsReviewer
from accounts.roles import Role
from accounts.services import annotator_pause, annotator_resume
from annotation.answers import answer_claim_next, answer_submit
from annotation.models import (
    Answer,
    Campaign,
    Lease,
    Question,
    QuestionRevision,
    RejectReason,
    Review,
)
from annotation.quality import quality_table
from annotation.reviews import review_claim_next, review_submit
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
    review_warmup = serializers.IntegerField(required=False)
    review_warmup_rate = serializers.DecimalField(max_digits=3, decimal_places=2, required=False)
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
    kind = serializers.ChoiceField(
        choices=Lease.Kind.choices, help_text="write (a paragraph), answer or review (a question)"
    )
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
        """The question to answer (never its answers) or to review (with its answer span)."""
        question = lease.question
        if question is None:
            return None
        shown = {"id": str(question.uuid), "text": question.text}
        if lease.kind == Lease.Kind.REVIEW:
            answer = question.answers.filter(kind=Answer.Kind.ORIGINAL).first()
            shown |= {
                "question_type": question.question_type,
                "answer": {"answer_start": answer.answer_start, "text": answer.text},
            }
        return shown


class DraftSerializer(serializers.Serializer):
    draft = serializers.JSONField()


class SubmittedQuestionSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    answer_start = serializers.IntegerField()
    answer_text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    seconds_spent = serializers.IntegerField(required=False)


class SubmitSerializer(serializers.Serializer):
    """One body for the three kinds of lease; each kind reads its own fields."""

    questions = SubmittedQuestionSerializer(many=True, required=False, help_text="write leases")
    answer_start = serializers.IntegerField(required=False, help_text="answer and review leases")
    answer_text = serializers.CharField(required=False, help_text="answer and review leases")
    no_answer = serializers.BooleanField(required=False, help_text="answer leases")
    verdict = serializers.ChoiceField(
        choices=Review.Verdict.choices, required=False, help_text="review leases"
    )
    reason = serializers.ChoiceField(choices=RejectReason.choices, required=False)
    comment = serializers.CharField(required=False, allow_blank=True)
    question_text = serializers.CharField(required=False, help_text="review: a correction")
    seconds_spent = serializers.IntegerField(required=False)


class LeaseReleaseSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=Lease.Reason.choices)
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class AnswerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Answer
        fields = ["answer_start", "text", "kind", "no_answer", "seconds_spent"]


class RevisionSerializer(serializers.ModelSerializer):
    editor = serializers.CharField(source="editor.username")

    class Meta:
        model = QuestionRevision
        fields = ["number", "origin", "editor", "text", "answer_start", "answer_text", "created_at"]


class ReviewSerializer(serializers.ModelSerializer):
    reviewer = serializers.CharField(source="reviewer.username")
    question = serializers.UUIDField(source="question.uuid")
    version = serializers.IntegerField(source="revision.number", allow_null=True, default=None)

    class Meta:
        model = Review
        fields = ["question", "reviewer", "verdict", "reason", "comment", "version", "created_at"]


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


class QuestionDetailSerializer(QuestionSerializer):
    """A question with its history: every version and every review."""

    revisions = RevisionSerializer(many=True)
    reviews = ReviewSerializer(many=True)
    sampled_for_review = serializers.SerializerMethodField()

    class Meta(QuestionSerializer.Meta):
        fields = [*QuestionSerializer.Meta.fields, "sampled_for_review", "revisions", "reviews"]

    @extend_schema_field({"type": "boolean", "nullable": True})
    def get_sampled_for_review(self, question):
        """Reviewers and admins only: an annotator who saw it could tell which questions of
        theirs the next ones must be (the sampler keeps a steady share)."""
        user = self.context["request"].user
        if user.has_role(Role.REVIEWER) or user.has_role(Role.ADMIN):
            return question.sampled_for_review
        return None


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


FILTERS = [
    OpenApiParameter(name, OpenApiTypes.STR) for name in ("campaign", "author", "status", "split")
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


class CampaignViewSet(viewsets.ModelViewSet):
    serializer_class = CampaignSerializer
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [IsAuthenticated()]
        if self.action == "leases":
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
        campaign = self.get_object()
        claim_next = (
            answer_claim_next
            if campaign.kind == Campaign.Kind.ADDITIONAL_ANSWERS
            else lease_claim_next
        )
        return claim_response(claim_next(campaign=campaign, annotator=request.user))

    @extend_schema(request=None, responses={201: LeaseSerializer, 200: LeaseSerializer, 204: None})
    @action(detail=True, methods=["post"], url_path="review-leases")
    def review_leases(self, request, pk=None):
        """Reviewers: claim the next sampled question to audit (201), the one held (200), 204.

        Closed questions campaigns too: their sampled questions still wait for an audit.
        """
        campaign = Campaign.objects.filter(kind=Campaign.Kind.QUESTIONS, pk=parse_id(pk, "id"))
        found = campaign.first()
        if found is None:
            raise ServiceError({"campaign": [_("No such questions campaign.")]}, status=404)
        return claim_response(review_claim_next(campaign=found, reviewer=request.user))


def claim_response(claim) -> Response:
    if claim is None:
        return Response(status=status.HTTP_204_NO_CONTENT)
    return lease_response(claim.lease, created=claim.created)


class QualityRowSerializer(serializers.Serializer):
    annotator = serializers.CharField(source="user.username")
    annotator_id = serializers.IntegerField(source="user.pk")
    paused = serializers.BooleanField(source="user.paused_at", default=False)
    questions = serializers.IntegerField()
    reviewed = serializers.IntegerField()
    approved_pct = serializers.FloatField(allow_null=True)
    corrected_pct = serializers.FloatField(allow_null=True)
    rejected_pct = serializers.FloatField(allow_null=True)
    median_seconds = serializers.FloatField()

    def to_representation(self, row):
        data = super().to_representation(row)
        data["paused"] = row["user"].paused_at is not None
        return data


class QualityView(APIView):
    """Admins: per-annotator quality (questions, reviewed, verdict shares, median seconds)."""

    permission_classes = [IsPlatformAdmin]

    @extend_schema(
        parameters=[OpenApiParameter("campaign", OpenApiTypes.INT)],
        responses=QualityRowSerializer(many=True),
    )
    def get(self, request):
        campaign = None
        if request.query_params.get("campaign"):
            campaign_pk = parse_id(request.query_params["campaign"], "campaign")
            campaign = Campaign.objects.filter(pk=campaign_pk).first()
            if campaign is None:
                raise ServiceError({"campaign": [_("No such campaign.")]}, status=404)
        return Response(QualityRowSerializer(quality_table(campaign=campaign), many=True).data)


class PauseSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)


class AnnotatorStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    paused_at = serializers.DateTimeField(allow_null=True)
    pause_note = serializers.CharField()


class AnnotatorPauseView(APIView):
    """Admins: pause an annotator (POST) or let them work again (DELETE)."""

    permission_classes = [IsPlatformAdmin]

    def _user(self, pk):
        user = get_user_model().objects.filter(pk=parse_id(pk, "annotator")).first()
        if user is None:
            raise ServiceError({"annotator": [_("No such annotator.")]}, status=404)
        return user

    @extend_schema(request=PauseSerializer, responses=AnnotatorStateSerializer)
    def post(self, request, pk):
        user = self._user(pk)
        payload = PauseSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        annotator_pause(user=user, note=payload.validated_data.get("note", ""))
        return Response(AnnotatorStateSerializer(user).data)

    @extend_schema(request=None, responses=AnnotatorStateSerializer)
    def delete(self, request, pk):
        user = self._user(pk)
        annotator_resume(user=user)
        return Response(AnnotatorStateSerializer(user).data)
