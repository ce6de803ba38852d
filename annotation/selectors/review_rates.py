"""Reads of quality control (issue 28): each annotator's evidence, review rate and why, and
gold score with its interval, per campaign. The quality table shows them
(`annotator_quality_figures`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Avg, Count, Q
from django.utils.translation import gettext as _

from annotation.models import Campaign, GoldAnswer, Question, ReviewCounter
from annotation.review_rate import GOLD_ERROR_F1, Evidence, Why, adapted_rate, wilson

REVIEWED = (Question.Status.APPROVED, Question.Status.REJECTED, Question.Status.CORRECTED)
WRONG = (Question.Status.REJECTED, Question.Status.CORRECTED)


def annotator_evidence(*, campaign_id: int, annotator_id: int) -> Evidence:
    """What reviews and gold questions said about the annotator in the campaign (two queries
    on the (author, campaign, status) and (annotator, campaign) indexes)."""
    reviews = Question.objects.filter(
        campaign_id=campaign_id, author_id=annotator_id, status__in=REVIEWED
    ).aggregate(n=Count("id"), wrong=Count("id", filter=Q(status__in=WRONG)))
    gold = GoldAnswer.objects.filter(campaign_id=campaign_id, annotator_id=annotator_id).aggregate(
        n=Count("id"), wrong=Count("id", filter=Q(f1__lt=GOLD_ERROR_F1))
    )
    return Evidence(
        reviewed=reviews["n"],
        review_errors=reviews["wrong"],
        gold=gold["n"],
        gold_errors=gold["wrong"],
    )


@dataclass(frozen=True)
class GoldScore:
    """An annotator's answers to gold questions: how many, mean F1, and the share right
    (F1 >= GOLD_ERROR_F1) with its Wilson interval (all in %)."""

    answered: int
    mean_f1: float | None
    right: float | None
    low: float | None
    high: float | None


def gold_score(*, campaign_id: int, annotator_id: int) -> GoldScore:
    """The annotator's gold score in the campaign."""
    row = GoldAnswer.objects.filter(campaign_id=campaign_id, annotator_id=annotator_id).aggregate(
        n=Count("id"), mean=Avg("f1"), right=Count("id", filter=Q(f1__gte=GOLD_ERROR_F1))
    )
    return _gold_score(row)


def _gold_score(row: dict) -> GoldScore:
    """A GoldScore from an aggregate of gold answers: n, mean (F1) and right (count)."""
    if not row["n"]:
        return GoldScore(0, None, None, None, None)
    wrong_low, wrong_high = wilson(row["n"] - row["right"], row["n"])
    return GoldScore(
        answered=row["n"],
        mean_f1=round(row["mean"], 1),
        right=round(100 * row["right"] / row["n"], 1),
        low=round(100 * (1 - wrong_high), 1),
        high=round(100 * (1 - wrong_low), 1),
    )


def why_text(why: str, *, rate: Decimal, items: int, errors: int, bar: Decimal) -> str:
    """The reason for a rate, in words, for reviewers and admins."""
    values = {
        "rate": f"{rate * 100:.0f}",
        "items": items,
        "errors": errors,
        "bar": f"{Decimal(bar) * 100:.0f}",
    }
    texts = {
        Why.FIXED: _("rate %(rate)s%%: the campaign's rate"),
        Why.WARMUP: _("rate %(rate)s%%: the annotator's first questions (warm-up)"),
        Why.START: _("rate %(rate)s%%: too few checked items yet (%(items)s) to move it"),
        Why.UNSURE: _(
            "rate %(rate)s%% until the evidence decides: %(errors)s errors in %(items)s "
            "checked items, not yet clearly above or below the %(bar)s%% bar"
        ),
        Why.SUSPECT: _(
            "rate %(rate)s%% because %(errors)s errors in %(items)s checked items is above "
            "the %(bar)s%% bar, not yet proven"
        ),
        Why.ABOVE: _(
            "rate %(rate)s%% because %(errors)s errors in %(items)s checked items are "
            "clearly above the %(bar)s%% bar"
        ),
        Why.GOOD: _(
            "rate %(rate)s%% because %(errors)s errors in %(items)s checked items are "
            "clearly below the %(bar)s%% bar"
        ),
    }
    text = texts.get(why)
    if text is None:
        return _("rate %(rate)s%%") % values
    return text % values


