"""Annotation: campaigns, leases (reserved items), questions and their answer spans."""

import secrets
import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.models import CreatedBy, Job


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
    model_run = models.ForeignKey(
        "evaluation.BaselineRun",
        verbose_name=_("baseline run"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
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
    def writes_questions(self) -> bool:
        """Whether its annotators write questions on paragraphs (and reviewers audit them)."""
        return self.kind in self.WRITING_KINDS

    @property
    def has_model(self) -> bool:
        """Whether a model answers its questions while they are written."""
        return self.model_kind != ModelKind.NONE


class Lease(models.Model):
    """An item reserved for one person for a while.

    Three kinds: a paragraph to write questions on (`write`), a question to answer again
    (`answer`, additional-answers campaigns) and a sampled question to audit (`review`). The
    lease always names the paragraph shown; `answer` and `review` leases also name the question.
    The database allows at most one live-or-done writing lease per paragraph of a campaign, one
    live-or-done review per question, one live-or-done answer lease per question and person,
    and one active lease per person, campaign and kind; claims that race lose on these.
    """

    class Kind(models.TextChoices):
        WRITE = "write", _("write questions")
        ANSWER = "answer", _("additional answer")
        REVIEW = "review", _("review")

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        SUBMITTED = "submitted", _("submitted")
        RELEASED = "released", _("released")
        EXPIRED = "expired", _("expired")

    # A live lease holds its item: nobody else may take it (active) or take it again (submitted).
    LIVE = (Status.ACTIVE, Status.SUBMITTED)

    class Reason(models.TextChoices):
        SKIP = "skip", _("skipped")
        UNSUITABLE = "unsuitable", _("reported unsuitable")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="leases")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.WRITE)
    paragraph = models.ForeignKey(
        "corpus.Paragraph", on_delete=models.CASCADE, related_name="leases"
    )
    question = models.ForeignKey(
        "annotation.Question",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="item_leases",
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
                condition=models.Q(status__in=["active", "submitted"], kind="write"),
                name="annotation_lease_one_live_per_paragraph",
            ),
            models.UniqueConstraint(
                fields=["campaign", "annotator", "kind"],
                condition=models.Q(status="active"),
                name="annotation_lease_one_active_per_annotator",
            ),
            models.UniqueConstraint(
                fields=["question"],
                condition=models.Q(status__in=["active", "submitted"], kind="review"),
                name="annotation_lease_one_live_review_per_question",
            ),
            models.UniqueConstraint(
                fields=["question", "annotator"],
                condition=models.Q(status__in=["active", "submitted"], kind="answer"),
                name="annotation_lease_one_live_answer_per_person",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="write", question__isnull=True)
                | (~models.Q(kind="write") & models.Q(question__isnull=False)),
                name="annotation_lease_question_iff_not_write",
            ),
        ]
        indexes = [
            models.Index(
                fields=["campaign", "status", "expires_at"], name="annotation_lease_expiry"
            ),
            # A claim skips what the person held before: their leases by paragraph, by question.
            models.Index(fields=["annotator", "paragraph"], name="annotation_lease_seen_p"),
            models.Index(fields=["question", "annotator"], name="annotation_lease_seen_q"),
            # Pages at scale (issue 13). The leases whose time counts, by person and by end
            # (hours report, the annotator's own figures), holding what the sums read.
            models.Index(
                fields=["annotator", "finished_at"],
                include=["created_at", "campaign", "kind", "status"],
                condition=models.Q(status__in=["submitted", "released"]),
                name="annotation_lease_worked",
            ),
            models.Index(
                fields=["finished_at"],
                include=["created_at", "campaign", "kind", "status"],
                condition=models.Q(status__in=["submitted", "released"]),
                name="annotation_lease_ended",
            ),
            # A campaign's progress (its writing leases by status) and its unsuitable reports.
            models.Index(fields=["campaign", "kind", "status"], name="annotation_lease_progress"),
            models.Index(
                fields=["campaign", "-finished_at", "-id"],
                condition=models.Q(release_reason="unsuitable"),
                name="annotation_lease_unsuitable",
            ),
            # What a person holds now.
            models.Index(
                fields=["annotator"],
                condition=models.Q(status="active"),
                name="annotation_lease_held",
            ),
        ]

    def __str__(self):
        return f"lease {self.pk} · {self.annotator} · {self.status}"


