"""Audit sampling: a steady rate per annotator at every prefix, random but reproducible picks."""

import math
from collections import Counter, defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotation.sampling import (
    allowed_band,
    as_fraction,
    pick_chance,
    sample_running,
    sample_sequence,
    should_sample,
    should_sample_running,
)

QUARTER = Fraction(1, 4)


def assert_band_at_every_prefix(decisions, rate):
    """Assert floor(p·n) <= sampled(n) <= ceil(p·n) after each of the decisions."""
    sampled = 0
    for n, picked in enumerate(decisions, start=1):
        sampled += picked
        assert math.floor(rate * n) <= sampled <= math.ceil(rate * n), (n, sampled)


def position_chances(rate, count):
    """Return, exactly, the probability that each of the first `count` questions is sampled."""
    counter_odds = {0: Fraction(1)}
    chances = []
    for seen in range(count):
        following = defaultdict(Fraction)
        picked = Fraction(0)
        for sampled, odds in counter_odds.items():
            chance = pick_chance(seen=seen, sampled=sampled, rate=rate)
            picked += odds * chance
            following[sampled + 1] += odds * chance
            following[sampled] += odds * (1 - chance)
        counter_odds = {sampled: odds for sampled, odds in following.items() if odds}
        chances.append(picked)
    return chances


@pytest.mark.parametrize("key", ["user:1", "user:2", "user:42", "user:1000"])
def test_quarter_rate_samples_two_of_eight_within_the_band_at_every_prefix(key):
    decisions = sample_sequence(8, rate=0.25, key=key, seed=7)

    assert sum(decisions) == 2
    assert sum(decisions[:4]) == 1
    assert_band_at_every_prefix(decisions, QUARTER)


def test_zero_rate_samples_nothing():
    assert sample_sequence(50, rate=0, key="user:1", seed=1) == [False] * 50


def test_full_rate_samples_everything():
    assert sample_sequence(50, rate=1.0, key="user:1", seed=1) == [True] * 50


def test_third_rate_samples_one_question_in_each_block_of_three():
    decisions = sample_sequence(30, rate=Fraction(1, 3), key="user:5", seed=3)

    assert [sum(decisions[i : i + 3]) for i in range(0, 30, 3)] == [1] * 10
    assert_band_at_every_prefix(decisions, Fraction(1, 3))


def test_float_decimal_and_fraction_rates_give_the_same_picks():
    as_float = sample_sequence(200, rate=0.25, key="user:9", seed=11)

    assert sample_sequence(200, rate=QUARTER, key="user:9", seed=11) == as_float
    assert sample_sequence(200, rate=Decimal("0.25"), key="user:9", seed=11) == as_float
    assert sample_sequence(90, rate=1 / 3, key="user:9", seed=11) == sample_sequence(
        90, rate=Fraction(1, 3), key="user:9", seed=11
    )


def test_rates_become_exact_fractions():
    assert as_fraction(0.25) == QUARTER
    assert as_fraction(1 / 3) == Fraction(1, 3)
    assert as_fraction(0.1) == Fraction(1, 10)
    assert as_fraction(Decimal("0.333")) == Fraction(333, 1000)
    assert as_fraction(1) == 1
    assert allowed_band(count=10, rate=0.25) == (2, 3)
    assert allowed_band(count=8, rate=0.25) == (2, 2)


def test_same_inputs_give_the_same_picks():
    first = sample_sequence(400, rate=0.25, key="user:3", seed=2024)

    assert sample_sequence(400, rate=0.25, key="user:3", seed=2024) == first
    again = {should_sample(seen=0, sampled=0, rate=0.25, key="user:3", seed=2024) for _ in "abc"}
    assert again == {first[0]}


def test_different_keys_give_different_picks():
    one = sample_sequence(400, rate=0.25, key="user:1", seed=5)
    other = sample_sequence(400, rate=0.25, key="user:2", seed=5)

    assert sum(one) == sum(other) == 100
    assert one != other


def test_different_seeds_give_different_picks():
    one = sample_sequence(400, rate=0.25, key="user:1", seed=5)
    other = sample_sequence(400, rate=0.25, key="user:1", seed=6)

    assert sum(one) == sum(other) == 100
    assert one != other


