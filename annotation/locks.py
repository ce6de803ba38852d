"""Every row lock of the annotation app lives here.

A claim locks the first free paragraph with `SELECT … FOR UPDATE SKIP LOCKED` ordered by id,
so concurrent claims walk past each other instead of queueing. The lock alone is not the
guarantee: a claim whose candidate list was read just before another claim committed can still
pick the same paragraph, and then the partial unique constraint on live leases refuses the
second insert (the caller retries). On SQLite, which has no row locks, transactions start
IMMEDIATE (settings), so claims run one at a time.

The candidate queues themselves are reads: `annotation.selectors.candidates`.
"""

from __future__ import annotations

from annotation.models import Campaign, Lease, Question
from annotation.selectors.candidates import (
    answer_candidates,
    paragraph_candidates,
    review_candidates,
)
from corpus.models import Paragraph


def paragraph_lock_next(*, campaign: Campaign, annotator) -> Paragraph | None:
    """Lock and return the next free paragraph, skipping rows other claims hold."""
    queryset = paragraph_candidates(campaign=campaign, annotator=annotator)
    locked = queryset.select_related("article").select_for_update(skip_locked=True, of=("self",))
    return locked.first()


def lease_lock(*, lease_pk: int) -> Lease | None:
    """Lock one lease row for the rest of the transaction."""
    return Lease.objects.select_for_update().filter(pk=lease_pk).first()


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
