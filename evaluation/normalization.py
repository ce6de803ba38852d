"""The answer normalization a language's scores use: the metric mode its entry in the
registry of languages names (core.languages, `Language.metric`), looked up among the modes of
evaluation.metrics by that name.

Every score of the platform (the model in the loop, baselines, cross-evaluation, the
leaderboard, human performance) asks here. A language the registry lacks (a training file
with no language) is scored with `word`, the mode for text in any script.
"""

from __future__ import annotations

from core.languages import find
from evaluation.metrics import NORMALIZATIONS, WORD, Normalization


def normalization_for(language: str | None) -> Normalization:
    """Return the normalization of language `language` ("fr", "zh", "fr-ca"...)."""
    entry = find(language)
    if entry is None:
        return WORD
    try:
        return NORMALIZATIONS[entry.metric]
    except KeyError:
        raise LookupError(
            f"the registry names metric mode {entry.metric!r} for {entry.name()}, "
            f"which evaluation.metrics lacks (it has: {', '.join(NORMALIZATIONS)})"
        ) from None
