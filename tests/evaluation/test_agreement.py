"""Cohen's κ between two labellings (evaluation/agreement.py), on tables small enough to count."""

import pytest

from evaluation.agreement import cohen_kappa


def test_kappa_of_the_textbook_two_by_two_table():
    # 50 items: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no. p_o = 0.7, p_e = 0.5·0.6 + 0.5·0.4
    first = ["yes"] * 25 + ["no"] * 25
    second = ["yes"] * 20 + ["no"] * 5 + ["yes"] * 10 + ["no"] * 15

    assert cohen_kappa(first, second) == 0.4


def test_kappa_of_three_categories():
    # agree on 7 of 10; each labelling counts x 4, y 3, z 3: κ = (70 − 34) / (100 − 34)
    first = ["x", "x", "x", "x", "y", "y", "y", "z", "z", "z"]
    second = ["x", "x", "x", "y", "y", "y", "z", "z", "z", "x"]

    assert cohen_kappa(first, second) == 6 / 11


def test_kappa_is_one_when_all_agree_zero_at_chance_and_negative_below():
    assert cohen_kappa(["a", "b", "c"], ["a", "b", "c"]) == 1.0
    assert cohen_kappa(["a", "a", "b", "b"], ["a", "b", "a", "b"]) == 0.0
    assert cohen_kappa(["a", "b"], ["b", "a"]) == -1.0


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        (["a", "b"], ["a"], "labellings of 2 and 1 items"),
        ([], [], "no items"),
        (["a", "a"], ["a", "a"], "κ is undefined"),
    ],
)
def test_kappa_refuses_what_it_cannot_compute(first, second, message):
    with pytest.raises(ValueError, match=message):
        cohen_kappa(first, second)
