"""The work loop API's serializers: leases, drafts, submissions, answers, reviews; and the
plain-dict answers of its hot path (`lease_data`, `written_data`)."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotation.models import Answer, Lease, Question, QuestionRevision, RejectReason, Review
from annotation.selectors.questions import reviewed_answer


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
