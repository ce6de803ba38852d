"""What a reviewer could take next: the sampled questions waiting, oldest first.

A read, for the pages that count what waits; a claim takes its question in one statement
(`annotation.locks.claim`), with the same rules.
"""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, QuerySet

from annotation.models import Campaign, Lease, Question


def review_candidates(*, campaign: Campaign, reviewer) -> QuerySet:
    """Return the sampled questions this reviewer could audit now, oldest first."""
    return _waiting(reviewer).filter(campaign=campaign).order_by("created_at", "pk")


def waiting_reviews(*, reviewer, campaign_ids) -> dict[int, int]:
    """Return, per campaign, how many sampled questions this reviewer could audit now.

    One query whatever the number of campaigns. The questions are found through the review
    queue's partial index (sampled, by campaign and status), and each one's leases through the
    lease indexes (`NOT EXISTS`, an anti-join): the cost follows the questions waiting, not
    the reviews already done.
    """
    rows = (
        _waiting(reviewer)
        .filter(campaign_id__in=list(campaign_ids))
        .order_by()
        .values_list("campaign_id")
        .annotate(n=Count("pk"))
    )
    return dict(rows)


def _waiting(reviewer) -> QuerySet:
    """Sampled and pending, not the reviewer's own, with no live review, never held by them."""
    reviews = Lease.objects.filter(kind=Lease.Kind.REVIEW, question=OuterRef("pk"))
    return (
        Question.objects.filter(sampled_for_review=True, status=Question.Status.PENDING)
        .exclude(author=reviewer)
        .exclude(Exists(reviews.filter(status__in=Lease.LIVE)))
        .exclude(Exists(reviews.filter(annotator=reviewer)))
    )
