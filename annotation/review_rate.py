"""Each annotator's review rate, from their measured error (issue 28). Pure: no Django.

The evidence is what reviewers and gold questions said about the annotator in a campaign:
their reviewed questions (an error: rejected or corrected) and their answers to gold
questions (an error: F1 below `GOLD_ERROR_F1`). From n items with e errors the error rate's
**Wilson score interval** at 80 % (z = 1.2816, so each end is a 90 % one-sided bound) is
computed, and, against the campaign's bar (the error rate it accepts):

- fewer than `MIN_EVIDENCE` items: the campaign's rate ("start"): a handful moves nothing;
- the interval's high end below the bar: reliably good, the floor ("good");
- the interval's low end above the bar: flagged, the ceiling ("above");
- otherwise, until the evidence decides: "suspect" when the observed share is above the bar,
  every question reviewed (`SUSPECT_RATE`, 100 %), "unsure" when not, the ceiling. Reviewing
  the undecided more is what makes the evidence come fast; the floor is where the savings
  are. A suspect is reviewed in full because that is where a careless annotator is caught
  early or cleared: in a pure model of bench/quality_sim.py's population (40 seeds), reviewing
  suspects at the ceiling met the issue's four targets on 24 seeds, in full on 34, at the
  same savings (docs/quality-control.md).

Why Wilson: the share of errors is a binomial proportion observed on few items, often 0 or 1
error; the normal ("Wald") interval collapses to a width of 0 there (0 errors in 5 items
would read as "certainly perfect"), while Wilson's stays honest at small n and near 0, keeps
within [0, 1], and needs no table or iteration (Clopper–Pearson is more conservative than
needed here, and slower to decide). Why 90 % one-sided and not 95 %: a decision here is cheap
to undo (a person at the floor is still reviewed, and their rate rises again with the first
errors; a flag only informs an admin, who decides), while a slower decision costs reviewer
hours on everyone; with careful annotators at 3 % and careless ones at 30 % (bench/
quality_sim.py) it flags no careful one. docs/quality-control.md has the figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

Z = 1.2816
MIN_EVIDENCE = 10
SUSPECT_RATE = 1  # a suspect's every question is reviewed until the evidence decides
GOLD_ERROR_F1 = 50.0


class Why:
    """Why a question was decided at its rate (stored with the question and the counter)."""

    FIXED = "fixed"  # the campaign's rate, not adaptive
    WARMUP = "warmup"  # the campaign's warm-up
    START = "start"  # too little evidence yet
    UNSURE = "unsure"  # the interval straddles the bar, observed share below it
    SUSPECT = "suspect"  # observed share above the bar, not proven
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


def adapted_rate(
    evidence: Evidence, *, base, floor, ceiling, bar, min_evidence: int = MIN_EVIDENCE
) -> RateDecision:
    """Return the rate for the annotator's next question, with why (module docstring)."""
    base, floor, ceiling, bar = (_percent(v) for v in (base, floor, ceiling, bar))
    items, errors = evidence.items, evidence.errors
    low, high = wilson(errors, items)
    if items < min_evidence:
        rate, why = base, Why.START
    elif high < bar:
        rate, why = floor, Why.GOOD
    elif low > bar:
        rate, why = ceiling, Why.ABOVE
    elif errors / items > bar:
        rate, why = _percent(SUSPECT_RATE), Why.SUSPECT
    else:
        rate, why = ceiling, Why.UNSURE
    return RateDecision(
        rate=max(rate, floor), why=why, items=items, errors=errors, low=low, high=high
    )
