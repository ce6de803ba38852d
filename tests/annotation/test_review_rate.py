"""The adaptive review rate's rule (annotation.review_rate, pure): Wilson bounds, the floor,
the ceiling, and a handful of items moving nothing."""

import math
from decimal import Decimal

import pytest

from annotation.review_rate import Evidence, Why, Z, adapted_rate, wilson

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
    for errors in range(10):
        decision = adapted_rate(Evidence(reviewed=9, review_errors=errors), **SETTINGS)
        assert (decision.rate, decision.why) == (Decimal("0.25"), Why.START)


def test_reliably_good_falls_to_the_floor():
    # 0 errors in 10 (reviews and gold together): high 14.1 % < 15 %: the floor.
    decision = adapted_rate(Evidence(reviewed=6, gold=4), **SETTINGS)
    assert (decision.rate, decision.why, decision.items) == (Decimal("0.05"), Why.GOOD, 10)
    # 1 error in 20: high 15.3 %: not yet, reviewed at the ceiling until the evidence decides.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=1), **SETTINGS)
    assert (decision.rate, decision.why, round(decision.high, 4)) == (
        Decimal("0.40"),
        Why.UNSURE,
        0.1532,
    )
    # 1 error in 25 (4 %): high 12.5 %: the floor.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=1, gold=5), **SETTINGS)
    assert (decision.rate, decision.why, round(decision.high, 4)) == (
        Decimal("0.05"),
        Why.GOOD,
        0.1247,
    )


def test_errors_above_the_bar_raise_the_rate_and_flag_when_proven():
    # 2 errors in 10 (20 %): above the 15 % bar, not proven (low 8.6 %): suspect.
    decision = adapted_rate(
        Evidence(reviewed=8, review_errors=1, gold=2, gold_errors=1), **SETTINGS
    )
    assert (decision.rate, decision.why, decision.flagged) == (Decimal("1.00"), Why.SUSPECT, False)
    assert round(decision.low, 4) == 0.0862
    # 3 errors in 10 (30 %): low 15.4 % > 15 %: flagged.
    decision = adapted_rate(Evidence(reviewed=10, review_errors=3), **SETTINGS)
    assert (decision.rate, decision.why, decision.flagged) == (Decimal("0.40"), Why.ABOVE, True)
    assert round(decision.low, 4) == 0.1538


def test_the_rate_never_goes_below_the_floor():
    decision = adapted_rate(Evidence(), base="0.02", floor="0.05", ceiling="0.40", bar="0.15")
    assert decision.rate == Decimal("0.05")
