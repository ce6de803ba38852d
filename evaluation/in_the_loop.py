"""Model in the loop (issue 15): a model answers each question while it is written.

A campaign names a model (`annotation.models.ModelKind`): the lexical baseline, a finished
baseline run's model, or a predict server. After "Add the question" the page asks it
(`attempt_make`): the answer, its EM and F1 against the annotator's span, and whether the
question fooled it (F1 under the campaign's threshold, Beat the AI's 40 % by default). Every
attempt is kept, in order; the question stored at submission takes its last one and keeps the
count. A model that is down or slow gives an attempt "unavailable", and the work goes on.
"""

from __future__ import annotations

from decimal import Decimal

from evaluation.metrics import FQUAD_FR, SQUAD_EN, WORD, Normalization, exact_match, f1

LANGUAGES = {"fr": FQUAD_FR, "en": SQUAD_EN}


def language_normalization(language: str) -> Normalization:
    """The answer normalization of a campaign's language (as the leaderboard's)."""
    return LANGUAGES.get((language or "").split("-")[0].lower(), WORD)


def answer_scores(model_answer: str, answer: str, language: str) -> tuple[float, float]:
    """Return (EM, F1) in percent of the model's answer against the annotator's."""
    norm = language_normalization(language)
    return (
        round(100 * exact_match(model_answer, answer, norm), 2),
        round(100 * f1(model_answer, answer, norm), 2),
    )


def is_fooled(f1_percent: float, threshold: Decimal | float) -> bool:
    """Whether a question fooled the model: its F1 is under the threshold (Beat the AI)."""
    return f1_percent < float(threshold)
