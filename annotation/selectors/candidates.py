"""What each kind of lease could take next: the candidate queues, oldest first.

These are reads; `annotation.locks` locks the first candidate for a claim, and the services
count again once the row is locked (a candidate list can be stale by the time it is read).
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from annotation.models import Answer, Campaign, Lease, Question
from corpus.models import Paragraph


def paragraph_candidates(*, campaign: Campaign, annotator) -> QuerySet:
    """Return the paragraphs this annotator could claim now, oldest first."""
    writing = Lease.objects.filter(campaign=campaign, kind=Lease.Kind.WRITE)
    taken = writing.filter(status__in=Lease.LIVE)
    seen = writing.filter(annotator=annotator)
    reported = writing.filter(release_reason=Lease.Reason.UNSUITABLE)
    return (
        Paragraph.objects.filter(
            article__split__in=campaign.splits, article__language=campaign.language
        )
        .exclude(pk__in=taken.values("paragraph_id"))
        .exclude(pk__in=seen.values("paragraph_id"))
        .exclude(pk__in=reported.values("paragraph_id"))
        .order_by("pk")
    )


def answer_places_taken(question_pk, *, excluding_lease=None) -> int:
    """Return how many additional answers this question has or is being given.

    The answers stored (given on the platform, or brought by an import without any lease)
    plus the answer leases still active, in any campaign.
    """
    active = Lease.objects.filter(
        kind=Lease.Kind.ANSWER, question_id=question_pk, status=Lease.Status.ACTIVE
    )
    if excluding_lease is not None:
        active = active.exclude(pk=excluding_lease)
    stored = Answer.objects.filter(question_id=question_pk, kind=Answer.Kind.ADDITIONAL)
    return active.count() + stored.count()


def _count_per_question(rows: QuerySet) -> Coalesce:
    """Return a subquery counting `rows` of the outer question, 0 when there are none."""
    counted = rows.order_by().values("question").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def answer_candidates(*, campaign: Campaign, annotator) -> QuerySet:
    """Return the questions this annotator could answer again now, oldest first.

    Not their own, not rejected, never leased to them before, and still short of the campaign's
    extra answers. The count is read before the row lock, so the caller counts again once the
    question is locked.
    """
    active = Lease.objects.filter(
        kind=Lease.Kind.ANSWER, status=Lease.Status.ACTIVE, question=OuterRef("pk")
    )
    stored = Answer.objects.filter(kind=Answer.Kind.ADDITIONAL, question=OuterRef("pk"))
    mine = Lease.objects.filter(kind=Lease.Kind.ANSWER, annotator=annotator)
    answered = Answer.objects.filter(author=annotator)
    return (
        Question.objects.filter(
            paragraph__article__split__in=campaign.splits,
            paragraph__article__language=campaign.language,
        )
        .exclude(status=Question.Status.REJECTED)
        .exclude(author=annotator)
        .exclude(pk__in=mine.values("question_id"))
        .exclude(pk__in=answered.values("question_id"))
        .annotate(taken=_count_per_question(active) + _count_per_question(stored))
        .filter(taken__lt=campaign.extra_answers)
        .order_by("pk")
    )


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
