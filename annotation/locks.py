"""Every row lock of the annotation app lives here.

A claim locks the first free paragraph with `SELECT … FOR UPDATE SKIP LOCKED` ordered by id,
so concurrent claims walk past each other instead of queueing. The lock alone is not the
guarantee: a claim whose candidate list was read just before another claim committed can still
pick the same paragraph, and then the partial unique constraint on live leases refuses the
second insert (the caller retries). On SQLite, which has no row locks, transactions start
IMMEDIATE (settings), so claims run one at a time.
"""

from __future__ import annotations

from django.db.models import QuerySet

from annotation.models import Campaign, Lease
from corpus.models import Paragraph


def paragraph_candidates(*, campaign: Campaign, annotator) -> QuerySet:
    """Return the paragraphs this annotator could claim now, oldest first."""
    taken = Lease.objects.filter(
        campaign=campaign, status__in=[Lease.Status.ACTIVE, Lease.Status.SUBMITTED]
    )
    seen = Lease.objects.filter(campaign=campaign, annotator=annotator)
    reported = Lease.objects.filter(campaign=campaign, release_reason=Lease.Reason.UNSUITABLE)
    return (
        Paragraph.objects.filter(
            article__split__in=campaign.splits, article__language=campaign.language
        )
        .exclude(pk__in=taken.values("paragraph_id"))
        .exclude(pk__in=seen.values("paragraph_id"))
        .exclude(pk__in=reported.values("paragraph_id"))
        .order_by("pk")
    )


def paragraph_lock_next(*, campaign: Campaign, annotator) -> Paragraph | None:
    """Lock and return the next free paragraph, skipping rows other claims hold."""
    queryset = paragraph_candidates(campaign=campaign, annotator=annotator)
    locked = queryset.select_related("article").select_for_update(skip_locked=True, of=("self",))
    return locked.first()


def lease_lock(*, lease_pk: int) -> Lease | None:
    """Lock one lease row for the rest of the transaction."""
    return Lease.objects.select_for_update().filter(pk=lease_pk).first()
