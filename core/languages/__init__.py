"""The registry of languages: what the platform knows about each language, in one room.

Every caller that needs to know something about a language asks here: scraping (the wiki,
its quality categories), segmentation (end-matter titles, the paragraph length rule),
annotation (question marks, reading direction, question-word rules, guidelines), evaluation
(the metric's normalization, the answer-type pipeline), exports (the MRQA tokenizer, the
datasheet). An entry is data (`core.languages.entry`); the entries are in
`core.languages.scripts`, a module per script family, listed in order by
`core.languages.catalogue`. Pure: no framework import.

    from core.languages import language, languages, find

    thai = language("th")            # raises UnknownLanguage for a code not in the registry
    thai.answer_types                # None: "answer types: not available for Thai"
    thai.missing                     # ("question_types", "answer_types", "guidelines")
    language("fr-CA").code           # "fr": a regional code looks up its base language
"""

from __future__ import annotations

import re

from core.languages.catalogue import ENTRIES
from core.languages.entry import (
    DIRECTIONS,
    FRENCH_MIN_CHARS,
    PIECES,
    UI_LANGUAGES,
    WORD_SPLITS,
    Language,
    ParagraphRule,
    Pipeline,
    Splitting,
    Wiki,
)

CODE_RE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
LANGUAGES: dict[str, Language] = {entry.code: entry for entry in ENTRIES}


class UnknownLanguage(ValueError):
    """A language code the registry has no entry for (or that is no language code)."""

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(
            f"no language {code!r} in the registry (known: {', '.join(LANGUAGES)}); "
            "add an entry to core/languages/catalogue.py (docs/languages.md)"
        )


def base_code(code: str) -> str:
    """Return the base language of a code: "fr-CA" -> "fr", " EN " -> "en"."""
    return (code or "").strip().lower().split("-")[0]


def find(code: str | None) -> Language | None:
    """Return the entry of `code` (a regional code finds its base), None when there is none."""
    return LANGUAGES.get(base_code(code or ""))


def language(code: str | None) -> Language:
    """Return the entry of `code`, or raise UnknownLanguage naming the known codes."""
    entry = find(code)
    if entry is None:
        raise UnknownLanguage(code or "")
    return entry


def languages() -> tuple[Language, ...]:
    """Every entry, in the registry's order (French first)."""
    return ENTRIES


def codes() -> tuple[str, ...]:
    """Every language code of the registry, in its order."""
    return tuple(LANGUAGES)


def is_known(code: str | None) -> bool:
    """Whether `code` (or its base language) has an entry."""
    return find(code) is not None


def wiki_api_url(code: str) -> str:
    """The API address of a language's Wikipedia: its entry's wiki, else (a code the registry
    lacks, or a regional one such as "zh-yue", a wiki of its own) <code>.wikipedia.org."""
    code = (code or "").strip().lower()
    entry = LANGUAGES.get(code)
    return entry.wiki.api_url if entry is not None else f"https://{code}.wikipedia.org/w/api.php"


__all__ = [
    "CODE_RE",
    "DIRECTIONS",
    "FRENCH_MIN_CHARS",
    "LANGUAGES",
    "PIECES",
    "UI_LANGUAGES",
    "WORD_SPLITS",
    "Language",
    "ParagraphRule",
    "Pipeline",
    "Splitting",
    "UnknownLanguage",
    "Wiki",
    "base_code",
    "codes",
    "find",
    "is_known",
    "language",
    "languages",
    "wiki_api_url",
]
