"""Fixtures shared by the evaluation tests: the hand-scored questions of the human performance
tests (`test_human`), for the page tests that compare the stored figure with them."""

from tests.evaluation.test_human import answered, people, written  # noqa: F401
