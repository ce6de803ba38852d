"""Questions, their answer spans and their revisions; the release id of a question."""

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.campaigns import Campaign, QuestionType
from annotation.models.leases import Lease
from core.models import optional_key


class Question(models.Model):
    """A question written on a paragraph; its uuid is its id in every export."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending review")
        APPROVED = "approved", _("approved")
        REJECTED = "rejected", _("rejected")
        CORRECTED = "corrected", _("corrected")

    uuid = models.UUIDField(_("id"), unique=True, default=uuid.uuid4, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="questions")
    paragraph = models.ForeignKey(
        "corpus.Paragraph", on_delete=models.PROTECT, related_name="questions"
    )
    lease = optional_key(Lease, models.SET_NULL, "questions")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="questions"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    text = models.TextField(_("question"))
    question_type = models.CharField(
        _("question type"), max_length=16, choices=QuestionType.choices
    )
    # Unanswerable (FQuAD 2.0, SQuAD 2.0): the paragraph does not answer it; its answer of
    # kind `plausible` is the span a careless reader would give. It never has an original one.
    is_impossible = models.BooleanField(_("unanswerable"), default=False)
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    sampled_for_review = models.BooleanField(_("sampled for review"), default=False)
    # The author's review rate when this question was decided, and why it was that
    # (`annotation.review_rate`): the review page tells the reviewer why it was drawn.
    review_rate = models.DecimalField(
        _("review rate when written"), max_digits=3, decimal_places=2, null=True, blank=True
    )
    review_why = models.CharField(_("why this rate"), max_length=16, blank=True)
    # Model in the loop: the attempt whose model answer counts (the last one asked with the
    # question's final text), how many attempts the annotator made, and the model's EM/F1
    # against the question's current answer: set at submission, computed again when a
    # reviewer corrects the span. Null: no model, or the model was unavailable.
    model_attempt = optional_key(
        "annotation.ModelAttempt", models.SET_NULL, "+", verbose_name=_("model answer")
    )
    model_attempts = models.PositiveSmallIntegerField(_("attempts against the model"), default=0)
    model_exact = models.FloatField(_("model exact match (%)"), null=True, blank=True)
    model_f1 = models.FloatField(_("model F1 (%)"), null=True, blank=True)
    model_fooled = models.BooleanField(_("fooled the model"), null=True, blank=True)
    # The id a question had in the dataset it was imported from (kept in every export).
    source_id = models.CharField(_("id in the imported dataset"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("written"), auto_now_add=True)

    class Meta:
        verbose_name = _("question")
        verbose_name_plural = _("questions")
        ordering = ["paragraph_id", "position"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(text=""), name="annotation_question_text_not_empty"
            ),
            # Per campaign, not per platform: XQuAD gives a question the same id in each of its
            # twelve languages, and each language's import has its own campaign (issue 27).
            models.UniqueConstraint(
                fields=["campaign", "source_id"],
                condition=~models.Q(source_id=""),
                name="annotation_question_one_per_campaign_source_id",
            ),
        ]
        indexes = [
            # An author's questions by time (hours report, feedback), with what the report reads.
            models.Index(
                fields=["author", "created_at"],
                include=["seconds_spent", "campaign"],
                name="annotation_q_author",
            ),
            # Pages at scale (issue 13): an author's figures (quality table, own figures),
            # a campaign's question types, the questions written in a period.
            models.Index(
                fields=["author", "campaign", "status", "seconds_spent"],
                name="annotation_q_author_stats",
            ),
            models.Index(fields=["campaign", "question_type"], name="annotation_q_types"),
            models.Index(fields=["created_at"], include=["campaign"], name="annotation_q_created"),
            # The reviewers' queue, oldest first: (created_at, id) and not id alone, so that
            # PostgreSQL walks this index and not the primary key past every question already
            # reviewed or never sampled (see WorkItem.rank).
            models.Index(
                fields=["campaign", "status", "created_at", "id"],
                condition=models.Q(sampled_for_review=True),
                name="annotation_q_review_queue",
            ),
        ]

    def __str__(self):
        return self.text[:80]

    @property
    def export_id(self) -> str:
        return export_id(self.source_id, self.uuid)


def export_id(source_id: str, question_uuid) -> str:
    """Return a question's id in releases: the id it had in an imported dataset, else its uuid.

    The one definition of the release id; `export_id_match` is its inverse.
    """
    return source_id or str(question_uuid)


def export_id_match(ids) -> models.Q:
    """Return the filter of the questions released under these ids (imported id or uuid)."""
    ids = list(ids)
    uuids = []
    for value in ids:
        try:
            uuids.append(uuid.UUID(value))
        except (ValueError, TypeError, AttributeError):
            continue
    return models.Q(source_id__in=ids) | models.Q(uuid__in=uuids)


class Answer(models.Model):
    """An answer span: `paragraph.text[answer_start:answer_start + len(text)] == text`.

    An additional answer may instead say that the paragraph does not answer the question
    (`no_answer`, with an empty text at 0). An unanswerable question's author gives a
    `plausible` answer: the span a careless reader would give, checked like any span, never
    counted as an answer (SQuAD 2.0's `plausible_answers`).
    """

    class Kind(models.TextChoices):
        ORIGINAL = "original", _("original")
        ADDITIONAL = "additional", _("additional")
        PLAUSIBLE = "plausible", _("plausible (unanswerable question)")

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="answers")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="answers"
    )
    answer_start = models.IntegerField(_("answer start"))
    text = models.TextField(_("answer"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    no_answer = models.BooleanField(_("the paragraph does not answer"), default=False)
    # Imported with an offset where its text is not (and the text is not once in the
    # paragraph to repair it): kept for the record, left out of releases and scores.
    misaligned = models.BooleanField(_("misaligned (imported)"), default=False)
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
    # The answer's type in its paragraph (evaluation.services.analysis.answer_types, issue 16),
    # written by the
    # analysis job with the pipeline that tagged it, cleared when the span changes: releases
    # read them for their datasheets instead of running the pipeline again.
    answer_type = models.CharField(_("answer type"), max_length=16, blank=True)
    answer_type_pipeline = models.CharField(_("answer-type pipeline"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("answered"), auto_now_add=True)

    class Meta:
        verbose_name = _("answer")
        verbose_name_plural = _("answers")
        ordering = ["question_id", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(answer_start__gte=0), name="annotation_answer_start_not_negative"
            ),
            models.CheckConstraint(
                condition=(~models.Q(text="") & models.Q(no_answer=False))
                | models.Q(no_answer=True, text="", answer_start=0, kind="additional"),
                name="annotation_answer_text_or_no_answer",
            ),
            models.UniqueConstraint(
                fields=["question", "author"], name="annotation_answer_one_per_author"
            ),
        ]

    def __str__(self):
        return self.text[:80]

    @classmethod
    def additional_given(cls, lease, clean) -> "Answer":
        """The additional answer a lease's holder gave (`clean`: the checked span or "no
        answer", and the seconds spent), not saved: the additional-answer, gold and
        qualification paths each decide where it goes."""
        return cls(
            question_id=lease.question_id,
            author_id=lease.annotator_id,
            answer_start=clean.answer_start,
            text=clean.answer_text,
            no_answer=clean.no_answer,
            kind=cls.Kind.ADDITIONAL,
            seconds_spent=clean.seconds_spent,
        )


class QuestionRevision(models.Model):
    """One version of a question and its original answer span: who wrote it, when, and what.

    The author's submission is version 1; each reviewer's correction adds the next one. Rows
    are never changed or deleted: the question and its original answer hold the latest version
    for quick reading, and this table is the record.
    """

    class Origin(models.TextChoices):
        WRITTEN = "written", _("written")
        CORRECTED = "corrected", _("corrected")

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveSmallIntegerField(_("version"))
    origin = models.CharField(_("origin"), max_length=16, choices=Origin.choices)
    editor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="question_revisions"
    )
    text = models.TextField(_("question"))
    # An unanswerable version: its span is the plausible answer.
    is_impossible = models.BooleanField(_("unanswerable"), default=False)
    answer_start = models.IntegerField(_("answer start"))
    answer_text = models.TextField(_("answer"))
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("question version")
        verbose_name_plural = _("question versions")
        ordering = ["question_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["question", "number"], name="annotation_revision_one_per_number"
            ),
            # An imported unanswerable question may come without a plausible answer.
            models.CheckConstraint(
                condition=models.Q(answer_start__gte=0)
                & (~models.Q(answer_text="") | models.Q(is_impossible=True))
                & ~models.Q(text=""),
                name="annotation_revision_not_empty",
            ),
        ]

    def __str__(self):
        return f"{self.question_id} v{self.number}"