def test_every_position_modulo_four_is_picked_over_many_keys():
    places = Counter()
    for i in range(200):
        decisions = sample_sequence(8, rate=0.25, key=f"user:{i}", seed=1)
        places.update(n % 4 for n, picked in enumerate(decisions) if picked)

    assert sum(places.values()) == 400
    assert sorted(places) == [0, 1, 2, 3]
    assert all(60 <= count <= 140 for count in places.values()), places


def test_pick_chance_is_forced_at_the_edges_of_the_band_and_exact_between():
    assert pick_chance(seen=0, sampled=0, rate=QUARTER) == QUARTER
    assert pick_chance(seen=1, sampled=0, rate=QUARTER) == Fraction(1, 3)
    assert pick_chance(seen=2, sampled=0, rate=QUARTER) == Fraction(1, 2)
    assert pick_chance(seen=3, sampled=0, rate=QUARTER) == 1
    assert pick_chance(seen=1, sampled=1, rate=QUARTER) == 0
    # 2/5 after 2 questions is 0.8: one ahead, the counter may rise with (0.8 + 0.4 − 1) / 0.8.
    assert pick_chance(seen=2, sampled=1, rate=Fraction(2, 5)) == QUARTER


@given(rate=st.fractions(min_value=0, max_value=1, max_denominator=20))
def test_every_position_is_sampled_with_probability_exactly_the_rate(rate):
    assert position_chances(rate, 45) == [rate] * 45


def test_warm_up_reviews_the_first_ten_then_a_quarter():
    decisions = sample_sequence(50, rate=0.25, key="user:8", seed=4, warmup=10, warmup_rate=1)

    assert decisions[:10] == [True] * 10
    assert sum(decisions[10:]) == 10
    assert_band_at_every_prefix(decisions[10:], QUARTER)


def test_warm_up_at_a_partial_rate_is_replayed_from_the_key_and_seed():
    settings = {"rate": 0.25, "key": "user:8", "seed": 4, "warmup": 5, "warmup_rate": 0.5}
    decisions = sample_sequence(45, **settings)
    in_warm_up = sum(decisions[:5])

    assert in_warm_up in (2, 3)
    assert_band_at_every_prefix(decisions[:5], Fraction(1, 2))
    assert_band_at_every_prefix(decisions[5:], QUARTER)
    assert sum(decisions[5:]) == 10
    assert should_sample(seen=5, sampled=in_warm_up, **settings) == decisions[5]


def test_warm_up_rate_defaults_to_reviewing_everything():
    assert sample_sequence(4, rate=0, key="user:8", seed=4, warmup=3) == [True, True, True, False]


BAD_INPUTS = [
    ({"rate": -0.1}, r"rate must be between 0 and 1"),
    ({"rate": 1.5}, r"rate must be between 0 and 1"),
    ({"rate": Fraction(5, 4)}, r"rate must be between 0 and 1"),
    ({"rate": float("nan")}, r"rate must be a finite number"),
    ({"rate": Decimal("Infinity")}, r"rate must be a finite number"),
    ({"seen": -1}, r"seen must be >= 0, not -1"),
    ({"seen": 1.5}, r"seen must be a whole number"),
    ({"sampled": -1}, r"sampled must be >= 0, not -1"),
    ({"seen": 3, "sampled": 4}, r"sampled \(4\) cannot exceed seen \(3\)"),
    ({"seen": 8, "sampled": 0}, r"sampled=0 is outside the allowed band \[2, 2\] after 8 "),
    ({"seen": 4, "sampled": 2}, r"sampled=2 is outside the allowed band \[1, 1\] after 4 "),
    ({"warmup": -1}, r"warmup must be a whole number of questions >= 0"),
    ({"warmup": 2, "warmup_rate": 2}, r"warmup_rate must be between 0 and 1"),
    (
        {"seen": 12, "sampled": 3, "warmup": 10, "warmup_rate": 1},
        r"sampled=3 is outside the allowed band \[10, 11\] after 12 questions \(10 in the "
        r"10-question warm-up at rate 1, then rate 1/4\)",
    ),
    ({"key": ""}, r"key must be the annotator's non-empty stable id"),
    ({"seed": "7"}, r"seed must be a whole number"),
]


