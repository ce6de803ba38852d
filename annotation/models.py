"""Annotation: campaigns (what to annotate, how). Leases, questions and answers come next."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class QuestionType(models.TextChoices):
    """The question words of the FQuAD analysis (French), used for campaign targets."""

    WHO = "who", _("who (qui)")
    WHAT = "what", _("what (que, quoi)")
    WHICH = "which", _("which (quel, lequel)")
    WHERE = "where", _("where (où)")
    WHEN = "when", _("when (quand)")
    WHY = "why", _("why (pourquoi)")
    HOW = "how", _("how (comment)")
    HOW_MANY = "how_many", _("how many (combien)")
    OTHER = "other", _("other")


class Campaign(models.Model):
    """A round of annotation: which splits, how many questions, how they are reviewed."""

    class Kind(models.TextChoices):
        QUESTIONS = "questions", _("questions")
        ADDITIONAL_ANSWERS = "additional_answers", _("additional answers")

    name = models.CharField(_("name"), max_length=200, unique=True)
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices, default=Kind.QUESTIONS)
    language = models.CharField(_("language"), max_length=12, default="fr")
    splits = models.JSONField(_("splits"), default=list)
    questions_min = models.PositiveSmallIntegerField(_("fewest questions per paragraph"), default=3)
    questions_max = models.PositiveSmallIntegerField(_("most questions per paragraph"), default=5)
    review_rate = models.DecimalField(
        _("review rate"), max_digits=3, decimal_places=2, default="0.25"
    )
    extra_answers = models.PositiveSmallIntegerField(_("extra answers per question"), default=2)
    lease_minutes = models.PositiveSmallIntegerField(_("lease minutes"), default=30)
    question_type_targets = models.JSONField(
        _("question-type targets (%)"), default=dict, blank=True
    )
    guidelines = models.TextField(_("guidelines (Markdown)"), blank=True)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["-active", "-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(
                    questions_min__gte=1,
                    questions_max__lte=10,
                    questions_max__gte=models.F("questions_min"),
                ),
                name="annotation_campaign_question_bounds",
            ),
            models.CheckConstraint(
                condition=models.Q(review_rate__gte=0, review_rate__lte=1),
                name="annotation_campaign_review_rate_0_1",
            ),
            models.CheckConstraint(
                condition=models.Q(lease_minutes__gte=5, lease_minutes__lte=1440),
                name="annotation_campaign_lease_5_1440",
            ),
            models.CheckConstraint(
                condition=models.Q(extra_answers__lte=5), name="annotation_campaign_extra_answers_5"
            ),
        ]

    def __str__(self):
        return self.name