class WorkItem(models.Model):
    """What a campaign offers to claim, in the order it offers it, with its places left.

    A questions campaign has one `write` item per paragraph of its splits (one place: one
    annotator writes on it); an additional-answers campaign has one `answer` item per question
    of its splits, with as many places as answers still wanted. A claim takes a place (the
    first item with a place, through the partial index on `places > 0`, see `locks.py`); a
    lease that ends without the work (given back, expired) gives its place back; a submission
    keeps it taken; a paragraph reported unsuitable and a rejected question keep none. Items
    are made when a campaign is saved and when paragraphs or questions come in
    (`annotation.services.items`). Leases stay the record of who held what, and when.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="items")
    kind = models.CharField(_("kind"), max_length=8, choices=Lease.Kind.choices)
    paragraph = models.ForeignKey(
        "corpus.Paragraph", on_delete=models.CASCADE, related_name="work_items"
    )
    question = models.ForeignKey(
        "annotation.Question",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="work_items",
    )
    places = models.PositiveSmallIntegerField(_("places left"))
    # The order the campaign offers its items in: the paragraph's id (writing) or the
    # question's (answering), so paragraphs go out in reading order whenever their items were
    # made. Only the queue's partial index holds it: ordering by `id` would let PostgreSQL
    # walk the primary key past every item already done (the first open item looks near when
    # half the items are open, but they are all at the end).
    rank = models.BigIntegerField(_("rank"))

    class Meta:
        verbose_name = _("work item")
        verbose_name_plural = _("work items")
        ordering = ["campaign_id", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "paragraph"],
                condition=models.Q(kind="write"),
                name="annotation_item_one_write_per_paragraph",
            ),
            models.UniqueConstraint(
                fields=["campaign", "question"],
                condition=models.Q(kind="answer"),
                name="annotation_item_one_answer_per_question",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="write", question__isnull=True, places__lte=1)
                | models.Q(kind="answer", question__isnull=False),
                name="annotation_item_kind_shape",
            ),
        ]
        indexes = [
            # The claim's queue: only the items with a place left, in the campaign's order.
            models.Index(
                fields=["campaign", "kind", "rank"],
                condition=models.Q(places__gt=0),
                name="annotation_item_open",
            ),
        ]

    def __str__(self):
        return f"{self.kind} item {self.pk} · {self.places} place(s)"


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
    # Unanswerable (FQuAD 2.0, SQuAD 2.0): the paragraph does not answer it; its answer of
    # kind `plausible` is the span a careless reader would give. It never has an original one.
    is_impossible = models.BooleanField(_("unanswerable"), default=False)
    seconds_spent = models.PositiveIntegerField(_("seconds spent"), default=0)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    sampled_for_review = models.BooleanField(_("sampled for review"), default=False)
    # Model in the loop: the attempt whose model answer counts (the last one asked with the
    # question's final text), how many attempts the annotator made, and the model's EM/F1
    # against the question's current answer: set at submission, computed again when a
    # reviewer corrects the span. Null: no model, or the model was unavailable.
    model_attempt = models.ForeignKey(
        "annotation.ModelAttempt",
        verbose_name=_("model answer"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
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
            models.UniqueConstraint(
                fields=["source_id"],
                condition=~models.Q(source_id=""),
                name="annotation_question_one_per_source_id",
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
    lease = models.OneToOneField(
        Lease, on_delete=models.SET_NULL, null=True, blank=True, related_name="review"
    )
    verdict = models.CharField(_("verdict"), max_length=16, choices=Verdict.choices)
    reason = models.CharField(_("reason"), max_length=24, choices=RejectReason.choices, blank=True)
    comment = models.TextField(_("comment"), blank=True)
    revision = models.OneToOneField(
        QuestionRevision,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="review",
    )
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

    `annotation.sampling` decides each new question from these two counters. When an admin
    changes the campaign's review settings, counting starts again in a new epoch (the draws use
    the epoch in their key, so the new sequence is fresh and still replayable).
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
    model_run = models.ForeignKey(
        "evaluation.BaselineRun",
        verbose_name=_("baseline run"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
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
    question = models.ForeignKey(
        Question, on_delete=models.SET_NULL, null=True, blank=True, related_name="model_tries"
    )
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
