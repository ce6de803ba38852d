"""Question–answer difference labels on sampled dev questions (docs/differences.md)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.questions import Question


class DifferenceLabel(models.TextChoices):
    """The reasoning needed between a question and its answer's sentence (SQuAD's and FQuAD's
    question–answer differences). Several may apply to one question; none is a labelling too."""

    SYNONYMY = "synonymy", _("synonymy")
    WORLD_KNOWLEDGE = "world_knowledge", _("world knowledge")
    SYNTACTIC_VARIATION = "syntactic_variation", _("syntactic variation")
    MULTIPLE_SENTENCES = "multiple_sentences", _("multiple-sentence reasoning")


class DifferenceLabelling(models.Model):
    """One person's labels on one sampled dev question (docs/differences.md): one row per
    (question, labeller), changed in place; no label at all means "none of them"."""

    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="difference_labellings"
    )
    labeller = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    synonymy = models.BooleanField(_("synonymy"), default=False)
    world_knowledge = models.BooleanField(_("world knowledge"), default=False)
    syntactic_variation = models.BooleanField(_("syntactic variation"), default=False)
    multiple_sentences = models.BooleanField(_("multiple-sentence reasoning"), default=False)
    created_at = models.DateTimeField(_("labelled"), auto_now_add=True)
    updated_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("question–answer difference labelling")
        verbose_name_plural = _("question–answer difference labellings")
        ordering = ["question_id", "labeller_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["question", "labeller"], name="annotation_difference_one_per_person"
            ),
        ]
        indexes = [
            # The labeller's own labellings (the next unlabelled question, their ticks).
            models.Index(fields=["labeller", "question"], name="annotation_difference_mine"),
        ]

    def __str__(self):
        return f"{self.question_id}/{self.labeller_id}: {', '.join(self.labels) or '-'}"

    @property
    def labels(self) -> list[str]:
        """The labels given, in DifferenceLabel's order."""
        return [value for value in DifferenceLabel.values if getattr(self, value)]