@pytest.mark.parametrize(("changes", "message"), BAD_INPUTS)
def test_bad_input_is_refused_with_a_clear_message(changes, message):
    arguments = {"seen": 0, "sampled": 0, "rate": 0.25, "key": "user:1", "seed": 1} | changes

    with pytest.raises(ValueError, match=message):
        should_sample(**arguments)


def test_a_rate_that_is_not_a_number_is_a_type_error():
    with pytest.raises(TypeError, match=r"rate must be a Fraction, Decimal, float or int"):
        should_sample(seen=0, sampled=0, rate="0.25", key="user:1", seed=1)


def test_a_negative_length_is_refused():
    with pytest.raises(ValueError, match=r"n must be a whole number >= 0, not -1"):
        sample_sequence(-1, rate=0.25, key="user:1", seed=1)


@given(
    rate=st.fractions(min_value=0, max_value=1, max_denominator=20),
    keys=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=5, unique=True),
    seed=st.integers(min_value=-(2**63), max_value=2**63),
    turns=st.lists(st.integers(min_value=0, max_value=4), max_size=300),
)
def test_every_annotator_stays_in_the_band_whatever_the_interleaving(rate, keys, seed, turns):
    seen = dict.fromkeys(keys, 0)
    sampled = dict.fromkeys(keys, 0)
    for turn in turns:
        key = keys[turn % len(keys)]
        picked = should_sample(seen=seen[key], sampled=sampled[key], rate=rate, key=key, seed=seed)
        seen[key] += 1
        sampled[key] += picked
        for each in keys:
            assert math.floor(rate * seen[each]) <= sampled[each] <= math.ceil(rate * seen[each])
    for key in keys:
        alone = sample_sequence(seen[key], rate=rate, key=key, seed=seed)
        assert sum(alone) == sampled[key]


@given(
    rate=st.fractions(min_value=0, max_value=1, max_denominator=20),
    warmup=st.integers(min_value=0, max_value=12),
    warmup_rate=st.fractions(min_value=0, max_value=1, max_denominator=20),
    keys=st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=3, unique=True),
    seed=st.integers(),
    turns=st.lists(st.integers(min_value=0, max_value=2), max_size=150),
)
def test_after_the_warm_up_the_band_counts_from_the_next_question(
    rate, warmup, warmup_rate, keys, seed, turns
):
    settings = {"rate": rate, "seed": seed, "warmup": warmup, "warmup_rate": warmup_rate}
    decisions = {key: [] for key in keys}
    for turn in turns:
        key = keys[turn % len(keys)]
        made = decisions[key]
        made.append(should_sample(seen=len(made), sampled=sum(made), key=key, **settings))
    for made in decisions.values():
        assert_band_at_every_prefix(made[:warmup], warmup_rate)
        assert_band_at_every_prefix(made[warmup:], rate)


# The running target (issue 28): a rate that changes without restarting the counts.


def test_running_sampler_at_a_constant_rate_is_the_fixed_sampler():

    for rate in (Fraction(1, 4), Fraction(2, 5), Fraction(1, 3)):
        assert sample_running([rate] * 40, key="user:7", seed=11) == sample_sequence(
            40, rate=rate, key="user:7", seed=11
        )


def test_running_sampler_keeps_within_one_of_the_sum_of_rates_through_changes():

    rates = [Fraction(1, 4)] * 9 + [Fraction(1, 2)] * 7 + [Fraction(1, 20)] * 30 + [1] * 3
    for key in ("user:1", "user:2", "user:3", "user:4"):
        decisions = sample_running(rates, key=key, seed=5)
        expected = Fraction(0)
        for n, rate in enumerate(rates, start=1):
            expected += rate
            assert math.floor(expected) <= sum(decisions[:n]) <= math.ceil(expected)
        # 9/4 + 7/2 = 5.75 after 16; + 30/20 = 7.25 after 46; the last 3 are forced in.
        assert sum(decisions[:16]) in (5, 6)
        assert decisions[-3:] == [True, True, True]


def test_running_sampler_refuses_counters_outside_the_band():

    with pytest.raises(ValueError, match=r"outside the allowed band \[2, 3\] of expected=2.5"):
        should_sample_running(
            seen=10, sampled=4, expected=Decimal("2.5"), rate=Fraction(1, 4), key="k", seed=1
        )
