"""Which questions go to review, and the versions a question goes through.

`review_sample` applies `annotation.sampling` (pure) to an annotator's counter row: the row is
locked for the transaction, so two submissions of one annotator are decided one after the
other and the sampled share keeps its band at every moment.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import connection
from django.db.models import Max

from annotation.models import Answer, Campaign, Question, QuestionRevision, ReviewCounter
from annotation.sampling import should_sample
from core.rows import built, columns, param, prepared_cursor


def _settings(campaign: Campaign) -> dict:
    # A campaign built in memory may still hold the field defaults as strings.
    return {
        "rate": Decimal(str(campaign.review_rate)),
        "warmup": int(campaign.review_warmup),
        "warmup_rate": Decimal(str(campaign.review_warmup_rate)),
    }


def _counter_row_locked(campaign: Campaign, annotator_id: int) -> ReviewCounter:
    """The annotator's counter row, made if missing, locked for the transaction."""
    settings = _settings(campaign)
    if connection.vendor != "postgresql":
        counter, _created = ReviewCounter.objects.select_for_update().get_or_create(
            campaign=campaign, annotator_id=annotator_id, defaults=settings
        )
        return counter
    # One statement makes it or locks it (the no-op update takes the row lock).
    with prepared_cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO annotation_reviewcounter (campaign_id, annotator_id, epoch, rate, warmup,
                warmup_rate, seen, sampled, decided_before)
            VALUES (%s, %s, 0, %s, %s, %s, 0, 0, 0)
            ON CONFLICT (campaign_id, annotator_id)
            DO UPDATE SET seen = annotation_reviewcounter.seen
            RETURNING {columns(ReviewCounter)}
            """,
            [
                campaign.pk,
                annotator_id,
                *(param(ReviewCounter, name, settings[name]) for name in settings),
            ],
        )
        return built(ReviewCounter, cursor.fetchone())


def _counter_locked(campaign: Campaign, annotator_id: int) -> ReviewCounter:
    counter = _counter_row_locked(campaign, annotator_id)
    current = _settings(campaign)
    if any(getattr(counter, name) != value for name, value in current.items()):
        # New review settings: count again from here, with fresh draws.
        for name, value in current.items():
            setattr(counter, name, value)
        counter.epoch += 1
        counter.decided_before += counter.seen
        counter.seen = counter.sampled = 0
    return counter


def review_sample(
    *, campaign: Campaign, annotator_id: int, count: int, along: list | None = None
) -> list[bool]:
    """Decide, in order, whether each of the annotator's next `count` questions is audited.

    Must run inside the transaction that stores the questions. With `along` (a list), the
    counter's update is added to it, as (SQL, parameters), instead of sent: the caller runs it
    in that transaction (`questions_store`'s `along`).
    """
    counter = _counter_locked(campaign, annotator_id)
    decisions = []
    for _ in range(count):
        picked = should_sample(
            seen=counter.seen,
            sampled=counter.sampled,
            rate=counter.rate,
            key=f"user:{annotator_id}:epoch:{counter.epoch}",
            seed=campaign.review_seed,
            warmup=max(0, counter.warmup - counter.decided_before),
            warmup_rate=counter.warmup_rate,
        )
        decisions.append(picked)
        counter.seen += 1
        counter.sampled += picked
    update = (
        _COUNTER_UPDATE,
        [*(param(ReviewCounter, name, getattr(counter, name)) for name in _KEPT), counter.pk],
    )
    if along is not None:
        along.append(update)
    else:
        with prepared_cursor() as cursor:
            cursor.execute(*update)
    return decisions


_KEPT = ("epoch", "rate", "warmup", "warmup_rate", "seen", "sampled", "decided_before")
_COUNTER_UPDATE = (
    "UPDATE annotation_reviewcounter SET "
    + ", ".join(f"{name} = %s" for name in _KEPT)
    + " WHERE id = %s"
)


def first_revisions(questions: list[Question], answers: list[Answer]) -> list[QuestionRevision]:
    """Version 1 of new questions (unsaved): their text and their first answer's span (the
    plausible one of an unanswerable question), by their author. `answers` are the questions'
    first answers, in the same order (None for an imported unanswerable question without a
    plausible answer)."""
    return [
        QuestionRevision(
            question=question,
            number=1,
            origin=QuestionRevision.Origin.WRITTEN,
            editor_id=question.author_id,
            text=question.text,
            is_impossible=question.is_impossible,
            answer_start=answer.answer_start if answer else 0,
            answer_text=answer.text if answer else "",
        )
        for question, answer in zip(questions, answers, strict=True)
    ]


def revision_add(
    *,
    question: Question,
    editor,
    text: str,
    answer_start: int,
    answer_text: str,
    is_impossible: bool = False,
):
    """Record the next version of a question (the question row is locked by the caller).

    An unanswerable version's span is its plausible answer."""
    last = question.revisions.aggregate(n=Max("number"))["n"] or 0
    return QuestionRevision.objects.create(
        question=question,
        number=last + 1,
        origin=QuestionRevision.Origin.CORRECTED,
        editor=editor,
        text=text,
        is_impossible=is_impossible,
        answer_start=answer_start,
        answer_text=answer_text,
    )
