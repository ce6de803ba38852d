"""Score predictions of a release split, overall and broken down by question and answer type."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping

from evaluation.metrics import Normalization, score


def score_by(
    gold: Mapping[str, list[str]],
    predictions: Mapping[str, str],
    norm: Normalization,
    category: Mapping[str, str],
    scorer: Callable[..., dict] = score,
) -> dict[str, dict]:
    """Return the scores per category (question type, answer type…) of each question id;
    `scorer(gold, predictions, norm)` scores one category (SQuAD v1.1's `score` by default)."""
    groups: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for question_id, answers in gold.items():
        groups[category.get(question_id, "other")][question_id] = answers
    return {
        name: scorer(subset, predictions, norm) | {"share": 100.0 * len(subset) / len(gold)}
        for name, subset in sorted(groups.items())
    }
