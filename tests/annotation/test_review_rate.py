"""The adaptive review rate's rule (annotation.review_rate, pure): the likelihood ratio of
"bad" (twice the bar) to "good" (half of it), the floor, the flag, a handful of items moving
nothing, the Wilson interval shown beside them, and the per-question draw."""

import math
from decimal import Decimal

import pytest

from annotation.review_rate import (
    BAD_ODDS,
    GOOD_ODDS,
    MIN_EVIDENCE,
    UNDECIDED_RATE,
    Counts,
    Evidence,
    Why,
    Z,
    adapted_rate,
    decide_next,
    hypotheses,
    odds_bad,
    wilson,
)

SETTINGS = {"base": "0.25", "floor": "0.05", "ceiling": "0.40", "bar": "0.15"}


def wilson_by_the_other_formula(errors, items, z=Z):
    """Wilson's interval written as (2np + z² ± z·sqrt(z² + 4np(1 − p))) / (2(n + z²))."""
    p = errors / items
    root = z * math.sqrt(z * z + 4 * items * p * (1 - p))
    low = (2 * items * p + z * z - root) / (2 * (items + z * z))
    return max(0.0, low), (2 * items * p + z * z + root) / (2 * (items + z * z))


def test_wilson_interval_matches_the_formula_at_known_points():
    assert Z == 1.2816  # 80 % two-sided: each end a 90 % one-sided bound
    # 0 errors in 10: (0, z² / (n + z²)) = (0, 1.64250 / 11.64250).
    assert wilson(0, 10) == pytest.approx((0.0, 1.64249856 / 11.64249856), abs=1e-9)
    assert [round(x, 4) for x in wilson(3, 10)] == [0.1538, 0.5026]
    for errors, items in ((3, 10), (1, 25), (6, 15), (17, 40)):
        assert wilson(errors, items) == pytest.approx(wilson_by_the_other_formula(errors, items))
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="between 0 and items"):
        wilson(4, 3)


def test_a_handful_of_items_moves_nothing_even_all_wrong():
    assert MIN_EVIDENCE == 20
    for errors in range(20):
        decision = adapted_rate(Evidence(reviewed=19, review_errors=errors), **SETTINGS)
        assert (decision.rate, decision.why, decision.flagged) == (
            Decimal("0.25"),
            Why.START,
            False,
        )


def test_the_hypotheses_are_half_and_twice_the_bar_kept_within_0_and_1():
    assert hypotheses("0.15") == (0.075, 0.3)
    assert hypotheses("0.60") == (0.3, 0.8)
    assert hypotheses(0) == (0.005, 0.02)
    # One error weighs ln(0.30 / 0.075) = ln 4 towards "bad", a right item ln(0.70 / 0.925).
    assert odds_bad(1, 1, "0.15") == pytest.approx(4.0)
    assert odds_bad(0, 1, "0.15") == pytest.approx(0.70 / 0.925)
    assert odds_bad(0, 0, "0.15") == 1.0
    assert odds_bad(5, 20, "0.15") == pytest.approx(4**5 * (0.70 / 0.925) ** 15)


def test_reliably_good_falls_to_the_floor_and_a_short_streak_does_not():
    assert (GOOD_ODDS, BAD_ODDS, UNDECIDED_RATE) == (50, 9, 1)
    # 0 errors in 20 (reviews and gold together): 1 to 264 against "bad": the floor.
    decision = adapted_rate(Evidence(reviewed=16, gold=4), **SETTINGS)
    assert (decision.rate, decision.why, decision.items) == (Decimal("0.05"), Why.GOOD, 20)
    assert round(1 / decision.odds, 1) == 263.6
    # 1 error in 20: 1 to 49.9, not the 50 to 1 the floor needs: reviewed in full.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=1), **SETTINGS)
    assert (decision.rate, decision.why, round(1 / decision.odds, 1)) == (
        Decimal("1.00"),
        Why.UNSURE,
        49.9,
    )
    # 1 error in 21: 1 to 65.9: the floor.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=1, gold=1), **SETTINGS)
    assert (decision.rate, decision.why, round(1 / decision.odds, 1)) == (
        Decimal("0.05"),
        Why.GOOD,
        65.9,
    )


def test_errors_above_the_bar_raise_the_rate_and_flag_when_nine_times_likelier():
    # 4 errors in 20 (20 %): above the 15 % bar, 2.96 to 1: suspect, every question reviewed.
    decision = adapted_rate(
        Evidence(reviewed=18, review_errors=3, gold=2, gold_errors=1), **SETTINGS
    )
    assert (decision.rate, decision.why, decision.flagged) == (Decimal("1.00"), Why.SUSPECT, False)
    assert round(decision.odds, 2) == 2.96
    # 5 errors in 20 (25 %): 15.65 to 1: flagged, the ceiling.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=5), **SETTINGS)
    assert (decision.rate, decision.why, decision.flagged) == (Decimal("0.40"), Why.ABOVE, True)
    assert round(decision.odds, 2) == 15.65
    # After 60 items: 11 errors (18 %) 4.91 to 1, suspect; 12 (20 %) 25.98 to 1, flagged.
    decision = adapted_rate(Evidence(reviewed=60, review_errors=11), **SETTINGS)
    assert (decision.why, round(decision.odds, 2)) == (Why.SUSPECT, 4.91)
    decision = adapted_rate(Evidence(reviewed=60, review_errors=12), **SETTINGS)
    assert (decision.why, decision.flagged, round(decision.odds, 2)) == (Why.ABOVE, True, 25.98)
    # 3 errors in 20 (15 %, at the bar, not above it): unsure, reviewed in full.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=3), **SETTINGS)
    assert (decision.rate, decision.why) == (Decimal("1.00"), Why.UNSURE)
    # The Wilson interval is still given, for the quality table.
    assert (round(decision.low, 4), round(decision.high, 4)) == (0.0747, 0.2785)


def test_the_rate_never_goes_below_the_floor():
    decision = adapted_rate(Evidence(), base="0.02", floor="0.05", ceiling="0.40", bar="0.15")
    assert decision.rate == Decimal("0.05")


def test_decide_next_reviews_the_warm_up_in_full_then_draws_at_the_rate():
    counts = Counts(seen=0, sampled=0, expected=Decimal(0), warmup=3, warmup_rate=Decimal(1))
    drawn = decide_next(counts, count=7, rate=Decimal("0.25"), why=Why.GOOD, key="k", seed=1)
    assert [why for _picked, _rate, why in drawn] == [Why.WARMUP] * 3 + [Why.GOOD] * 4
    assert [picked for picked, _rate, _why in drawn[:3]] == [True, True, True]
    # Past the warm-up, the band counts from its end: exactly 1 of the next 4 at 1/4.
    assert sum(picked for picked, _rate, _why in drawn[3:]) == 1
    assert (counts.seen, counts.sampled, counts.expected) == (7, 4, Decimal("4.00"))
