"""The extension point through which evaluation scores answers to gold questions (issue 28).

Annotation may not import evaluation (docs/architecture.md, floors): the gold service asks
this point for the scorer, and evaluation registers one in its `AppConfig.ready` that scores
with the language's normalization (`evaluation.metrics.normalizations.language_normalization`)
and SQuAD v1.1's EM and F1, the maximum over the agreed answers. Without evaluation installed
the service falls back to `plain_score` (exact text, stripped and lowercased).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

POINT = "annotation.gold-scorer"


@dataclass(frozen=True)
class GoldScorer:
    # (language, prediction, truths) -> (exact, f1), both in % (0 to 100)
    score: Callable[[str, str, Sequence[str]], tuple[float, float]]


def plain_score(language: str, prediction: str, truths: Sequence[str]) -> tuple[float, float]:
    """Exact text (stripped, lowercased) against any truth: 100 or 0 for both figures."""
    hit = any(prediction.strip().lower() == truth.strip().lower() for truth in truths)
    return (100.0, 100.0) if hit else (0.0, 0.0)
