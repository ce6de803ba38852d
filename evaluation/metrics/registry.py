"""Every normalization by its stable name, the names read from older rows, and each language's
mode (docs/metrics.md has the table and why).

The names are stored with every score (``normalization``, ``normalization_version``) and a
language registry points each language at one of them: they never change meaning. A mode whose
rules change gets a new version, never a reused one.
"""

from __future__ import annotations

from core import metric_modes
from core.languages import LANGUAGES
from evaluation.metrics.community import KORQUAD_CHARS, M2QA_TH, M2QA_ZH, MLQA
from evaluation.metrics.normalizations import CHARS, FQUAD_FR, SQUAD_EN, Normalization

NORMALIZATIONS: dict[str, Normalization] = {
    norm.name: norm
    for norm in (SQUAD_EN, FQUAD_FR, *MLQA.values(), KORQUAD_CHARS, M2QA_ZH, M2QA_TH, CHARS)
}
ALIASES = metric_modes.ALIASES  # "word" → "chars": names stored before issue 27

# Each language's mode, the one its entry in the registry of languages names (core.languages,
# docs/metrics.md): English SQuAD's own script (mlqa-en is there by name for MLQA's figures),
# French FQuAD's, es de vi ar hi zh MLQA's, Korean KorQuAD's characters, Thai and the others
# chars (m2qa-th, Thai words, by name: an optional package, and no official figures to meet).
LANGUAGE_NORMALIZATIONS: dict[str, Normalization] = {
    code: NORMALIZATIONS[entry.metric] for code, entry in LANGUAGES.items()
}
DEFAULT_NORMALIZATION = NORMALIZATIONS[metric_modes.DEFAULT_MODE]


def language_normalization(language: str | None) -> Normalization:
    """Return the normalization of a language code, the mode its registry entry names: a
    regional code counts as its language (fr-ca is French, zh-hans Chinese), a language the
    registry lacks gets ``chars``."""
    return NORMALIZATIONS[metric_modes.language_mode(language)]


def normalization(name: str) -> Normalization:
    """Return the normalization called name (an old name of ALIASES too), or raise ValueError
    listing the known ones."""
    try:
        return NORMALIZATIONS[ALIASES.get(name, name)]
    except KeyError:
        known = ", ".join(sorted(NORMALIZATIONS))
        raise ValueError(f"unknown normalization {name!r}; known: {known}") from None


def canonical_name(name: str) -> str:
    """Return the name a stored name has now ("word" → "chars"); others unchanged."""
    return ALIASES.get(name, name)
