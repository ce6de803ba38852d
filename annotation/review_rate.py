"""Each annotator's review rate, from their measured error (issue 28). Pure: no Django.

The evidence is what reviewers and gold questions said about the annotator in a campaign:
their reviewed questions (an error: rejected or corrected) and their answers to gold
questions (an error: F1 below `GOLD_ERROR_F1`). From n items with e errors the error rate's
**Wilson score interval** at 90 % (z = 1.645, so each side is a 95 % one-sided bound) is
computed, and:

- fewer than `MIN_EVIDENCE` items: the campaign's rate ("start"): a handful moves nothing;
- the interval's low end above the campaign's bar: flagged, rate raised to the ceiling ("above");
- the observed share above the bar, not yet proven: rate raised to the ceiling to learn
  sooner ("suspect"); it is not a flag;
- the interval's high end below the bar: reliably good, the floor ("good");
- otherwise the campaign's rate ("unsure").

Why Wilson: the share of errors is a binomial proportion observed on few items, often 0 or 1
error; the normal ("Wald") interval collapses to a width of 0 there (0 errors in 5 items
would read as "certainly perfect"), while Wilson's stays honest at small n and near 0, keeps
within [0, 1], and needs no table or iteration (unlike Clopper–Pearson, which is also more
conservative than needed here). docs/quality-control.md has the figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

Z = 1.645
MIN_EVIDENCE = 10
GOLD_ERROR_F1 = 50.0


class Why:
    """Why a question was decided at its rate (stored with the question and the counter)."""

    FIXED = "fixed"  # the campaign's rate, not adaptive
    WARMUP = "warmup"  # the campaign's warm-up
    START = "start"  # too little evidence yet
    UNSURE = "unsure"  # the interval straddles the bar
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
    elif low > bar:
        rate, why = max(ceiling, floor), Why.ABOVE
    elif errors / items > bar:
        rate, why = max(ceiling, floor), Why.SUSPECT
    elif high < bar:
        rate, why = floor, Why.GOOD
    else:
        rate, why = base, Why.UNSURE
    return RateDecision(
        rate=max(rate, floor), why=why, items=items, errors=errors, low=low, high=high
    )
