"""The modes that score the way another community's official script does: MLQA's seven answer
languages, KorQuAD v1.0's character F1, M2QA's word-tokenized F1 (Chinese, Thai).

Written for this project from the public scripts' behaviour (read, not copied); each mode must
give the script's printed figures to every digit (tests/evaluation/test_official_scores.py).

``mlqa-{en,es,de,vi,ar,hi,zh}`` (version 1), MLQA's ``mlqa_evaluation_v1.py`` for that answer
language, in its order: lower-case; delete every character of Unicode category P* and of
``string.punctuation`` (so the ASCII symbols $ + < = > ^ ` | ~ go too); replace the language's
articles by a space (whole words: en a an the; es un una unos unas el la los las; de ein eine
einen einem eines einer der die das den dem des; vi của là cái chiếc những; ar: every "ال",
even inside a word, as the script's pattern does; hi and zh: none); then cut into tokens: on
whitespace, and in zh MLQA's mixed segmentation, each character of U+4E00–U+9FA5 a token and
the runs of other characters between them split on whitespace. Hindi is on whitespace, as the
script lists it.

``korquad-chars`` (version 1), KorQuAD v1.0's ``evaluate-v1.0.py``: replace ' " 《 》 < > 〈 〉
( ) ‘ ’ by a space, lower-case, delete ``string.punctuation``, collapse whitespace. Exact match
compares those words (so "서울 시" and "서울시" differ); F1 counts the characters of the words,
spaces left out.

``m2qa-zh`` (version 1), M2QA's adapted SQuAD v2.0 script with ``--use-word-tokenizer``:
SQuAD's normalization (``squad-en``'s, exact match on it), then F1 over the words jieba 0.42.1
cuts the normalized text into (``jieba.cut``, its defaults: precise mode with HMM). The spaces
jieba yields between words are tokens too, as in the script. Needs the pinned jieba.

``m2qa-th`` (version 1): the same for Thai with PyThaiNLP 5.4.0's ``newmm`` words, spaces
dropped (M2QA's script sends non-Chinese text to NLTK's tokenizer, which knows no Thai and
yields no space tokens; the seed note asks for a Thai word tokenizer). No official figures
exist for it. Needs the pinned pythainlp.
"""

from __future__ import annotations

import re
import string
from functools import cache, partial

from corpus.words import VERSIONS, jieba_cut, pinned_import
from evaluation.metrics.normalizations import (
    MissingTokenizer,
    Normalization,
    _clean_squad_en,
    _LazyDeletion,
    is_unicode_punctuation,
)

# MLQA

_ASCII = frozenset(string.punctuation)
MLQA_PUNCTUATION = _LazyDeletion(lambda char: char in _ASCII or is_unicode_punctuation(char))

MLQA_ARTICLES = {
    "en": ("a", "an", "the"),
    "es": ("un", "una", "unos", "unas", "el", "la", "los", "las"),
    "de": (
        *("ein", "eine", "einen", "einem", "eines", "einer"),
        *("der", "die", "das", "den", "dem", "des"),
    ),
    "vi": ("của", "là", "cái", "chiếc", "những"),
    "ar": (),  # "ال" is removed everywhere, not as a word: see _mlqa_clean
    "hi": (),
    "zh": (),
}
MLQA_LANGUAGES = tuple(MLQA_ARTICLES)
_AR_ARTICLE = "ال"
_MIXED_TOKEN = re.compile(r"[\u4e00-\u9fa5]|[^\u4e00-\u9fa5\s]+")


def _mlqa_clean(language: str):
    """Return the clean step of MLQA for a language: lower, punctuation, articles."""
    words = MLQA_ARTICLES[language]
    pattern = re.compile(r"\b(?:" + "|".join(words) + r")\b") if words else None

    def clean(text: str) -> str:
        text = text.lower().translate(MLQA_PUNCTUATION)
        if language == "ar":
            return text.replace(_AR_ARTICLE, " ")
        return pattern.sub(" ", text) if pattern else text

    return clean


def _mixed_segmentation(text: str) -> list[str]:
    """MLQA's zh tokens: each U+4E00–U+9FA5 character alone, other runs split on whitespace."""
    return _MIXED_TOKEN.findall(text)


def _mlqa(language: str) -> Normalization:
    segment = _mixed_segmentation if language == "zh" else str.split
    return Normalization(f"mlqa-{language}", "1", clean=_mlqa_clean(language), segment=segment)


MLQA = {language: _mlqa(language) for language in MLQA_LANGUAGES}

# KorQuAD v1.0

_ASCII_DELETED = str.maketrans("", "", string.punctuation)
_KORQUAD_SPACED = str.maketrans({char: " " for char in "'\"《》<>〈〉()‘’"})


def _clean_korquad(text: str) -> str:
    """KorQuAD's order: its symbols become spaces, then lower-case, then ASCII punctuation."""
    return text.translate(_KORQUAD_SPACED).lower().translate(_ASCII_DELETED)


def _characters(words: list[str]) -> str:
    """The characters of the words, spaces left out (a str: F1 iterates its characters)."""
    return "".join(words)


KORQUAD_CHARS = Normalization("korquad-chars", "1", clean=_clean_korquad, units=_characters)

# M2QA's word tokenizers (optional packages, pinned: another version cuts other words)

JIEBA = ("jieba", VERSIONS["jieba"])
PYTHAINLP = ("pythainlp", VERSIONS["pythainlp"])
INSTALL_HINT = "pip install '.[languages]'"


def _refusal(mode: str, package: tuple[str, str], found: str | None) -> MissingTokenizer:
    name, version = package
    state = "is not installed" if found is None else f"is version {found}"
    return MissingTokenizer(
        f"the normalization {mode!r} needs {name}=={version}, which {state} here "
        f"({INSTALL_HINT}); it does not fall back to another mode"
    )


@cache
def _jieba_cut():
    """Return jieba's precise-mode cut, once the pinned version is found (else refuse)."""
    return jieba_cut(partial(_refusal, "m2qa-zh", JIEBA))


@cache
def _thai_words():
    """Return PyThaiNLP's word_tokenize, once the pinned version is found (else refuse)."""
    tokenize = pinned_import("pythainlp.tokenize", partial(_refusal, "m2qa-th", PYTHAINLP))
    tokenize.word_tokenize("ไทย", engine="newmm")  # its dictionary now, not in the first score
    return tokenize.word_tokenize


def _jieba_units(words: list[str]) -> list[str]:
    """jieba's words of the normalized text, its space tokens included (as M2QA counts)."""
    return _jieba_cut()(" ".join(words)) if words else []


def _thai_units(words: list[str]) -> list[str]:
    """PyThaiNLP newmm's words of the normalized text, without spaces."""
    if not words:
        return []
    return _thai_words()(" ".join(words), engine="newmm", keep_whitespace=False)


def _m2qa(name: str, units, package: tuple[str, str], load) -> Normalization:
    """An M2QA mode: SQuAD's normalization, then the words of a pinned tokenizer (`package`),
    which `load` refuses when it is missing."""
    requires = "==".join(package)
    return Normalization(
        name,
        "1",
        clean=_clean_squad_en,
        units=units,
        requires=requires,
        check=lambda: load() and None,
    )


M2QA_ZH = _m2qa("m2qa-zh", _jieba_units, JIEBA, _jieba_cut)
M2QA_TH = _m2qa("m2qa-th", _thai_units, PYTHAINLP, _thai_words)
