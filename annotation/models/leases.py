"""Leases (items reserved for one person) and the work items a campaign offers to claim."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models.campaigns import Campaign
from core.models import optional_key


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
    question = optional_key("annotation.Question", models.CASCADE, "item_leases")
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
    question = optional_key("annotation.Question", models.CASCADE, "work_items")
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
