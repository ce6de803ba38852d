"""Annotation: campaigns, leases (reserved items), questions and their answer spans."""

import uuid

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


class Lease(models.Model):
    """An item reserved for one annotator for a while: a paragraph to write questions on.

    The database allows at most one live-or-done lease per paragraph of a campaign and one
    live lease per annotator and campaign; claims that race lose on these constraints.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        SUBMITTED = "submitted", _("submitted")
        RELEASED = "released", _("released")
        EXPIRED = "expired", _("expired")

    class Reason(models.TextChoices):
        SKIP = "skip", _("skipped")
        UNSUITABLE = "unsuitable", _("reported unsuitable")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="leases")
    paragraph = models.ForeignKey(
        "corpus.Paragraph", on_delete=models.CASCADE, related_name="leases"
    )
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leases"
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    expires_at = models.DateTimeField(_("expires"))
    draft = models.JSONField(_("draft"), default=dict, blank=True)
    draft_saved_at = models.DateTimeField(_("draft saved"), null=True, blank=True)
    release_reason = models.CharField(
        _("release reason"), max_length=16, choices=Reason.choices, blank=True
    )
    release_note = models.CharField(_("release note"), max_length=1000, blank=True)
    created_at = models.DateTimeField(_("claimed"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("lease")
        verbose_name_plural = _("leases")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "paragraph"],
                condition=models.Q(status__in=["active", "submitted"]),
                name="annotation_lease_one_live_per_paragraph",
            ),
            models.UniqueConstraint(
                fields=["campaign", "annotator"],
                condition=models.Q(status="active"),
                name="annotation_lease_one_active_per_annotator",
            ),
        ]
        indexes = [
            models.Index(
                fields=["campaign", "status", "expires_at"], name="annotation_lease_expiry"
            )
        ]

    def __str__(self):
        return f"lease {self.pk} · {self.annotator} · {self.status}"


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
    lease = models.ForeignKey(
        Lease, on_delete=models.SET_NULL, null=True, blank=True, related_name="questions"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="questions"
    )
    position = models.PositiveSmallIntegerField(_("position"))
    text = models.TextField(_("question"))
    question_type = models.CharField(
        _("question type"), max_length=16, choices=QuestionType.choices
    )
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("written"), auto_now_add=True)

    class Meta:
        verbose_name = _("question")
        verbose_name_plural = _("questions")
        ordering = ["paragraph_id", "position"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(text=""), name="annotation_question_text_not_empty"
            ),
        ]
        indexes = [models.Index(fields=["author", "created_at"], name="annotation_q_author")]

    def __str__(self):
        return self.text[:80]


class Answer(models.Model):
    """An answer span: `paragraph.text[answer_start:answer_start + len(text)] == text`."""

    class Kind(models.TextChoices):
        ORIGINAL = "original", _("original")
        ADDITIONAL = "additional", _("additional")

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="answers")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="answers"
    )
    answer_start = models.IntegerField(_("answer start"))
    text = models.TextField(_("answer"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
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
                condition=~models.Q(text=""), name="annotation_answer_text_not_empty"
            ),
            models.UniqueConstraint(
                fields=["question", "author"], name="annotation_answer_one_per_author"
            ),
        ]

    def __str__(self):
        return self.text[:80]
