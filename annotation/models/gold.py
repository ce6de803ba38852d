"""Gold questions (issue 28): reviewed questions whose answers agree, mixed unannounced into
the annotators' stream, and each annotator's scored answers to them.

A gold question is a train or dev question (never test) that a reviewer approved (or
corrected) and whose additional answers agree with the original: its answers are the truth an
annotator's answer is scored against. An annotator's answer to a gold question is kept here,
never as an `Answer`: it enters no release, no human performance and no leaderboard, and it
gives the question no extra answer. One answer per gold question and person: a person never
sees the same gold question twice.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.campaigns import Campaign
from annotation.models.leases import Lease
from annotation.models.questions import Question


class GoldQuestion(models.Model):
    """A question marked gold by an admin, with the answer texts it is scored against."""

    question = models.OneToOneField(Question, on_delete=models.CASCADE, related_name="gold")
    # The agreed answers (texts), read from the question's answers when it was marked.
    answers = models.JSONField(_("agreed answers"), default=list)
    language = models.CharField(_("language"), max_length=12)
    marked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    marked_at = models.DateTimeField(_("marked"), auto_now_add=True)
    # An admin may take a question out of the gold pool; its scored answers stay.
    active = models.BooleanField(_("in the gold pool"), default=True)

    class Meta:
        verbose_name = _("gold question")
        verbose_name_plural = _("gold questions")
        ordering = ["pk"]

    def __str__(self):
        return f"gold {self.question_id}"


class GoldAnswer(models.Model):
    """An annotator's answer to a gold question, scored with the language's metric (0–100)."""

    gold = models.ForeignKey(GoldQuestion, on_delete=models.CASCADE, related_name="scored")
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    lease = models.OneToOneField(
        Lease, on_delete=models.SET_NULL, null=True, blank=True, related_name="gold_answer"
    )
    answer_start = models.IntegerField(_("answer start"), default=0)
    text = models.TextField(_("answer"), blank=True)
    no_answer = models.BooleanField(_("the paragraph does not answer"), default=False)
    exact = models.FloatField(_("exact match (%)"))
    f1 = models.FloatField(_("F1 (%)"))
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
    created_at = models.DateTimeField(_("answered"), auto_now_add=True)

    class Meta:
        verbose_name = _("answer to a gold question")
        verbose_name_plural = _("answers to gold questions")
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["gold", "annotator"], name="annotation_gold_answer_once_per_person"
            ),
        ]
        indexes = [models.Index(fields=["annotator", "campaign"], name="annotation_gold_by_person")]

    def __str__(self):
        return f"{self.annotator_id} · gold {self.gold_id}: {self.f1:.0f}"
