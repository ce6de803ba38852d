"""The questions API's serializers: a question, with its history and its model in the loop."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotation.api.serializers.work import AnswerSerializer, ReviewSerializer, RevisionSerializer
from annotation.models import ModelAttempt, Question
from annotation.selectors.questions import answers_held_back
from core.roles import Role


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
