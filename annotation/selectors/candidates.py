"""What a reviewer could take next: the sampled questions waiting, oldest first.

A read, for the pages that count what waits; a claim takes its question in one statement
(`annotation.locks.claim`), with the same rules.
"""

from __future__ import annotations

from django.db.models import QuerySet

from annotation.models import Campaign, Lease, Question


def review_candidates(*, campaign: Campaign, reviewer) -> QuerySet:
    """Return the sampled questions this reviewer could audit now, oldest first."""
    reviews = Lease.objects.filter(kind=Lease.Kind.REVIEW)
    return (
        Question.objects.filter(
            campaign=campaign, sampled_for_review=True, status=Question.Status.PENDING
        )
        .exclude(author=reviewer)
        .exclude(pk__in=reviews.filter(status__in=Lease.LIVE).values("question_id"))
        .exclude(pk__in=reviews.filter(annotator=reviewer).values("question_id"))
        .order_by("pk")
    )
