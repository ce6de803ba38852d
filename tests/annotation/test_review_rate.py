"""The adaptive review rate's rule (annotation.review_rate, pure): Wilson bounds, the floor,
the ceiling, and a handful of items moving nothing."""

from decimal import Decimal

import pytest

from annotation.review_rate import Evidence, Why, adapted_rate, wilson

SETTINGS = {"base": "0.25", "floor": "0.05", "ceiling": "0.40", "bar": "0.15"}


def test_wilson_interval_matches_the_formula_at_known_points():
    # 0 errors in 10 at z = 1.645: (0, z²/(n + z²)) = (0, 2.706/12.706).
    low, high = wilson(0, 10)
    assert low == 0.0
    assert high == pytest.approx(0.212971, abs=1e-6)
    low, high = wilson(3, 10)
    assert (round(low, 4), round(high, 4)) == (0.1269, 0.5583)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="between 0 and items"):
        wilson(4, 3)


def test_a_handful_of_items_moves_nothing_even_all_wrong():
    for errors in range(10):
        decision = adapted_rate(Evidence(reviewed=9, review_errors=errors), **SETTINGS)
        assert (decision.rate, decision.why) == (Decimal("0.25"), Why.START)


def test_reliably_good_falls_to_the_floor():
    # 0 errors in 14: Wilson high = 2.706 / 16.706 = 0.162 > 0.15: not yet.
    assert adapted_rate(Evidence(reviewed=14), **SETTINGS).why == Why.UNSURE
    # 0 errors in 16: high = 2.706 / 18.706 = 0.1447 < 0.15: the floor.
    decision = adapted_rate(Evidence(reviewed=10, gold=6), **SETTINGS)
    assert (decision.rate, decision.why, decision.items) == (Decimal("0.05"), Why.GOOD, 16)
    # 1 error in 30 (3.3 %): high = 0.1364: the floor too.
    decision = adapted_rate(Evidence(reviewed=25, review_errors=1, gold=5), **SETTINGS)
    assert (decision.rate, decision.why, round(decision.high, 4)) == (
        Decimal("0.05"),
        Why.GOOD,
        0.1364,
    )


def test_errors_above_the_bar_raise_the_rate_and_flag_when_proven():
    # 2 errors in 10 (20 %): above the 15 % bar, not proven (low = 0.0686): suspect.
    decision = adapted_rate(
        Evidence(reviewed=8, review_errors=1, gold=2, gold_errors=1), **SETTINGS
    )
    assert (decision.rate, decision.why, decision.flagged) == (Decimal("0.40"), Why.SUSPECT, False)
    # 6 errors in 15 (40 %): low = 0.2232 > 0.15: flagged.
    decision = adapted_rate(Evidence(reviewed=15, review_errors=6), **SETTINGS)
    assert (decision.rate, decision.why, decision.flagged) == (Decimal("0.40"), Why.ABOVE, True)
    assert round(decision.low, 4) == 0.2232
    # 2 errors in 20 (10 %): below the bar, not proven: the campaign's rate.
    decision = adapted_rate(Evidence(reviewed=20, review_errors=2), **SETTINGS)
    assert (decision.rate, decision.why) == (Decimal("0.25"), Why.UNSURE)


def test_the_rate_never_goes_below_the_floor():
    decision = adapted_rate(Evidence(), base="0.02", floor="0.05", ceiling="0.40", bar="0.15")
    assert decision.rate == Decimal("0.05")
