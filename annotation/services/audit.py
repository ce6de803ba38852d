"""Which questions go to review, and the versions a question goes through.

`review_sample` applies `annotation.sampling.should_sample_running` (pure) to an annotator's
counter row: the row is locked for the transaction, so two submissions of one annotator are
decided one after the other and the sampled count stays within one of `expected` (the sum of
the rates the questions were decided at) at every moment.

The rate of each question: the warm-up rate for the annotator's first `review_warmup`
questions of the campaign; then the campaign's rate, or, when the campaign adapts it
(`review_adaptive`), the rate `annotation.review_rate` gives from the annotator's evidence
(their reviewed questions and gold answers in the campaign). A new rate, an admin's or the
evidence's, changes only the questions still to come: the counts and the draws go on (issue
28; they used to restart in a new epoch whenever the settings changed).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import connection
from django.db.models import Max

from annotation.models import Answer, Campaign, Question, QuestionRevision, ReviewCounter
from annotation.review_rate import Counts, RateDecision, Why, adapted_rate, decide_next
from annotation.selectors.review_rates import annotator_evidence
from core.rows import built, columns, param, prepared_cursor


@dataclass(frozen=True)
class Drawn:
    """One question's decision: sampled or not, at which rate, and why that rate."""

    picked: bool
    rate: Decimal
    why: str

    def __bool__(self) -> bool:
        return self.picked


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
                warmup_rate, seen, sampled, decided_before, expected, why)
            VALUES (%s, %s, 0, %s, %s, %s, 0, 0, 0, 0, '')
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


def rate_decision(campaign: Campaign, annotator_id: int) -> RateDecision | None:
    """The adaptive rate of the annotator's next question (None: the campaign's is fixed)."""
    if not campaign.review_adaptive:
        return None
    return adapted_rate(
        annotator_evidence(campaign_id=campaign.pk, annotator_id=annotator_id),
        base=campaign.review_rate,
        floor=campaign.review_floor,
        ceiling=campaign.review_ceiling,
        bar=campaign.review_error_bar,
    )


def review_sample(
    *, campaign: Campaign, annotator_id: int, count: int, along: list | None = None
) -> list[Drawn]:
    """Decide, in order, whether each of the annotator's next `count` questions is audited.

    Must run inside the transaction that stores the questions. With `along` (a list), the
    counter's update is added to it, as (SQL, parameters), instead of sent: the caller runs it
    in that transaction (`questions_store`'s `along`).
    """
    counter = _counter_row_locked(campaign, annotator_id)
    settings = _settings(campaign)
    adaptive = rate_decision(campaign, annotator_id)
    rate, why = (settings["rate"], Why.FIXED) if adaptive is None else (adaptive.rate, adaptive.why)
    counts = Counts(
        seen=counter.seen,
        sampled=counter.sampled,
        expected=Decimal(counter.expected),
        warmup=settings["warmup"],
        warmup_rate=settings["warmup_rate"],
        decided_before=counter.decided_before,
    )
    key = f"user:{annotator_id}:epoch:{counter.epoch}"
    drawn = decide_next(counts, count=count, rate=rate, why=why, key=key, seed=campaign.review_seed)
    for name in ("warmup", "warmup_rate", "seen", "sampled", "expected"):
        setattr(counter, name, getattr(counts, name))
    counter.rate, counter.why = rate, why
    update = (
        _COUNTER_UPDATE,
        [*(param(ReviewCounter, name, getattr(counter, name)) for name in _KEPT), counter.pk],
    )
    if along is not None:
        along.append(update)
    else:
        with prepared_cursor() as cursor:
            cursor.execute(*update)
    return [
        Drawn(picked=picked, rate=this_rate, why=this_why) for picked, this_rate, this_why in drawn
    ]


_KEPT = ("rate", "warmup", "warmup_rate", "seen", "sampled", "expected", "why")
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
