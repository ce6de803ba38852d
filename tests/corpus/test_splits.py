"""Sampling a wave of articles and splitting the corpus by article (corpus/splits.py)."""

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from corpus.splits import (
    DEFAULT_RATIOS,
    SPLITS,
    SamplingError,
    assign_splits,
    sample_titles,
    target_counts,
)

TITLES = [f"t{i}" for i in range(10)]


def counts(*assignments):
    """Count articles per split over several {title: split} maps, zeros included."""
    total = Counter({split: 0 for split in SPLITS})
    for assignment in assignments:
        total.update(assignment.values())
    return dict(total)


def corpus(train=0, dev=0, test=0, prefix="e"):
    """Build an existing corpus {title: split} with these many articles per split."""
    splits = ["train"] * train + ["dev"] * dev + ["test"] * test
    return {f"{prefix}{i}": split for i, split in enumerate(splits)}


# sample_titles


def test_sample_titles_draws_the_same_titles_in_the_same_order():
    assert sample_titles(TITLES, n=4, seed=7) == ["t5", "t2", "t6", "t9"]
    assert sample_titles(TITLES, n=4, seed=7) == ["t5", "t2", "t6", "t9"]


def test_sample_titles_ignores_candidate_order_and_duplicates():
    shuffled = list(reversed(TITLES)) + TITLES[:3]
    assert sample_titles(shuffled, n=4, seed=7) == ["t5", "t2", "t6", "t9"]


def test_sample_titles_draws_only_titles_not_yet_in_the_corpus():
    first = sample_titles(TITLES, n=4, seed=7)
    second = sample_titles(TITLES, n=6, seed=8, exclude=first)
    assert set(first).isdisjoint(second)
    assert set(first) | set(second) == set(TITLES)


def test_sample_titles_of_zero_is_empty():
    assert sample_titles(TITLES, n=0, seed=7) == []
    assert sample_titles([], n=0, seed=7) == []


def test_sample_titles_refuses_a_negative_size():
    with pytest.raises(SamplingError, match="^sample -1 is negative; ask for 0 articles or more$"):
        sample_titles(TITLES, n=-1, seed=7)


def test_sample_titles_refuses_more_than_what_is_left():
    candidates = [f"c{i}" for i in range(160)]
    with pytest.raises(SamplingError) as error:
        sample_titles(candidates, n=200, seed=7, exclude=candidates[:10])
    assert str(error.value) == "sample 200 is larger than the 150 articles it can be drawn from"
    assert isinstance(error.value, ValueError)


def test_sample_titles_can_take_everything_left():
    assert sorted(sample_titles(TITLES, n=10, seed=7)) == sorted(TITLES)


def test_sample_titles_leaves_the_global_random_generator_alone():
    random.seed(1)
    state = random.getstate()
    sample_titles(TITLES, n=4, seed=7)
    assert random.getstate() == state


# target_counts


def test_target_counts_for_fquad_v1_1():
    # 326 articles at 83/9/8 %: quotas 270.58/29.34/26.08, the one article left goes to train.
    # FQuAD's own 271/30/25 is not an exact 83/9/8 share; 83/9/8 is its rounded percentages.
    assert target_counts(326, DEFAULT_RATIOS) == {"train": 271, "dev": 29, "test": 26}


def test_target_counts_for_fquad_v1_0():
    # Quotas 120.35/13.05/11.6: the one article left goes to test, the largest remainder.
    assert target_counts(145, DEFAULT_RATIOS) == {"train": 120, "dev": 13, "test": 12}


def test_target_counts_take_weights_that_do_not_sum_to_100():
    assert target_counts(10, {"train": 2, "dev": 1, "test": 1}) == {"train": 5, "dev": 3, "test": 2}


def test_target_counts_break_ties_in_splits_order():
    equal = {"train": 1, "dev": 1, "test": 1}
    assert target_counts(1, equal) == {"train": 1, "dev": 0, "test": 0}
    assert target_counts(2, equal) == {"train": 1, "dev": 1, "test": 0}


def test_target_counts_of_nothing_is_zero_everywhere():
    assert target_counts(0, DEFAULT_RATIOS) == {"train": 0, "dev": 0, "test": 0}


def test_target_counts_give_nothing_to_a_zero_weight():
    assert target_counts(7, {"train": 1, "dev": 0, "test": 1}) == {"train": 4, "dev": 0, "test": 3}


def test_target_counts_refuse_a_negative_total():
    with pytest.raises(ValueError, match="^cannot split -1 articles; the total must be 0 or more$"):
        target_counts(-1, DEFAULT_RATIOS)


