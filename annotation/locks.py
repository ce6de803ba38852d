"""Every row lock of the annotation app lives here.

A claim locks the first free paragraph with `SELECT … FOR UPDATE SKIP LOCKED` ordered by id,
so concurrent claims walk past each other instead of queueing. The lock alone is not the
guarantee: a claim whose candidate list was read just before another claim committed can still
pick the same paragraph, and then the partial unique constraint on live leases refuses the
second insert (the caller retries). On SQLite, which has no row locks, transactions start
IMMEDIATE (settings), so claims run one at a time.
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from annotation.models import Answer, Campaign, Lease, Question
from corpus.models import Paragraph

LIVE = [Lease.Status.ACTIVE, Lease.Status.SUBMITTED]


def paragraph_candidates(*, campaign: Campaign, annotator) -> QuerySet:
    """Return the paragraphs this annotator could claim now, oldest first."""
    writing = Lease.objects.filter(campaign=campaign, kind=Lease.Kind.WRITE)
    taken = writing.filter(status__in=LIVE)
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


def paragraph_lock_next(*, campaign: Campaign, annotator) -> Paragraph | None:
    """Lock and return the next free paragraph, skipping rows other claims hold."""
    queryset = paragraph_candidates(campaign=campaign, annotator=annotator)
    locked = queryset.select_related("article").select_for_update(skip_locked=True, of=("self",))
    return locked.first()


def lease_lock(*, lease_pk: int) -> Lease | None:
    """Lock one lease row for the rest of the transaction."""
    return Lease.objects.select_for_update().filter(pk=lease_pk).first()


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


def answer_candidates(*, campaign: Campaign, annotator) -> QuerySet:
    """Return the questions this annotator could answer again now, oldest first.

    Not their own, not rejected, never leased to them before, and still short of the campaign's
    extra answers. The count is read before the row lock, so the caller counts again once the
    question is locked.
    """
    active = (
        Lease.objects.filter(
            kind=Lease.Kind.ANSWER, status=Lease.Status.ACTIVE, question=OuterRef("pk")
        )
        .order_by()
        .values("question")
        .annotate(n=Count("pk"))
        .values("n")
    )
    stored = (
        Answer.objects.filter(kind=Answer.Kind.ADDITIONAL, question=OuterRef("pk"))
        .order_by()
        .values("question")
        .annotate(n=Count("pk"))
        .values("n")
    )
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
        .annotate(
            taken=Coalesce(Subquery(active, output_field=IntegerField()), Value(0))
            + Coalesce(Subquery(stored, output_field=IntegerField()), Value(0))
        )
        .filter(taken__lt=campaign.extra_answers)
        .order_by("pk")
    )


def question_lock_next_to_answer(
    *, campaign: Campaign, annotator, skip=(), wait: bool = False
) -> Question | None:
    """Lock and return the next question to answer again.

    First pass (`wait=False`): skip rows that other transactions hold, so concurrent claims
    spread over the questions. But a question has several places, so a held row may still
    have one for this annotator: the second pass (`wait=True`) waits for the first candidate's
    lock instead of saying that nothing is left.
    """
    queryset = answer_candidates(campaign=campaign, annotator=annotator).exclude(pk__in=skip)
    locked = queryset.select_related("paragraph__article").select_for_update(
        skip_locked=not wait, of=("self",)
    )
    return locked.first()


def review_candidates(*, campaign: Campaign, reviewer) -> QuerySet:
    """Return the sampled questions this reviewer could audit now, oldest first."""
    reviews = Lease.objects.filter(kind=Lease.Kind.REVIEW)
    return (
        Question.objects.filter(
            campaign=campaign, sampled_for_review=True, status=Question.Status.PENDING
        )
        .exclude(author=reviewer)
        .exclude(pk__in=reviews.filter(status__in=LIVE).values("question_id"))
        .exclude(pk__in=reviews.filter(annotator=reviewer).values("question_id"))
        .order_by("pk")
    )


def question_lock_next_to_review(*, campaign: Campaign, reviewer) -> Question | None:
    """Lock and return the next sampled question to audit, skipping rows other claims hold."""
    queryset = review_candidates(campaign=campaign, reviewer=reviewer)
    locked = queryset.select_related("paragraph__article").select_for_update(
        skip_locked=True, of=("self",)
    )
    return locked.first()


def question_lock(*, question_pk: int) -> Question | None:
    """Lock one question row for the rest of the transaction."""
    return Question.objects.select_for_update().filter(pk=question_pk).first()
