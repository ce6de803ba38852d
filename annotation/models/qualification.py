"""The qualification round (issue 28, docs/quality.md): a newcomer's tries at a campaign's
set of gold questions, and each answer they gave there with its score.

A campaign with `qualification_questions > 0` gives a person who has not passed its round
qualification items instead of real work. A try (`QualificationAttempt`) holds that many
items (`QualificationItem`), each an ordinary answer lease on a gold question whose right span
is shown once answered. An answer given here is kept here only: it is never an `Answer` nor a
`GoldAnswer` (no release, human performance, leaderboard or adaptive review rate reads it).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.campaigns import Campaign
from annotation.models.gold import GoldQuestion
from annotation.models.leases import Lease


class QualificationAttempt(models.Model):
    """One try of one person at a campaign's qualification round."""

    class Status(models.TextChoices):
        OPEN = "open", _("in qualification")
        PASSED = "passed", _("passed")
        FAILED = "failed", _("failed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    number = models.PositiveSmallIntegerField(_("try"))
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN
    )
    # The mean F1 (%) over the try's answers, once decided.
    score = models.FloatField(_("mean F1 (%)"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    # An admin's reset lets a person who failed twice start again: their failed tries stay,
    # marked reset, and no longer count.
    reset_at = models.DateTimeField(_("reset"), null=True, blank=True)
    reset_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("qualification try")
        verbose_name_plural = _("qualification tries")
        ordering = ["campaign", "annotator", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "annotator", "number"],
                name="annotation_qualification_try_number",
            ),
            models.UniqueConstraint(
                fields=["campaign", "annotator"],
                condition=models.Q(status="open"),
                name="annotation_qualification_one_open_try",
            ),
        ]

    def __str__(self):
        return f"{self.annotator_id} · {self.campaign_id} · {self.number}: {self.status}"


class QualificationItem(models.Model):
    """A gold question of a try: its lease, then the person's answer and its score."""

    attempt = models.ForeignKey(
        QualificationAttempt, on_delete=models.CASCADE, related_name="items"
    )
    gold = models.ForeignKey(GoldQuestion, on_delete=models.CASCADE, related_name="+")
    lease = models.OneToOneField(Lease, on_delete=models.CASCADE, related_name="qualification")
    position = models.PositiveSmallIntegerField(_("position"))
    answer_start = models.IntegerField(_("answer start"), default=0)
    text = models.TextField(_("answer"), blank=True)
    no_answer = models.BooleanField(_("the paragraph does not answer"), default=False)
    exact = models.FloatField(_("exact match (%)"), null=True, blank=True)
    f1 = models.FloatField(_("F1 (%)"), null=True, blank=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("qualification question")
        verbose_name_plural = _("qualification questions")
        ordering = ["attempt", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["attempt", "gold"], name="annotation_qualification_gold_once"
            ),
            models.UniqueConstraint(
                fields=["attempt", "position"], name="annotation_qualification_position"
            ),
        ]

    def __str__(self):
        return f"{self.attempt_id} · {self.position}"
