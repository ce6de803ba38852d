"""Words of a text written without spaces between them (Chinese, Thai), from the language's
word tokenizer. Pure: the registry of languages (core.languages) names the tokenizer
(`Splitting.word_tokenizer`: "jieba" for zh, "pythainlp" for th); the package, an optional
install (the `languages` extra), is loaded inside the function that first needs it.

The annotation page snaps a selection to whole words. Where words are separated by spaces it
finds them itself; where they are not, it needs to know where a word ends inside a run of
letters: `inner_bounds` gives those places, and only those, as code-point offsets (the
platform's offsets, Python's `str` indexing). A boundary beside a space or a punctuation mark is
one already, so it is not listed: a 225-character Chinese paragraph gives about 90 numbers.

    tokenizer_words("黑豹队的防守", "zh")   # ["黑豹", "队", "的", "防守"]
    inner_bounds("黑豹队的防守", "zh")      # [2, 3, 4]
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable
from functools import cache, partial
from types import ModuleType

from core.languages import find

# The versions the tokenizers are pinned to (pyproject.toml): another version cuts other words.
VERSIONS = {"jieba": "0.42.1", "pythainlp": "5.4.0"}


class WordsUnavailable(Exception):
    """The language's word tokenizer is not installed (or not the pinned version)."""

    def __init__(self, tokenizer: str, found: str | None = None) -> None:
        self.tokenizer = tokenizer
        self.found = found
        wanted = f"{tokenizer}=={VERSIONS[tokenizer]}"
        said = f"{tokenizer} {found} is installed" if found else f"{tokenizer} is not installed"
        super().__init__(f"{said}; install {wanted} (the `languages` extra)")


def tokenizer_of(code: str | None) -> str | None:
    """The name of the word tokenizer a language needs, None where spaces separate words."""
    entry = find(code)
    if entry is None or entry.splitting.words != "tokenizer":
        return None
    return entry.splitting.word_tokenizer


def pinned_import(module: str, refuse: Callable[[str | None], Exception]) -> ModuleType:
    """Import a tokenizer's `module` ("jieba", "pythainlp.tokenize") if its package is the
    version pinned in VERSIONS; else raise `refuse(found)`, found None when not installed.

    evaluation.metrics.community's modes load the same packages, with their own refusal."""
    name = module.partition(".")[0]
    try:
        package = importlib.import_module(name)  # first: a missing package is never skipped
        imported = importlib.import_module(module)
    except ImportError:
        raise refuse(None) from None
    if package.__version__ != VERSIONS[name]:
        raise refuse(package.__version__)
    return imported


def jieba_cut(refuse: Callable[[str | None], Exception]):
    """Return the pinned jieba's `lcut`, its dictionary loaded (`pinned_import`'s refusals)."""
    jieba = pinned_import("jieba", refuse)
    jieba.setLogLevel(30)  # no "Building prefix dict" lines on stderr (logging.WARNING)
    jieba.initialize()  # its dictionary now (about a second), not inside the first cut
    return jieba.lcut


@cache
def _cut(tokenizer: str):
    """Return the tokenizer's function text -> words (loaded once per process)."""
    refuse = partial(WordsUnavailable, tokenizer)
    if tokenizer == "jieba":
        # Precise mode with its HMM for unknown words: jieba's defaults, M2QA's words too.
        return jieba_cut(refuse)
    if tokenizer == "pythainlp":
        word_tokenize = pinned_import("pythainlp.tokenize", refuse).word_tokenize
        return lambda text: word_tokenize(text, engine="newmm", keep_whitespace=True)
    raise ValueError(f"unknown word tokenizer {tokenizer!r}")


def tokenizer_version(tokenizer: str) -> str:
    """The pinned version of a tokenizer (the key of what it cut: another cuts otherwise)."""
    return VERSIONS[tokenizer]


def tokenizer_words(text: str, code: str) -> list[str]:
    """Return the words of `text` as the language's tokenizer cuts them, spaces and marks
    included, so that they join back into `text`. Raise WordsUnavailable when the tokenizer
    is not installed, ValueError for a language written with spaces between words."""
    tokenizer = tokenizer_of(code)
    if tokenizer is None:
        raise ValueError(f"{code!r} separates words with spaces: it has no word tokenizer")
    if not text:
        return []
    return _rejoined(text, _cut(tokenizer)(text))


def _rejoined(text: str, pieces: list[str]) -> list[str]:
    """The pieces as cuts of `text` itself: a piece the tokenizer changed (or dropped) is
    found again in the text, so that the words always join back into it."""
    if "".join(pieces) == text:
        return list(pieces)
    words, at = [], 0
    for piece in pieces:
        found = text.find(piece, at) if piece else -1
        if found < 0:
            continue
        if found > at:
            words.append(text[at:found])
        words.append(piece)
        at = found + len(piece)
    if at < len(text):
        words.append(text[at:])
    return words


def is_word_char(char: str) -> bool:
    """A letter, a digit or a combining mark: what the page's span tool counts as a word's
    (annotation/static/annotation/span-select.js, WORD)."""
    return unicodedata.category(char)[0] in "LNM"


def inner_bounds(text: str, code: str) -> list[int]:
    """Return the code-point offsets where one word ends and the next begins with no space or
    punctuation between them (a letter on each side), in increasing order."""
    bounds, at = [], 0
    for word in tokenizer_words(text, code)[:-1]:
        at += len(word)
        if word and is_word_char(text[at - 1]) and is_word_char(text[at]):
            bounds.append(at)
    return bounds


def character_bounds(text: str) -> list[int]:
    """Every place between two word characters: each character its own word, what the page
    takes when the tokenizer is missing (a selection then keeps the characters selected)."""
    return [i for i in range(1, len(text)) if is_word_char(text[i - 1]) and is_word_char(text[i])]