BAD_RATIOS = [
    (
        {"train": 8, "dev": 1},
        r"^ratios must give exactly train, dev, test; got \['dev', 'train'\]$",
    ),
    (
        {"train": 8, "dev": 1, "test": 1, "valid": 1},
        r"^ratios must give exactly train, dev, test; got \['dev', 'test', 'train', 'valid'\]$",
    ),
    ({"train": 8, "dev": -1, "test": 1}, "^the dev weight must be 0 or more, not -1$"),
    ({"train": 0, "dev": 0, "test": 0}, "^at least one split needs a weight above 0$"),
    ({"train": 8.3, "dev": 1, "test": 1}, "^the train weight must be a whole number, not 8.3$"),
    ({"train": 8, "dev": True, "test": 1}, "^the dev weight must be a whole number, not True$"),
]


@pytest.mark.parametrize(("ratios", "message"), BAD_RATIOS)
def test_target_counts_refuse_bad_ratios(ratios, message):
    with pytest.raises(ValueError, match=message):
        target_counts(10, ratios)


@pytest.mark.parametrize(("ratios", "message"), BAD_RATIOS)
def test_assign_splits_refuses_bad_ratios(ratios, message):
    with pytest.raises(ValueError, match=message):
        assign_splits(TITLES, existing={}, seed=1, ratios=ratios)


def test_default_targets_never_shrink_as_the_corpus_grows():
    # Largest remainder can take an article from a split when the total grows (the Alabama
    # paradox); at 83/9/8 it does not up to 5,000 articles, so waves land on target exactly.
    previous = target_counts(0, DEFAULT_RATIOS)
    for total in range(1, 5001):
        current = target_counts(total, DEFAULT_RATIOS)
        assert all(current[split] >= previous[split] for split in SPLITS), total
        previous = current


# assign_splits


def test_assign_splits_gives_the_same_splits_for_the_same_inputs():
    new = list("abcdefghij")
    expected = {
        "b": "train", "f": "train", "g": "train", "a": "train", "j": "train",
        "e": "train", "h": "train", "c": "train", "i": "dev", "d": "test",
    }  # fmt: skip
    assert assign_splits(new, existing={}, seed=3) == expected
    assert assign_splits(list(reversed(new)), existing={}, seed=3) == expected


def test_assign_splits_reproduces_fquad_waves():
    titles = [f"article {i}" for i in range(1769)]
    v1_0 = sample_titles(titles, n=145, seed=2020)
    first = assign_splits(v1_0, existing={}, seed=2020)
    v1_1 = sample_titles(titles, n=181, seed=2021, exclude=v1_0)
    second = assign_splits(v1_1, existing=first, seed=2021)

    assert counts(first) == {"train": 120, "dev": 13, "test": 12}
    assert counts(first, second) == target_counts(326, DEFAULT_RATIOS)
    assert counts(first, second) == {"train": 271, "dev": 29, "test": 26}
    assert set(second) == set(v1_1)


def test_assign_splits_keeps_a_hand_fixed_split_and_fills_the_others():
    # An admin moved one article to dev: dev is over its new target (3) by one, so the wave
    # gives dev nothing and shares the 10 new articles between train (short 9) and test (short 2).
    existing = corpus(train=16, dev=4)
    assert target_counts(30, DEFAULT_RATIOS) == {"train": 25, "dev": 3, "test": 2}

    new = assign_splits([f"n{i}" for i in range(10)], existing=existing, seed=1)

    assert counts(new) == {"train": 8, "dev": 0, "test": 2}
    assert counts(existing, new) == {"train": 24, "dev": 4, "test": 2}


def test_assign_splits_lands_off_target_only_by_the_alabama_paradox():
    # At 1/3/3, 3 articles are 1/1/1 but 4 are 0/2/2: train cannot give its article back.
    ratios = {"train": 1, "dev": 3, "test": 3}
    first = assign_splits(["a", "b", "c"], existing={}, seed=1, ratios=ratios)
    second = assign_splits(["d"], existing=first, seed=1, ratios=ratios)

    assert counts(first) == {"train": 1, "dev": 1, "test": 1}
    assert target_counts(4, ratios) == {"train": 0, "dev": 2, "test": 2}
    assert second == {"d": "dev"}  # dev and test lack one each: the tie goes to dev


def test_assign_splits_with_no_new_titles_is_empty():
    assert assign_splits([], existing=corpus(train=3), seed=1) == {}
    assert assign_splits([], existing={}, seed=1) == {}


def test_assign_splits_counts_a_repeated_new_title_once():
    assert assign_splits(["a", "a", "b"], existing={}, seed=1) == assign_splits(
        ["a", "b"], existing={}, seed=1
    )


def test_assign_splits_refuses_a_title_already_in_the_corpus():
    with pytest.raises(
        ValueError, match="^'e1' is already in the corpus \\(train\\); it never moves$"
    ):
        assign_splits(["new", "e1"], existing=corpus(train=3), seed=1)


