"""The annotation API's serializers: what each call reads and answers."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotation.models import (
    Answer,
    Campaign,
    Lease,
    ModelAttempt,
    Question,
    QuestionRevision,
    RejectReason,
    Review,
)
from annotation.selectors.questions import answers_held_back, reviewed_answer
from annotation.services.campaigns import FIELDS
from core.roles import Role


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
    unanswerable_per_paragraph = serializers.IntegerField(required=False)
    lease_minutes = serializers.IntegerField(required=False)
    seconds_per_question = serializers.IntegerField(required=False)
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
        """The question to answer (never its answers, nor whether it is unanswerable) or to
        review (with its answer span; an unanswerable question's: `is_impossible`, no answer,
        and its `plausible_answer`)."""
        question = lease.question
        if question is None:
            return None
        shown = {"id": str(question.uuid), "text": question.text}
        if lease.kind == Lease.Kind.REVIEW:
            answer = reviewed_answer(question)
            span = answer and {"answer_start": answer.answer_start, "text": answer.text}
            shown |= {
                "question_type": question.question_type,
                "is_impossible": question.is_impossible,
                "answer": None if question.is_impossible else span,
                "plausible_answer": span if question.is_impossible else None,
            }
        return shown


@extend_schema_field(OpenApiTypes.OBJECT)
class JSONObjectField(serializers.JSONField):
    """A JSON field the service reads as an object (the schema says so)."""


class DraftSerializer(serializers.Serializer):
    draft = JSONObjectField()


class SubmittedQuestionSerializer(serializers.Serializer):
    text = serializers.CharField(allow_blank=True, trim_whitespace=False)
    answer_start = serializers.IntegerField(required=False, help_text="answerable questions")
    answer_text = serializers.CharField(
        allow_blank=True, trim_whitespace=False, required=False, help_text="answerable questions"
    )
    is_impossible = serializers.BooleanField(
        required=False,
        help_text="unanswerable (implied in an unanswerable campaign; false when left out "
        "elsewhere)",
    )
    plausible_answer_start = serializers.IntegerField(
        required=False, help_text="unanswerable questions: where the plausible answer starts"
    )
    plausible_answer_text = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        required=False,
        help_text="unanswerable questions: the span a careless reader would give",
    )
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
        # `is_impossible`: an unanswerable version, whose span is the plausible answer
        fields = [
            "number",
            "origin",
            "editor",
            "text",
            "is_impossible",
            "answer_start",
            "answer_text",
            "created_at",
        ]
        # null when the question's answers are held back from the reader (a test question): in
        # a SQuAD 2.0 release, whether it is unanswerable is part of its answer
        extra_kwargs = {
            "is_impossible": {"allow_null": True},
            "answer_start": {"allow_null": True},
            "answer_text": {"allow_null": True},
        }


class ReviewSerializer(serializers.ModelSerializer):
    reviewer = serializers.CharField(source="reviewer.username")
    question = serializers.UUIDField(source="question.uuid")
    version = serializers.IntegerField(source="revision.number", allow_null=True, default=None)

    class Meta:
        model = Review
        fields = ["question", "reviewer", "verdict", "reason", "comment", "version", "created_at"]


# The work loop's answers, built as plain dicts: a DRF serializer costs a millisecond or more
# per object on the hot path. Each must give exactly what its serializer gives (a test checks
# it on the same objects); the serializers stay for the schema and the other calls.
_DATETIME = serializers.DateTimeField()


def _when(value):
    return None if value is None else _DATETIME.to_representation(value)


def lease_data(lease: Lease) -> dict:
    """`LeaseSerializer(lease).data` (write and answer leases: no query)."""
    paragraph, article = lease.paragraph, lease.paragraph.article
    return {
        "id": lease.pk,
        "kind": lease.kind,
        "campaign": lease.campaign_id,
        "status": lease.status,
        "expires_at": _when(lease.expires_at),
        "paragraph": {
            "id": paragraph.pk,
            "text": paragraph.text,
            "article": {"title": article.title, "split": article.split, "url": article.url},
        },
        "question": LeaseSerializer.get_question(None, lease),
        "questions_min": lease.campaign.questions_min,
        "questions_max": lease.campaign.questions_max,
        "draft": lease.draft,
        "draft_saved_at": _when(lease.draft_saved_at),
    }


def written_data(question: Question, author: str) -> dict:
    """`QuestionSerializer(question).data` of a question its author just sent (no query): a
    question `questions_store` returned, its answers in `answers_stored`."""
    return {
        "id": str(question.uuid),
        "campaign": question.campaign_id,
        "paragraph": question.paragraph_id,
        "author": author,
        "position": question.position,
        "text": question.text,
        "question_type": question.question_type,
        "is_impossible": question.is_impossible,
        "seconds_spent": question.seconds_spent,
        "status": question.status,
        "split": question.paragraph.article.split,
        "answers": [
            {
                "answer_start": answer.answer_start,
                "text": answer.text,
                "kind": answer.kind,
                "no_answer": answer.no_answer,
                "seconds_spent": answer.seconds_spent,
            }
            for answer in question.answers_stored
        ],
        "answers_held_back": False,
        "created_at": _when(question.created_at),
    }


class QuestionSerializer(serializers.ModelSerializer):
    id = serializers.UUIDField(source="uuid")
    author = serializers.CharField(source="author.username")
    split = serializers.CharField(source="paragraph.article.split")
    answers = AnswerSerializer(many=True)
    answers_held_back = serializers.SerializerMethodField()
    # Null where the split's answers are held back from this reader (issue 24: the schema
    # said boolean).
    is_impossible = serializers.BooleanField(allow_null=True, read_only=True)

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
            "is_impossible",
            "seconds_spent",
            "status",
            "split",
            "answers",
            "answers_held_back",
            "created_at",
        ]

    def _held_back(self, question) -> bool:
        request = self.context.get("request")  # none: the author's own submission, echoed
        return request is not None and answers_held_back(
            request.user, question.paragraph.article.split
        )

    def get_answers_held_back(self, question) -> bool:
        """True when the answers are left out: a test question read by anyone but an admin
        (the test split scores the leaderboard)."""
        return self._held_back(question)

    def to_representation(self, question):
        data = super().to_representation(question)
        if self._held_back(question):
            data["answers"] = []
            data["is_impossible"] = None  # part of the gold answer in a SQuAD v2.0 release
            for version in data.get("revisions", []):
                version["answer_start"] = version["answer_text"] = None
                version["is_impossible"] = None
            for review in data.get("reviews", []):
                review["comment"] = ""  # a comment often quotes the right answer
        return data


class QuestionModelSerializer(serializers.Serializer):
    """The model in the loop on a question (docs/review-model.md): its round and label, the
    answer of the attempt that counts, its EM/F1 and "fooled" against the question's current
    answer, the threshold of its round, and how many attempts the author made."""

    round = serializers.IntegerField()
    model = serializers.CharField()
    status = serializers.ChoiceField(choices=ModelAttempt.Status.choices)
    answer = serializers.CharField(allow_null=True)
    answer_start = serializers.IntegerField(allow_null=True)
    exact_match = serializers.FloatField(allow_null=True)
    f1 = serializers.FloatField(allow_null=True)
    fooled = serializers.BooleanField(allow_null=True)
    f1_threshold = serializers.FloatField()
    attempts = serializers.IntegerField()


def question_model_data(question: Question) -> dict | None:
    """`QuestionModelSerializer`'s data of a question, None without a model (one query)."""
    if question.model_attempt_id is None:
        return None
    attempt = (
        ModelAttempt.objects.select_related("round").filter(pk=question.model_attempt_id).first()
    )
    if attempt is None:
        return None
    answered = attempt.status == ModelAttempt.Status.ANSWERED
    return {
        "round": attempt.round.number,
        "model": attempt.round.label,
        "status": attempt.status,
        "answer": attempt.model_answer if answered else None,
        "answer_start": attempt.model_answer_start if answered else None,
        "exact_match": question.model_exact,
        "f1": question.model_f1,
        "fooled": question.model_fooled,
        "f1_threshold": float(attempt.round.f1_threshold),
        "attempts": question.model_attempts,
    }


