"""What a normalization is, and the modes of its own making: SQuAD's English, FQuAD's French,
and ``chars`` (each CJK, kana, Hangul or Thai character a token, once called ``word``).

The modes that reproduce another community's official script (MLQA, KorQuAD, M2QA) are in
`evaluation.metrics.community`; the names, aliases and each language's mode in
`evaluation.metrics.registry`.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

HUMAN_ANSWERS = 3  # FQuAD's human performance needs exactly three answers per question


class Units(list):
    """What F1 counts in an answer (KorQuAD's characters, jieba's words), holding the words
    that exact match compares: two Units are equal when their words are, whatever the units.

    Only the modes whose F1 counts something other than their words build them; for the others
    an answer's tokens are a plain list, so the common path pays nothing for this.
    """

    __slots__ = ("words",)

    def __init__(self, units: Sequence[str], words: list[str]):
        super().__init__(units)
        self.words = words

    def __eq__(self, other) -> bool:
        if isinstance(other, Units):
            return self.words == other.words
        return NotImplemented

    def __ne__(self, other) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]  # a list: mutable, never a key


@dataclass(frozen=True)
class Normalization:
    """A named, versioned way to normalize answers and cut them into tokens.

    clean turns raw text into lower-case text without punctuation or articles; segment cuts
    that into the words exact match compares; units, when set, turns the words into what F1
    counts instead (characters, a word tokenizer's words). requires names the optional package
    the mode needs ("" for none): see `evaluation.metrics.community.require`. Two
    normalizations are equal when their name and version are.
    """

    name: str
    version: str
    clean: Callable[[str], str] = field(repr=False, compare=False)
    segment: Callable[[str], list[str]] = field(default=str.split, repr=False, compare=False)
    units: Callable[[list[str]], Sequence[str]] | None = field(
        default=None, repr=False, compare=False
    )
    requires: str = field(default="", compare=False)
    check: Callable[[], None] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        # a mode whose F1 counts units gets its own tokens; the others keep the plain method
        # below, as fast as before issue 27 (tokens is on the hot path of every score)
        if self.units is not None:
            object.__setattr__(self, "tokens", self._units_of)

    def normalize(self, text: str) -> str:
        """Return the text as exact match compares it: its words joined by single spaces."""
        return " ".join(self.words(text))

    def words(self, text: str) -> list[str]:
        """Return the words exact match compares, in order."""
        return self.segment(self.clean(text))

    def tokens(self, text: str) -> list[str]:
        """Return what F1 counts, in order: the words, or Units (equal when the words are;
        a mode with units has `_units_of` instead, set by ``__post_init__``)."""
        return self.segment(self.clean(text))

    def _units_of(self, text: str) -> Units:
        words = self.segment(self.clean(text))
        return Units(self.units(words), words)

    def require(self) -> None:
        """Raise MissingTokenizer when the package this mode needs is not installed as pinned."""
        if self.check is not None:
            self.check()


class MissingTokenizer(RuntimeError):
    """A mode needs a package that is missing or not the pinned version; the message names
    the mode, the package and how to install it. Never a silent fallback to another mode."""


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


# chars (the name "word" before issue 27; still read, see registry.ALIASES)

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
_CHAR_TOKEN = re.compile(rf"[{_SCRIPT_CLASS}]|[^{_SCRIPT_CLASS}\s]+")


class _LazyDeletion(dict):
    """A str.translate table deleting the characters `deleted` accepts, filled as they are met.

    Building a full table up front would walk all 1.1 million code points (a fifth of a
    second) at import; this way each character is judged once, when first met.
    """

    def __init__(self, deleted: Callable[[str], bool]):
        super().__init__()
        self._deleted = deleted

    def __missing__(self, codepoint: int) -> int | None:
        kept = None if self._deleted(chr(codepoint)) else codepoint
        self[codepoint] = kept
        return kept


def is_unicode_punctuation(char: str) -> bool:
    """True for a character whose Unicode general category is P* (Pc, Pd, Ps, Pe, Pi, Pf, Po)."""
    return unicodedata.category(char).startswith("P")


UNICODE_PUNCTUATION = _LazyDeletion(is_unicode_punctuation)


def _clean_chars(text: str) -> str:
    """Lower-case and drop every Unicode punctuation character (category P*)."""
    return text.lower().translate(UNICODE_PUNCTUATION)


def _segment_chars(text: str) -> list[str]:
    """Cut into single characters of the CHARACTER_SCRIPTS and space-separated runs of others."""
    return _CHAR_TOKEN.findall(text)


SQUAD_EN = Normalization("squad-en", "1", clean=_clean_squad_en)
FQUAD_FR = Normalization("fquad-fr", "1", clean=_clean_fquad_fr)
CHARS = Normalization("chars", "1", clean=_clean_chars, segment=_segment_chars)
WORD = CHARS  # the mode's name before issue 27, kept for imports; its stored name is read too