def drawn_text(question: Question, campaign: Campaign) -> str:
    """Why a question came to review, for its reviewer: "drawn: rate 40 % because …"."""
    if question.review_rate is None:  # decided before rates were kept, or imported
        return ""
    values = {
        "rate": f"{question.review_rate * 100:.0f}",
        "bar": f"{Decimal(campaign.review_error_bar) * 100:.0f}",
    }
    texts = {
        Why.FIXED: _("drawn: rate %(rate)s%%, the campaign's rate for everyone"),
        Why.WARMUP: _("drawn: rate %(rate)s%% because it is among the author's first questions"),
        Why.START: _(
            "drawn: rate %(rate)s%%, the campaign's, because too few of the author's items "
            "were checked yet to move it"
        ),
        Why.UNSURE: _(
            "drawn: rate %(rate)s%% because the author's checked items do not show yet "
            "that their errors are below the %(bar)s%% bar"
        ),
        Why.SUSPECT: _(
            "drawn: rate %(rate)s%% because the author's errors so far are above the "
            "%(bar)s%% bar (not yet proven)"
        ),
        Why.ABOVE: _(
            "drawn: rate %(rate)s%% because the author's errors are clearly above the "
            "%(bar)s%% bar"
        ),
        Why.GOOD: _(
            "drawn: rate %(rate)s%% because the author's errors are reliably below the "
            "%(bar)s%% bar"
        ),
    }
    return texts.get(question.review_why, _("drawn: rate %(rate)s%%")) % values


@dataclass(frozen=True)
class AnnotatorRate:
    """One annotator's review figures in a campaign, for the quality table and the API."""

    annotator_id: int
    rate: Decimal
    why: str
    why_text: str
    flagged: bool
    items: int
    errors: int
    low: float
    high: float
    gold: GoldScore


def annotator_rate(campaign: Campaign, annotator_id: int) -> AnnotatorRate:
    """The rate the annotator's next question would be decided at, and why, with the
    evidence's Wilson interval (in %) and their gold score."""
    return annotator_quality_figures(campaign, [annotator_id])[annotator_id]


def annotator_quality_figures(campaign: Campaign, annotator_ids) -> dict[int, AnnotatorRate]:
    """`annotator_rate` for each of these annotators (a page of the quality table), in three
    queries whatever their number: reviews, gold answers and review counters per annotator."""
    ids = list(annotator_ids)
    reviews = {
        row["author_id"]: row
        for row in Question.objects.filter(
            campaign=campaign, author_id__in=ids, status__in=REVIEWED
        )
        .order_by()
        .values("author_id")
        .annotate(n=Count("id"), wrong=Count("id", filter=Q(status__in=WRONG)))
    }
    golds = {
        row["annotator_id"]: row
        for row in GoldAnswer.objects.filter(campaign=campaign, annotator_id__in=ids)
        .order_by()
        .values("annotator_id")
        .annotate(
            n=Count("id"),
            mean=Avg("f1"),
            wrong=Count("id", filter=Q(f1__lt=GOLD_ERROR_F1)),
            right=Count("id", filter=Q(f1__gte=GOLD_ERROR_F1)),
        )
    }
    counters = {
        counter.annotator_id: counter
        for counter in ReviewCounter.objects.filter(campaign=campaign, annotator_id__in=ids)
    }
    return {
        pk: _figures(campaign, pk, reviews.get(pk), golds.get(pk), counters.get(pk)) for pk in ids
    }


def _figures(campaign: Campaign, annotator_id: int, reviews, gold, counter) -> AnnotatorRate:
    reviews = reviews or {"n": 0, "wrong": 0}
    gold = gold or {"n": 0, "wrong": 0, "mean": None, "right": 0}
    evidence = Evidence(reviews["n"], reviews["wrong"], gold["n"], gold["wrong"])
    decision = adapted_rate(
        evidence,
        base=campaign.review_rate,
        floor=campaign.review_floor,
        ceiling=campaign.review_ceiling,
        bar=campaign.review_error_bar,
    )
    rate, why = (
        (decision.rate, decision.why)
        if campaign.review_adaptive
        else (Decimal(campaign.review_rate), Why.FIXED)
    )
    if counter is not None and counter.decided_before + counter.seen < campaign.review_warmup:
        rate, why = Decimal(campaign.review_warmup_rate), Why.WARMUP
    return AnnotatorRate(
        annotator_id=annotator_id,
        rate=rate,
        why=why,
        why_text=why_text(
            why,
            rate=rate,
            items=evidence.items,
            errors=evidence.errors,
            bar=campaign.review_error_bar,
        ),
        flagged=campaign.review_adaptive and decision.flagged,
        items=evidence.items,
        errors=evidence.errors,
        low=round(100 * decision.low, 1),
        high=round(100 * decision.high, 1),
        gold=_gold_score(gold),
    )
