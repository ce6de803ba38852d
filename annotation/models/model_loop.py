"""The model in the loop: a campaign's model rounds and the attempts to fool them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.campaigns import Campaign, ModelKind
from annotation.models.leases import Lease
from annotation.models.questions import Question
from core.models import CreatedBy, Job, optional_key


class ModelRound(CreatedBy, Job):
    """One model of a campaign's loop, in order: round 1 is its first model, each switch to
    another model starts the next round (Beat the AI's three progressively stronger models).

    Its job scores this round's model on the questions of the earlier rounds (the annotators'
    answers as the truth): how the newer model does on what fooled the older ones. `results`
    holds {"rounds": {"1": {questions, exact_match, f1, fooled, fooled_rate}}}.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="model_rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    model_kind = models.CharField(_("model"), max_length=16, choices=ModelKind.choices)
    model_run = optional_key(
        "evaluation.BaselineRun", models.PROTECT, "+", verbose_name=_("baseline run")
    )
    model_url = models.CharField(_("predict server address"), max_length=500, blank=True)
    label = models.CharField(_("model"), max_length=200)
    f1_threshold = models.DecimalField(
        _("fooled below this F1 (%)"), max_digits=5, decimal_places=2
    )
    results = models.JSONField(_("scores on the earlier rounds"), default=dict, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("model round")
        verbose_name_plural = _("model rounds")
        ordering = ["campaign_id", "number"]
        constraints = [
            *Job.Meta.constraints,
            models.UniqueConstraint(
                fields=["campaign", "number"], name="annotation_model_round_one_per_number"
            ),
        ]

    def __str__(self):
        return f"{self.campaign_id} round {self.number} · {self.label}"


class ModelAttempt(models.Model):
    """One time a model answered a question being written (or was asked and did not answer).

    The page asks after each "Add the question": the question's text and the annotator's span
    as they were, the model's answer, its EM/F1 against that span and whether it was fooled
    (F1 under the campaign's threshold). `key` is the page's name for the question being
    written, so that rephrasings of one question are numbered 1, 2, 3… and the question stored
    at submission finds its attempts. Rows are never changed but for `question`.
    """

    class Status(models.TextChoices):
        ANSWERED = "answered", _("answered")
        UNAVAILABLE = "unavailable", _("model unavailable")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    lease = models.ForeignKey(Lease, on_delete=models.CASCADE, related_name="model_attempts")
    question = optional_key(Question, models.SET_NULL, "model_tries")
    round = models.ForeignKey(ModelRound, on_delete=models.PROTECT, related_name="model_attempts")
    key = models.CharField(_("question on the page"), max_length=64)
    number = models.PositiveSmallIntegerField(_("attempt"))
    text = models.TextField(_("question"))
    answer_start = models.IntegerField(_("answer start"))
    answer_text = models.TextField(_("answer"))
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    model_answer = models.TextField(_("model answer"), blank=True)
    model_answer_start = models.IntegerField(_("model answer start"), null=True, blank=True)
    exact_match = models.FloatField(_("exact match (%)"), null=True, blank=True)
    f1 = models.FloatField(_("F1 (%)"), null=True, blank=True)
    fooled = models.BooleanField(_("fooled"), null=True, blank=True)
    milliseconds = models.PositiveIntegerField(_("milliseconds"), default=0)
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        verbose_name = _("model attempt")
        verbose_name_plural = _("model attempts")
        ordering = ["lease_id", "key", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["lease", "key", "number"], name="annotation_attempt_one_per_number"
            ),
            models.CheckConstraint(
                condition=models.Q(status="answered", f1__isnull=False, fooled__isnull=False)
                | models.Q(status="unavailable", f1__isnull=True, fooled__isnull=True),
                name="annotation_attempt_answered_has_scores",
            ),
        ]
        indexes = [
            models.Index(fields=["question", "number"], name="annotation_attempt_question"),
        ]

    def __str__(self):
        return f"{self.lease_id}/{self.key} #{self.number}: {self.status}"
