"""Each annotator's review rate, from their measured error (issue 28). Pure: no Django.

The evidence is what reviewers and gold questions said about the annotator in a campaign:
their reviewed questions (an error: rejected or corrected) and their answers to gold
questions (an error: F1 below `GOLD_ERROR_F1`), n items with e errors. The rule weighs two
hypotheses about the annotator, against the campaign's bar (the error rate it accepts):
"good", an error rate of half the bar, and "bad", twice the bar (7.5 % and 30 % for a 15 %
bar), by their likelihood ratio (a sequential probability ratio test, Wald's SPRT):

- fewer than `MIN_EVIDENCE` (20) items: the campaign's rate ("start"): a handful moves nothing,
  and neither a flag nor the floor comes from less;
- the evidence `BAD_ODDS` (9) times likelier from "bad" than from "good": flagged, the ceiling
  ("above");
- `GOOD_ODDS` (50) times likelier from "good" than from "bad": the floor ("good");
- otherwise, until the evidence decides, every question reviewed (`UNDECIDED_RATE`, 100 %):
  "suspect" when the observed share is above the bar, "unsure" when not.

Why a likelihood ratio and not a confidence bound around the observed share: the decision is
between two kinds of annotator, and the ratio weighs every item's evidence towards one or the
other as it comes (an error counts ln 4, a right item ln(0.925/0.70) the other way, at a 15 %
bar), so it decides in the fewest items for a given risk (Wald's SPRT is optimal in that
sense). The first rule, a Wilson bound at 90 %, needed an observed share of about 22 % to flag
someone after 60 items; the ratio flags at 20 %. Why the floor is stricter (50 to 1) than the
flag (9 to 1): a wrong floor is slow to undo (at a 2 % rate the evidence comes at one item in
50 questions), a wrong flag is cheap (it raises the rate and informs an admin, who decides).
Why the undecided are reviewed in full: that is where the evidence is needed, and it decides
within a paragraph or two; the floor is where the savings are. bench/quality_model.py plays
bench/quality_sim.py's population on 100 seeds: docs/quality-control.md has the figures.

`wilson` gives the error rate's Wilson score interval at 80 % (each end a 90 % one-sided
bound), shown beside the rate in the quality table: it stays honest at small n and near 0,
where the normal interval collapses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from annotation.sampling import should_sample_running

Z = 1.2816
MIN_EVIDENCE = 20
GOOD_ODDS, BAD_ODDS = 50, 9  # the likelihood ratios that decide the floor and the flag
UNDECIDED_RATE = 1  # until the evidence decides, every question is reviewed
GOLD_ERROR_F1 = 50.0


class Why:
    """Why a question was decided at its rate (stored with the question and the counter)."""

    FIXED = "fixed"  # the campaign's rate, not adaptive
    WARMUP = "warmup"  # the campaign's warm-up
    START = "start"  # too little evidence yet
    UNSURE = "unsure"  # not decided, observed share at or below the bar
    SUSPECT = "suspect"  # not decided, observed share above the bar
    ABOVE = "above"  # proven above the bar: flagged
    GOOD = "good"  # proven below the bar


@dataclass(frozen=True)
class Evidence:
    reviewed: int = 0
    review_errors: int = 0
    gold: int = 0
    gold_errors: int = 0

    @property
    def items(self) -> int:
        return self.reviewed + self.gold

    @property
    def errors(self) -> int:
        return self.review_errors + self.gold_errors


@dataclass(frozen=True)
class RateDecision:
    rate: Decimal
    why: str
    items: int
    errors: int
    low: float
    high: float
    odds: float = 1.0  # how many times likelier the evidence is from "bad" than from "good"

    @property
    def flagged(self) -> bool:
        return self.why == Why.ABOVE


def wilson(errors: int, items: int, z: float = Z) -> tuple[float, float]:
    """Return the Wilson score interval (low, high) of errors/items; (0, 1) with no items."""
    if items <= 0:
        return 0.0, 1.0
    if not 0 <= errors <= items:
        raise ValueError(f"errors ({errors}) must be between 0 and items ({items})")
    share = errors / items
    z2 = z * z
    centre = share + z2 / (2 * items)
    half = z * math.sqrt(share * (1 - share) / items + z2 / (4 * items * items))
    scale = 1 + z2 / items
    return max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale)


def _percent(value) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def hypotheses(bar) -> tuple[float, float]:
    """The error rates of a "good" and a "bad" annotator for this bar: half and twice it
    (kept within (0, 1): a bar of 0.60 gives 0.30 and 0.80)."""
    bar = min(max(float(bar), 0.01), 0.99)
    return bar / 2, min(2 * bar, (1 + bar) / 2)


def odds_bad(errors: int, items: int, bar) -> float:
    """How many times likelier `errors` in `items` are from a "bad" annotator than from a
    "good" one (`hypotheses`); 1 with no items."""
    good, bad = hypotheses(bar)
    log_ratio = errors * math.log(bad / good) + (items - errors) * math.log((1 - bad) / (1 - good))
    return math.exp(log_ratio)


def adapted_rate(
    evidence: Evidence, *, base, floor, ceiling, bar, min_evidence: int = MIN_EVIDENCE
) -> RateDecision:
    """Return the rate for the annotator's next question, with why (module docstring)."""
    base, floor, ceiling, bar = (_percent(v) for v in (base, floor, ceiling, bar))
    items, errors = evidence.items, evidence.errors
    low, high = wilson(errors, items)
    odds = odds_bad(errors, items, bar)
    if items < min_evidence:
        rate, why = base, Why.START
    elif odds >= BAD_ODDS:
        rate, why = ceiling, Why.ABOVE
    elif odds <= 1 / GOOD_ODDS:
        rate, why = floor, Why.GOOD
    else:
        rate = _percent(UNDECIDED_RATE)
        why = Why.SUSPECT if errors / items > bar else Why.UNSURE
    return RateDecision(
        rate=max(rate, floor), why=why, items=items, errors=errors, low=low, high=high, odds=odds
    )


@dataclass
class Counts:
    """An annotator's review counter in a campaign (`ReviewCounter`'s running fields): questions
    decided (`seen`, and `decided_before` an old epoch), sampled, and `expected`, the sum of the
    rates they were decided at."""

    seen: int
    sampled: int
    expected: Decimal
    warmup: int = 0
    warmup_rate: Decimal = Decimal(1)
    decided_before: int = 0


def decide_next(counts: Counts, *, count: int, rate, why: str, key: str, seed: int) -> list:
    """Decide, in order, whether each of the annotator's next `count` questions is reviewed:
    [(picked, rate, why)], the first `warmup` questions at the warm-up rate, the others at
    `rate`; `counts` is updated in place (the caller stores it)."""
    decisions = []
    for _ in range(count):
        decided = counts.decided_before + counts.seen
        this_rate, this_why = rate, why
        if decided < counts.warmup:
            this_rate, this_why = counts.warmup_rate, Why.WARMUP
        elif decided == counts.warmup and counts.warmup:
            # Past the warm-up the band counts from its end (`annotation.sampling`).
            counts.expected = Decimal(counts.sampled)
        picked = should_sample_running(
            seen=counts.seen,
            sampled=counts.sampled,
            expected=counts.expected,
            rate=this_rate,
            key=key,
            seed=seed,
        )
        decisions.append((picked, this_rate, this_why))
        counts.seen += 1
        counts.sampled += picked
        counts.expected += this_rate
    return decisions
