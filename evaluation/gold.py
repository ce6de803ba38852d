"""The scorer of answers to gold questions (annotation's `annotation.gold-scorer` point)."""

from __future__ import annotations

from collections.abc import Sequence

from annotation.gold_scoring import GoldScorer
from evaluation.metrics import language_normalization
from evaluation.metrics.squad import best_over, exact_match, f1


def gold_score(language: str, prediction: str, truths: Sequence[str]) -> tuple[float, float]:
    """EM and F1 (%) of the prediction, the best over the truths, with the language's
    normalization (the release language's metric); an empty prediction ("no answer") scores 0."""
    if not truths or not prediction:
        return 0.0, 0.0
    norm = language_normalization(language)
    return (
        100.0 * best_over(exact_match, prediction, truths, norm),
        100.0 * best_over(f1, prediction, truths, norm),
    )


def gold_scorer() -> GoldScorer:
    return GoldScorer(score=gold_score)
