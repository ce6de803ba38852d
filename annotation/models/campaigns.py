"""Campaigns: a round of annotation, with the question words and model settings it uses."""

import secrets
from decimal import Decimal

from django.db import models
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from core.languages import find
from core.models import CreatedBy, optional_key


def random_seed() -> int:
    """Return a new campaign's review-sampling seed (fixed afterwards: samples are replayable)."""
    return secrets.randbelow(2**62)


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


class ModelKind(models.TextChoices):
    """Which model answers the questions of a campaign while they are written."""

    NONE = "none", _("none")
    LEXICAL = "lexical", _("the lexical baseline (sliding window)")
    RUN = "run", _("a finished baseline run's model")
    SERVER = "server", _("a predict server (MRQA protocol)")


class ModelMode(models.TextChoices):
    SHOW = "show", _("show the model's answer")
    ADVERSARIAL = "adversarial", _("ask for questions that fool the model")


class Campaign(CreatedBy, models.Model):
    """A round of annotation: which splits, how many questions, how they are reviewed."""

    class Kind(models.TextChoices):
        QUESTIONS = "questions", _("questions")
        ADDITIONAL_ANSWERS = "additional_answers", _("additional answers")
        UNANSWERABLE = "unanswerable", _("unanswerable questions")

    # The kinds whose annotators write questions on a paragraph (write leases, reviews).
    WRITING_KINDS = (Kind.QUESTIONS, Kind.UNANSWERABLE)

    name = models.CharField(_("name"), max_length=200, unique=True)
    kind = models.CharField(_("kind"), max_length=32, choices=Kind.choices, default=Kind.QUESTIONS)
    language = models.CharField(_("language"), max_length=12, default="fr")
    splits = models.JSONField(_("splits"), default=list)
    questions_min = models.PositiveSmallIntegerField(_("fewest questions per paragraph"), default=3)
    questions_max = models.PositiveSmallIntegerField(_("most questions per paragraph"), default=5)
    review_rate = models.DecimalField(
        _("review rate"), max_digits=3, decimal_places=2, default="0.25"
    )
    review_warmup = models.PositiveSmallIntegerField(
        _("questions reviewed at the warm-up rate"), default=0
    )
    review_warmup_rate = models.DecimalField(
        _("warm-up review rate"), max_digits=3, decimal_places=2, default="1.00"
    )
    # Quality control (issue 28, docs/quality-control.md). An adaptive rate starts each
    # annotator at `review_rate` and moves it with their measured error (reviews and gold):
    # up to `review_ceiling` above `review_error_bar`, down to `review_floor` when reliably
    # below it. `gold_share` is the share of an annotator's items that are gold questions.
    review_adaptive = models.BooleanField(_("adapt each annotator's review rate"), default=False)
    review_floor = models.DecimalField(
        _("lowest review rate"), max_digits=3, decimal_places=2, default="0.05"
    )
    review_ceiling = models.DecimalField(
        _("highest review rate"), max_digits=3, decimal_places=2, default="0.40"
    )
    review_error_bar = models.DecimalField(
        _("acceptable error rate"), max_digits=3, decimal_places=2, default="0.15"
    )
    gold_share = models.DecimalField(
        _("share of gold questions"), max_digits=3, decimal_places=2, default="0.00"
    )
    # Qualification round (issue 28, docs/quality.md): a newcomer answers
    # `qualification_questions` gold questions, with the right span shown after each, and
    # passes with a mean F1 (the language's metric, %) of at least `qualification_bar`
    # before their work counts. 0 questions: no round.
    qualification_questions = models.PositiveSmallIntegerField(
        _("qualification questions"), default=0
    )
    qualification_bar = models.PositiveSmallIntegerField(
        _("qualification pass bar (mean F1)"), default=70
    )
    review_seed = models.BigIntegerField(_("review sampling seed"), default=random_seed)
    extra_answers = models.PositiveSmallIntegerField(_("extra answers per question"), default=2)
    # Mixed campaigns (kind `questions`): how many unanswerable questions each paragraph also
    # gets, written beside the answerable ones and marked as such (FQuAD 2.0, SQuAD 2.0).
    unanswerable_per_paragraph = models.PositiveSmallIntegerField(
        _("unanswerable questions per paragraph"), default=0
    )
    # Model in the loop (issue 15, Beat the AI): a model answers each question as it is
    # written; `evaluation.services.model_loop.attempts` checks and changes these settings (a lower
    # floor
    # cannot read baseline runs), and `model_round` counts the models the campaign had.
    model_kind = models.CharField(
        _("model in the loop"), max_length=16, choices=ModelKind.choices, default=ModelKind.NONE
    )
    model_run = optional_key(
        "evaluation.BaselineRun", models.PROTECT, "+", verbose_name=_("baseline run")
    )
    model_url = models.CharField(_("predict server address"), max_length=500, blank=True)
    model_mode = models.CharField(
        _("model mode"), max_length=16, choices=ModelMode.choices, default=ModelMode.SHOW
    )
    model_f1_threshold = models.DecimalField(
        _("fooled below this F1 (%)"), max_digits=5, decimal_places=2, default=Decimal(40)
    )
    model_fooling_target = models.PositiveSmallIntegerField(
        _("model-fooling questions asked per paragraph"), default=0
    )
    model_round = models.PositiveSmallIntegerField(_("model round"), default=0)
    lease_minutes = models.PositiveSmallIntegerField(_("lease minutes"), default=30)
    # The pace the guidelines ask for (FQuAD: about a minute a question, 30 s an answer); the
    # annotation page shows the time spent against it.
    seconds_per_question = models.PositiveSmallIntegerField(
        _("guideline seconds per question"), default=60
    )
    question_type_targets = models.JSONField(
        _("question-type targets (%)"), default=dict, blank=True
    )
    # The longest guidelines a campaign keeps, in characters: the page's form, the API and
    # the service refuse longer ones (`annotation.services.campaigns`).
    GUIDELINES_MAX_LENGTH = 20_000
    guidelines = models.TextField(_("guidelines (Markdown)"), blank=True)
    active = models.BooleanField(_("active"), default=True)
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
                condition=models.Q(review_warmup_rate__gte=0, review_warmup_rate__lte=1),
                name="annotation_campaign_warmup_rate_0_1",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    review_floor__gte=0,
                    review_floor__lte=models.F("review_ceiling"),
                    review_ceiling__lte=1,
                    review_error_bar__gte=0,
                    review_error_bar__lte=1,
                    gold_share__gte=0,
                    gold_share__lte="0.50",
                ),
                name="annotation_campaign_quality_settings",
            ),
            models.CheckConstraint(
                condition=models.Q(qualification_questions__lte=50, qualification_bar__lte=100),
                name="annotation_campaign_qualification_settings",
            ),
            models.CheckConstraint(
                condition=models.Q(lease_minutes__gte=5, lease_minutes__lte=1440),
                name="annotation_campaign_lease_5_1440",
            ),
            models.CheckConstraint(
                condition=models.Q(extra_answers__lte=5), name="annotation_campaign_extra_answers_5"
            ),
            models.CheckConstraint(
                condition=models.Q(unanswerable_per_paragraph__lte=5),
                name="annotation_campaign_unanswerable_5",
            ),
            models.CheckConstraint(
                condition=models.Q(model_f1_threshold__gte=0, model_f1_threshold__lte=100)
                & models.Q(model_fooling_target__lte=models.F("questions_max")),
                name="annotation_campaign_model_settings",
            ),
            models.CheckConstraint(
                condition=models.Q(model_kind="run", model_run__isnull=False)
                | (~models.Q(model_kind="run") & models.Q(model_run__isnull=True)),
                name="annotation_campaign_model_run_iff_run",
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def language_name(self) -> str:
        """The campaign's language named in the reader's language ("anglais", "Chinese")."""
        entry = find(self.language)
        return entry.name(get_language() or "en") if entry is not None else self.language

    @property
    def writes_questions(self) -> bool:
        """Whether its annotators write questions on paragraphs (and reviewers audit them)."""
        return self.kind in self.WRITING_KINDS

    @property
    def has_model(self) -> bool:
        """Whether a model answers its questions while they are written."""
        return self.model_kind != ModelKind.NONE
