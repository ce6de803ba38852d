"""Every normalization by its stable name, the names read from older rows, and each language's
mode (docs/metrics.md has the table and why).

The names are stored with every score (``normalization``, ``normalization_version``) and a
language registry points each language at one of them: they never change meaning. A mode whose
rules change gets a new version, never a reused one.
"""

from __future__ import annotations

from evaluation.metrics.community import KORQUAD_CHARS, M2QA_TH, M2QA_ZH, MLQA
from evaluation.metrics.normalizations import CHARS, FQUAD_FR, SQUAD_EN, Normalization

NORMALIZATIONS: dict[str, Normalization] = {
    norm.name: norm
    for norm in (
        SQUAD_EN,
        FQUAD_FR,
        *MLQA.values(),
        KORQUAD_CHARS,
        M2QA_ZH,
        M2QA_TH,
        CHARS,
    )
}
# Names stored before issue 27 → the mode they name now (same rules, same version).
ALIASES = {"word": "chars"}

# A language's mode, the way its community scores (docs/metrics.md, "Each language's mode").
LANGUAGE_NORMALIZATIONS: dict[str, Normalization] = {
    "en": SQUAD_EN,  # SQuAD's own script; mlqa-en is there by name for MLQA's figures
    "fr": FQUAD_FR,
    "es": MLQA["es"],
    "de": MLQA["de"],
    "vi": MLQA["vi"],
    "ar": MLQA["ar"],
    "hi": MLQA["hi"],
    "zh": MLQA["zh"],
    "th": CHARS,  # M2QA's Thai words (m2qa-th) by name: an optional package, no official figures
    "ko": KORQUAD_CHARS,
}
# Any other language (ro, tr, ru, el, ja…): Unicode punctuation out, no article list, each CJK,
# kana, Hangul or Thai character a token and other runs split on whitespace.
DEFAULT_NORMALIZATION = CHARS


def language_normalization(language: str) -> Normalization:
    """Return the normalization of a language code: a regional code counts as its language
    (fr-ca is French, zh-hans Chinese), a language not listed gets ``chars``."""
    return LANGUAGE_NORMALIZATIONS.get(
        (language or "").split("-")[0].lower(), DEFAULT_NORMALIZATION
    )


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
