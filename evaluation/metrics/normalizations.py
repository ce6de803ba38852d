"""The normalizations answers are compared under: SQuAD's English, FQuAD's French, and a
word-level one for any script; a language's normalization."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

HUMAN_ANSWERS = 3  # FQuAD's human performance needs exactly three answers per question


@dataclass(frozen=True)
class Normalization:
    """A named, versioned way to normalize answers and cut them into tokens.

    clean turns raw text into lower-case text without punctuation or articles; segment cuts
    that into tokens. Two normalizations are equal when their name and version are.
    """

    name: str
    version: str
    clean: Callable[[str], str] = field(repr=False, compare=False)
    segment: Callable[[str], list[str]] = field(default=str.split, repr=False, compare=False)

    def normalize(self, text: str) -> str:
        """Return the text as exact match compares it: its tokens joined by single spaces."""
        return " ".join(self.tokens(text))

    def tokens(self, text: str) -> list[str]:
        """Return the tokens F1 counts, in order."""
        return self.segment(self.clean(text))


# squad-en

_ASCII_PUNCTUATION = str.maketrans("", "", string.punctuation)
_EN_ARTICLES = re.compile(r"\b(?:a|an|the)\b")


def _clean_squad_en(text: str) -> str:
    """Lower-case, drop ASCII punctuation, then the English articles (the official order)."""
    return _EN_ARTICLES.sub(" ", text.lower().translate(_ASCII_PUNCTUATION))


# fquad-fr

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
_ELIDED_ARTICLE = re.compile(r"\bl'")
_FR_PUNCTUATION = str.maketrans("", "", string.punctuation + "«»‹›“”„…–—")
_FR_ARTICLES = re.compile(r"\b(?:le|la|les|du|des|au|aux|un|une)\b")


def _clean_fquad_fr(text: str) -> str:
    """Lower-case, fold apostrophes, drop "l'", punctuation, then the French articles."""
    text = _ELIDED_ARTICLE.sub(" ", text.lower().translate(_APOSTROPHES))
    return _FR_ARTICLES.sub(" ", text.translate(_FR_PUNCTUATION))


# word

CHARACTER_SCRIPTS = (
    ("Thai", "\u0e00", "\u0e7f"),
    ("Hangul Jamo", "\u1100", "\u11ff"),
    ("Hiragana", "\u3040", "\u309f"),
    ("Katakana", "\u30a0", "\u30ff"),
    ("Hangul Compatibility Jamo", "\u3130", "\u318f"),
    ("Katakana Phonetic Extensions", "\u31f0", "\u31ff"),
    ("CJK Unified Ideographs Extension A", "\u3400", "\u4dbf"),
    ("CJK Unified Ideographs", "\u4e00", "\u9fff"),
    ("Hangul Syllables", "\uac00", "\ud7af"),
    ("CJK Compatibility Ideographs", "\uf900", "\ufaff"),
    ("Halfwidth Katakana", "\uff66", "\uff9f"),
    ("CJK Unified Ideographs Extensions B to F and supplement", "\U00020000", "\U0002fa1f"),
)
_SCRIPT_CLASS = "".join(f"{start}-{end}" for _, start, end in CHARACTER_SCRIPTS)
_WORD_TOKEN = re.compile(rf"[{_SCRIPT_CLASS}]|[^{_SCRIPT_CLASS}\s]+")


class _UnicodePunctuation(dict):
    """A str.translate table deleting Unicode punctuation, filled as characters are seen.

    Building the full table up front would walk all 1.1 million code points (a fifth of a
    second) at import; this way each character's category is looked up once, when first met.
    """

    def __missing__(self, codepoint: int) -> int | None:
        kept = None if unicodedata.category(chr(codepoint)).startswith("P") else codepoint
        self[codepoint] = kept
        return kept


_UNICODE_PUNCTUATION = _UnicodePunctuation()


def _clean_word(text: str) -> str:
    """Lower-case and drop every Unicode punctuation character (category P*)."""
    return text.lower().translate(_UNICODE_PUNCTUATION)


def _segment_word(text: str) -> list[str]:
    """Cut into single characters of the CHARACTER_SCRIPTS and space-separated runs of others."""
    return _WORD_TOKEN.findall(text)


SQUAD_EN = Normalization("squad-en", "1", clean=_clean_squad_en)
FQUAD_FR = Normalization("fquad-fr", "1", clean=_clean_fquad_fr)
WORD = Normalization("word", "1", clean=_clean_word, segment=_segment_word)
NORMALIZATIONS = {norm.name: norm for norm in (SQUAD_EN, FQUAD_FR, WORD)}
# A language's normalization: French is FQuAD's, English the official SQuAD script's.
LANGUAGE_NORMALIZATIONS = {"fr": FQUAD_FR, "en": SQUAD_EN}


def language_normalization(language: str) -> Normalization:
    """Return the normalization of a language code: a regional code counts as its language
    (fr-ca is French), any other language gets `word`."""
    return LANGUAGE_NORMALIZATIONS.get((language or "").split("-")[0].lower(), WORD)


def normalization(name: str) -> Normalization:
    """Return the normalization called name, or raise ValueError listing the known ones."""
    try:
        return NORMALIZATIONS[name]
    except KeyError:
        known = ", ".join(sorted(NORMALIZATIONS))
        raise ValueError(f"unknown normalization {name!r}; known: {known}") from None