class QuestionDetailSerializer(QuestionSerializer):
    """A question with its history: every version and every review, and the model in the
    loop's verdict (null when it was written without one)."""

    revisions = RevisionSerializer(many=True)
    reviews = ReviewSerializer(many=True)
    sampled_for_review = serializers.SerializerMethodField()
    model = serializers.SerializerMethodField()

    class Meta(QuestionSerializer.Meta):
        fields = [
            *QuestionSerializer.Meta.fields,
            "sampled_for_review",
            "revisions",
            "reviews",
            "model",
        ]

    @extend_schema_field(QuestionModelSerializer(allow_null=True))
    def get_model(self, question):
        return question_model_data(question)

    def to_representation(self, question):
        data = super().to_representation(question)
        if data.get("model") and self._held_back(question):
            # The model's answer and its scores against the gold answer would tell it.
            for key in ("answer", "answer_start", "exact_match", "f1", "fooled"):
                data["model"][key] = None
        return data

    @extend_schema_field({"type": "boolean", "nullable": True})
    def get_sampled_for_review(self, question):
        """Reviewers and admins only: an annotator who saw it could tell which questions of
        theirs the next ones must be (the sampler keeps a steady share)."""
        user = self.context["request"].user
        if user.has_role(Role.REVIEWER) or user.has_role(Role.ADMIN):
            return question.sampled_for_review
        return None


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
    # Model in the loop (docs/review-model.md): questions with a model verdict, how many fooled
    # it, fooled / with a verdict, and validated (fooled and approved, or corrected and still
    # fooled) / reviewed with a verdict; null where the share has no question to count.
    model_judged = serializers.IntegerField()
    fooled = serializers.IntegerField()
    fooling_pct = serializers.FloatField(allow_null=True)
    validated_fooling_pct = serializers.FloatField(allow_null=True)

    def to_representation(self, row):
        data = super().to_representation(row)
        data["paused"] = row["user"].paused_at is not None
        return data


class PauseSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, max_length=500)


class AnnotatorStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    paused_at = serializers.DateTimeField(allow_null=True)
    pause_note = serializers.CharField()