def test_assign_splits_refuses_an_unknown_split():
    existing = {"a": "train", "b": "validation"}
    with pytest.raises(
        ValueError, match="^'b' is in split 'validation'; splits are train, dev, test$"
    ):
        assign_splits(["c"], existing=existing, seed=1)


# Properties

titles = st.lists(st.text(alphabet="abcdeé ", min_size=1, max_size=5), max_size=40)
ratio_maps = st.fixed_dictionaries({split: st.integers(0, 12) for split in SPLITS}).filter(
    lambda ratios: any(ratios.values())
)
split_counts = st.tuples(*(st.integers(0, 40) for _ in SPLITS))


@given(candidates=titles, exclude=titles, data=st.data(), seed=st.integers())
def test_sample_depends_on_the_set_of_candidates_only(candidates, exclude, data, seed):
    available = set(candidates) - set(exclude)
    n = data.draw(st.integers(0, len(available)))
    reordered = data.draw(st.permutations(candidates + candidates[:3]))

    sample = sample_titles(candidates, n=n, seed=seed, exclude=exclude)

    assert sample == sample_titles(reordered, n=n, seed=seed, exclude=reversed(exclude))
    assert len(sample) == len(set(sample)) == n
    assert set(sample) <= available


@given(counts_before=split_counts, new_size=st.integers(0, 60), ratios=ratio_maps, data=st.data())
def test_every_new_title_gets_one_split_whatever_the_order(counts_before, new_size, ratios, data):
    existing = corpus(*counts_before)
    new = [f"n{i}" for i in range(new_size)]
    seed = data.draw(st.integers())

    result = assign_splits(new, existing=existing, seed=seed, ratios=ratios)
    reordered = assign_splits(
        data.draw(st.permutations(new)),
        existing=dict(data.draw(st.permutations(list(existing.items())))),
        seed=seed,
        ratios=ratios,
    )

    assert list(reordered.items()) == list(result.items())
    assert set(result) == set(new)
    assert set(result).isdisjoint(existing)
    assert set(result.values()) <= set(SPLITS)


@given(counts_before=split_counts, new_size=st.integers(0, 60), ratios=ratio_maps)
def test_a_wave_never_pushes_a_split_away_from_its_target(counts_before, new_size, ratios):
    # Earlier articles may be anywhere (hand fixes): a wave only adds, so a split already past
    # its target keeps its count, and every other split grows without passing its target.
    existing = corpus(*counts_before)
    before = counts(existing)
    new = assign_splits(
        [f"n{i}" for i in range(new_size)], existing=existing, seed=0, ratios=ratios
    )
    after = counts(existing, new)
    target = target_counts(len(existing) + new_size, ratios)

    for split in SPLITS:
        assert before[split] <= after[split] <= max(before[split], target[split])
    # So the distance to the targets is the least any wave can reach without moving an article:
    # twice what the splits already past their targets hold too many.
    excess = sum(max(0, before[split] - target[split]) for split in SPLITS)
    assert sum(abs(after[split] - target[split]) for split in SPLITS) == 2 * excess
    if excess == 0:
        assert after == target


@given(
    first_size=st.integers(0, 80),
    second_size=st.integers(0, 80),
    ratios=ratio_maps,
    seeds=st.tuples(st.integers(), st.integers()),
)
def test_two_waves_land_on_target_up_to_the_alabama_paradox(first_size, second_size, ratios, seeds):
    pool = [f"p{i}" for i in range(200)]
    first_titles = sample_titles(pool, n=first_size, seed=seeds[0])
    first = assign_splits(first_titles, existing={}, seed=seeds[0], ratios=ratios)
    second_titles = sample_titles(pool, n=second_size, seed=seeds[1], exclude=first_titles)
    second = assign_splits(second_titles, existing=first, seed=seeds[1], ratios=ratios)
    total = first_size + second_size
    early, final = target_counts(first_size, ratios), target_counts(total, ratios)

    assert counts(first) == early
    assert set(second).isdisjoint(first)
    if all(early[split] <= final[split] for split in SPLITS):
        assert counts(first, second) == final
    # Otherwise a split holds at most one article above its target: a target is the floor or
    # the ceiling of its quota, and a quota only grows with the total.
    assert all(counts(first, second)[split] <= final[split] + 1 for split in SPLITS)


@given(first_size=st.integers(0, 400), second_size=st.integers(0, 400), seed=st.integers())
def test_two_waves_land_exactly_on_the_default_targets(first_size, second_size, seed):
    new_titles = [f"w{i}" for i in range(first_size, first_size + second_size)]
    first = assign_splits([f"w{i}" for i in range(first_size)], existing={}, seed=seed)
    second = assign_splits(new_titles, existing=first, seed=seed + 1)

    assert counts(first, second) == target_counts(first_size + second_size, DEFAULT_RATIOS)
