"""The entries of the language registry: one `Language` per language, nothing else.

Adding a language is adding one entry to the module of its script family
(`core.languages.scripts`) and to `ENTRIES` here (and, where its pieces need one, an optional
install: a spaCy pipeline, a word tokenizer); docs/languages.md shows how and keeps the table
of what each language has.
"""

from __future__ import annotations

from core.languages.scripts import XQUAD_ENGLISH_MEDIAN
from core.languages.scripts.cyrillic_greek_arabic import ARABIC, GREEK, RUSSIAN
from core.languages.scripts.indic_thai_cjk import CHINESE, HINDI, KOREAN, THAI
from core.languages.scripts.latin import (
    ENGLISH,
    FRENCH,
    GERMAN,
    ITALIAN,
    ROMANIAN,
    SPANISH,
    TURKISH,
    VIETNAMESE,
)

__all__ = ["ENTRIES", "XQUAD_ENGLISH_MEDIAN"]

ENTRIES = (
    FRENCH,
    ENGLISH,
    GERMAN,
    SPANISH,
    ITALIAN,
    ROMANIAN,
    TURKISH,
    VIETNAMESE,
    RUSSIAN,
    GREEK,
    ARABIC,
    HINDI,
    THAI,
    CHINESE,
    KOREAN,
)
