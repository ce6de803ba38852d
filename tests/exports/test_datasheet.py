"""The datasheet's answer-length figures, counted as a tally in the export's one pass, read as
`statistics` gives them for the whole list (the datasheet's text must not change)."""

import statistics
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from exports.datasheet.figures import length_figures


@given(st.lists(st.integers(min_value=0, max_value=400), min_size=1, max_size=300))
def test_length_figures_read_as_statistics_gives_them(words):
    expected = [
        len(words),
        f"{statistics.mean(words):.2f}",
        statistics.median(words),
        max(words),
    ]

    figures = length_figures(Counter(words))

    assert [str(cell) for cell in figures] == [str(cell) for cell in expected]


def test_length_figures_of_an_even_and_an_odd_count():
    assert length_figures(Counter([3, 3, 3, 3, 4, 5])) == [6, "3.50", 3.0, 5]
    assert length_figures(Counter([2, 1, 2])) == [3, "1.67", 2, 2]
