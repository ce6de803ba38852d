"""Reviews of sampled questions, why they are rejected, and the review sampling counters."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotation.models.campaigns import Campaign
from annotation.models.leases import Lease
from annotation.models.questions import Question, QuestionRevision
from core.models import optional_key


class RejectReason(models.TextChoices):
    """Why a reviewer rejects a question (FQuAD's guidelines, turned into a list)."""

    NOT_A_QUESTION = "not_a_question", _("not a question, or not understandable")
    WRONG_ANSWER = "wrong_answer", _("the answer is wrong")
    NOT_ANSWERED = "not_answered", _("the paragraph does not answer it")
    # An unanswerable question must still be about the paragraph (SQuAD 2.0, FQuAD 2.0).
    OFF_TOPIC = "off_topic", _("off-topic: shares nothing with the paragraph")
    COPIED = "copied", _("copies the paragraph")
    AMBIGUOUS = "ambiguous", _("ambiguous: several answers fit")
    OUTSIDE_KNOWLEDGE = "outside_knowledge", _("needs knowledge outside the paragraph")
    LANGUAGE = "language", _("wrong language, or many mistakes")
    OTHER = "other", _("other (say why in the comment)")


class Review(models.Model):
    """A reviewer's verdict on a sampled question; a correction points at the version it made."""

    class Verdict(models.TextChoices):
        APPROVE = "approve", _("approve")
        REJECT = "reject", _("reject")
        CORRECT = "correct", _("correct")
        # An unanswerable question that the paragraph does answer: the reviewer selects the
        # answer, and the question becomes answerable (a new version, the old one kept).
        ANSWERABLE = "answerable", _("actually answerable")

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reviews"
    )
    lease = optional_key(Lease, models.SET_NULL, "review", one=True)
    verdict = models.CharField(_("verdict"), max_length=16, choices=Verdict.choices)
    reason = models.CharField(_("reason"), max_length=24, choices=RejectReason.choices, blank=True)
    comment = models.TextField(_("comment"), blank=True)
    revision = optional_key(QuestionRevision, models.PROTECT, "review", one=True)
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
    created_at = models.DateTimeField(_("reviewed"), auto_now_add=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(verdict="reject") | ~models.Q(reason=""),
                name="annotation_review_reject_has_reason",
            ),
            models.CheckConstraint(
                condition=models.Q(verdict__in=["correct", "answerable"], revision__isnull=False)
                | (
                    ~models.Q(verdict__in=["correct", "answerable"])
                    & models.Q(revision__isnull=True)
                ),
                name="annotation_review_correction_has_version",
            ),
        ]

    # What the review made of the question, as its author reads it: the choices above are the
    # reviewer's actions ("approve"); the author sees outcomes ("Approved"; in French the
    # participle agrees with "question": "Approuvée").
    OUTCOMES = {
        Verdict.APPROVE: pgettext_lazy("review outcome", "Approved"),
        Verdict.REJECT: pgettext_lazy("review outcome", "Rejected"),
        Verdict.CORRECT: pgettext_lazy("review outcome", "Corrected"),
        Verdict.ANSWERABLE: pgettext_lazy("review outcome", "Answerable after all"),
    }

    def __str__(self):
        return f"{self.verdict} · {self.question_id}"

    @property
    def outcome_display(self) -> str:
        """The outcome of this review for the question's author ("Approved", "Rejected"…)."""
        return str(self.OUTCOMES.get(self.verdict, self.get_verdict_display()))


class ReviewCounter(models.Model):
    """How many of an annotator's questions of a campaign were decided, and how many sampled.

    `annotation.sampling.should_sample_running` decides each new question from these counters
    and `expected`, the sum of the rates each decided question had: the rate may change (an
    admin's new setting, the adaptive rate of issue 28) without restarting the counts, and the
    sampled count stays within one of `expected` at every moment. `rate` and `why` are the
    rate the last question was decided at and its reason (`annotation.review_rate`).
    `epoch` and `decided_before` are kept from the counters' first scheme, where a change of
    settings started a new epoch; the epoch no longer changes.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    epoch = models.PositiveIntegerField(default=0)
    rate = models.DecimalField(max_digits=3, decimal_places=2)
    warmup = models.PositiveSmallIntegerField(default=0)
    warmup_rate = models.DecimalField(max_digits=3, decimal_places=2)
    seen = models.PositiveIntegerField(default=0)
    sampled = models.PositiveIntegerField(default=0)
    # Questions decided in earlier epochs: the warm-up covers an annotator's first questions
    # of the campaign, not the first ones after each change of settings.
    decided_before = models.PositiveIntegerField(default=0)
    expected = models.DecimalField(max_digits=12, decimal_places=2, default=0)
    why = models.CharField(max_length=16, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "annotator"], name="annotation_review_counter_one"
            ),
            models.CheckConstraint(
                condition=models.Q(sampled__lte=models.F("seen")),
                name="annotation_review_counter_sampled_le_seen",
            ),
        ]

    def __str__(self):
        return f"{self.annotator_id}: {self.sampled}/{self.seen}"
