"""Turn the plain-text extract of a Wikipedia article into paragraphs worth annotating.

The input is what MediaWiki returns for ``prop=extracts&explaintext=1&exsectionformat=wiki``:
section headings are lines such as ``== Histoire ==`` (depth 2 to 6) and every other line is
a block of text (one paragraph, one list item, one caption...). FQuAD kept the paragraphs of
at least 500 characters of the article body; this module decides which blocks those are, and
records why every other block went, so that an admin can see what a scrape threw away.

Rules, for each line:

1. A heading line is dropped (``heading``) and opens a new section. A heading whose title,
   normalised and lower-cased, is in ``END_MATTER[language]`` (the language's ``end_matter``
   in the registry, ``core.languages``) ends the article: that heading
   and everything after it is one ``end_matter`` drop (notes, references, links are no prose).
2. Table syntax is dropped (``table``): a line starting with ``{|``, ``|`` or ``!``, or a line
   with two or more ``|`` (cells) that does not end like a sentence; prose about mathematics
   prints absolute values as ``| x |`` and still ends with a full stop.
3. Leftover wiki markup drops the whole line (``markup``): a ``{{`` or ``}}`` (templates), a
   complete ``[[...]]`` link, a ``<ref>`` or other known HTML tag, a ``__MAGIC__`` word, an
   unbalanced ``{\\displaystyle`` span, or a line that is mostly markup (math spans plus the
   symbols ``{}[]<>|\\=^_`` make up half of it or more). A lone ``[[`` is no evidence: real
   paragraphs carry stray ones (one PIAF context does), and losing a paragraph costs more.
   Inline ``{\\displaystyle ...}`` spans (and ``\\textstyle``, ``\\scriptstyle``) inside prose
   are cut out instead, with the spaces before them: MediaWiki's plain text prints each
   formula twice, rendered then as LaTeX, so the prose keeps its rendered copy.
4. A line starting with a list marker (``*``, ``#``, ``-``, ``–``, ``•``, ``1.``, ``1)``...
   followed by a space) is a list item (``list_item``). MediaWiki's plain text also drops the
   markers, so a run of two or more adjacent lines (no blank line between) that are each a
   list item or "item-like" is a list too: item-like means at most ``LIST_ITEM_MAX_CHARS``
   characters and no sentence-final punctuation (``. ! ? … :``, closing quotes and brackets
   aside). A lone short line is a caption or a lead-in, and goes as ``too_short``.
5. What is left is prose: it is normalised (``normalize``) and kept if it has at least
   ``min_chars`` characters (else ``too_short``; by default the language's rule: FQuAD's 500
   French characters scaled to its script, ``core.languages``) and at most ``max_chars``
   (else ``too_long``).

A line that several rules drop gets the first reason tested: math spans are cut first (LaTeX
holds ``}}`` and ``|``), then come table syntax at the start, markup, cells, list marker and
mostly-markup.

Annotators' answer offsets index the stored paragraph, so a kept paragraph is exactly what
``normalize`` makes of its line, with the inline math spans of rule 3 cut out; nothing else
touches it. ``excerpt`` and ``chars`` of a drop describe the normalised line (for ``too_short``
and ``too_long``, the normalised paragraph as it would have been stored). A drop's ``section``
is the title of the latest heading at any depth ("" in the introduction); a heading's own
drop carries its own title.

This module is pure (standard library only) and fast: regexes are compiled once and work is
done per line, never per character in Python.
"""

import re
import unicodedata
from dataclasses import dataclass

from core.languages import find, languages

REASONS = ("heading", "end_matter", "list_item", "table", "markup", "too_short", "too_long")

LIST_ITEM_MAX_CHARS = 200
MARKUP_SHARE = 0.5
EXCERPT_CHARS = 80


def normalize(text: str) -> str:
    """Return ``text`` in NFC with every whitespace run made one ASCII space, stripped."""
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    # Most lines need nothing more, and saying so is cheaper than splitting them: the only
    # whitespace str.isprintable() lets through is the ASCII space.
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text
    # str.split() splits on every Unicode whitespace: NBSP, NNBSP, thin space, tabs, newlines.
    return " ".join(text.split())


# Each language's end-matter titles come from its entry in the registry (core.languages).
END_MATTER: dict[str, frozenset[str]] = {
    entry.code: frozenset(normalize(title).lower() for title in entry.end_matter)
    for entry in languages()
}

_HEADING = re.compile(r"\s*(={2,6})\s*(\S.*?)\s*\1\s*")
_TABLE_START = re.compile(r"\{\||[|!]")
_TAGS = (
    "ref|references|br|hr|div|span|small|big|sup|sub|math|chem|nowiki|gallery|center|poem|"
    "blockquote|table|tr|td|th|code|pre|syntaxhighlight|source|score|timeline|abbr|p|s|u|i|b"
)
# A global IGNORECASE would cost three times as much: the regex engine then skips no prefix.
_MARKUP = re.compile(rf"\{{\{{|\}}\}}|\[\[[^\[\]]*\]\]|</?(?i:{_TAGS})\b[^<>]*>|__[A-Z]{{3,}}__")
_MATH_START = re.compile(r"\{\\(?:display|text|script)style(?![a-zA-Z])")
_BRACE = re.compile(r"(?<!\\)[{}]")
_LIST_MARKER = re.compile(r"(?:[*#]+|[-–•·▪◦‣]|\d{1,2}[.)])(?:\s|$)")
_MARKUP_SYMBOLS = re.compile(r"[{}\[\]<>|\\=^_]")
_CLOSERS = " )]}»\"”’'›"
_SENTENCE_END = frozenset(".!?…:")
_BLANK = None


@dataclass(frozen=True)
class Dropped:
    """Say what was not kept, where it was and why."""

    reason: str  # one of REASONS
    section: str  # title of the latest heading ("" in the introduction)
    excerpt: str  # the first EXCERPT_CHARS characters of the block, normalised
    chars: int  # the block's length, normalised


@dataclass(frozen=True)
class Segmentation:
    """Hold the kept paragraphs and the drops of one article, each in article order."""

    paragraphs: list[str]  # kept, normalised: exactly the text to store
    dropped: list[Dropped]  # everything not kept


def segment(
    extract: str,
    *,
    language: str = "fr",
    min_chars: int | None = None,
    max_chars: int | None = None,
) -> Segmentation:
    """Split ``extract`` into kept paragraphs and the drops, both in article order.

    ``min_chars`` defaults to the language's rule: FQuAD's 500 French characters scaled to
    its script (``core.languages``: 162 for Chinese, 442 for Arabic).
    """
    end_titles = _end_matter_titles(language)
    if min_chars is None:
        min_chars = find(language).min_chars
    if max_chars is not None and max_chars < min_chars:
        raise ValueError(f"max_chars ({max_chars}) is below min_chars ({min_chars})")
    blocks = _classify(extract.splitlines(), end_titles)
    _mark_list_runs(blocks)
    return _collect(blocks, min_chars, max_chars)


def _end_matter_titles(language: str) -> frozenset[str]:
    """Return the end-matter titles of ``language`` ("fr", "fr-CA"...) or say what is missing."""
    entry = find(language)
    titles = END_MATTER.get(entry.code) if entry is not None else None
    if titles is None:
        known = ", ".join(sorted(END_MATTER))
        raise ValueError(
            f"no end-matter section titles for language {language!r} (known: {known}); "
            "add the language to the registry, core/languages/catalogue.py"
        )
    return titles


def _classify(lines: list[str], end_titles: frozenset[str]) -> list:
    """Return one block ``[reason, section, text]`` per line (None for blank lines)."""
    blocks = []
    section = ""
    for index, line in enumerate(lines):
        heading = _HEADING.fullmatch(line)
        if heading is None:
            blocks.append(_classify_line(section, line))
            continue
        title = normalize(heading.group(2))
        if title.lower() in end_titles:
            blocks.append(["end_matter", title, normalize("\n".join(lines[index:]))])
            break
        section = title
        blocks.append(["heading", section, normalize(line)])
    return blocks


def _classify_line(section: str, line: str) -> list | None:
    """Return the block of a line that is not a heading: a drop, or prose (reason None)."""
    stripped = line.strip()
    if not stripped:
        return _BLANK
    # Math goes first: LaTeX holds "}}" and "|" that would pass for templates and tables.
    prose, math_chars = _strip_math(stripped)
    reason = "markup" if prose is None else _drop_reason(prose, math_chars, len(stripped))
    if reason is not None:
        return [reason, section, normalize(stripped)]
    return [None, section, normalize(prose)]


def _drop_reason(prose: str, math_chars: int, length: int) -> str | None:
    """Return why a stripped line is a table, markup or a list item, or None for prose.

    ``math_chars`` were cut out of the line, whose length was ``length``.
    """
    if _TABLE_START.match(prose):
        return "table"
    symbols = len(_MARKUP_SYMBOLS.findall(prose))
    # Every markup pattern starts with one of the symbols: most prose skips the search.
    if symbols and _MARKUP.search(prose):
        return "markup"
    if prose.count("|") >= 2 and not _ends_sentence(prose):
        return "table"
    if _LIST_MARKER.match(prose):
        return "list_item"
    if math_chars + symbols >= MARKUP_SHARE * length:
        return "markup"
    return None


def _strip_math(line: str) -> tuple[str | None, int]:
    """Cut the ``{\\displaystyle ...}`` spans out of a line; None if one is unbalanced.

    Return the line left and the number of characters cut (spans and the spaces before them).
    """
    if "style" not in line:
        return line, 0
    pieces = []
    position = 0
    for match in _MATH_START.finditer(line):
        if match.start() < position:
            continue  # a span nested in one already cut
        end = _closing_brace(line, match.start())
        if end < 0:
            return None, 0
        pieces.append(line[position : match.start()].rstrip())
        position = end
    pieces.append(line[position:])
    prose = "".join(pieces)
    return prose, len(line) - len(prose)


def _closing_brace(line: str, start: int) -> int:
    """Return the index just past the brace that closes the one at ``start``, or -1."""
    depth = 0
    for brace in _BRACE.finditer(line, start):
        depth += 1 if brace.group() == "{" else -1
        if depth == 0:
            return brace.end()
    return -1


def _mark_list_runs(blocks: list) -> None:
    """Make list items of the item-like lines in runs of two or more adjacent list lines."""
    run = []
    for block in [*blocks, _BLANK]:
        if block is not _BLANK and _is_list_line(block):
            run.append(block)
            continue
        if len(run) >= 2:
            for item in run:
                item[0] = "list_item"
        run = []


def _is_list_line(block: list) -> bool:
    """Tell whether a block is a marked list item or short prose without a final stop."""
    reason, _section, text = block
    if reason == "list_item":
        return True
    if reason is not None or len(text) > LIST_ITEM_MAX_CHARS:
        return False
    return not _ends_sentence(text)


def _ends_sentence(text: str) -> bool:
    """Tell whether text ends with . ! ? … or :, closing quotes and brackets aside."""
    return text.rstrip(_CLOSERS)[-1:] in _SENTENCE_END


def _collect(blocks: list, min_chars: int, max_chars: int | None) -> Segmentation:
    """Apply the length bounds to the prose blocks and gather paragraphs and drops."""
    paragraphs = []
    dropped = []
    for block in blocks:
        if block is _BLANK:
            continue
        reason, section, text = block
        if reason is None:
            reason = _length_reason(len(text), min_chars, max_chars)
            if reason is None:
                paragraphs.append(text)
                continue
        dropped.append(Dropped(reason, section, text[:EXCERPT_CHARS], len(text)))
    return Segmentation(paragraphs=paragraphs, dropped=dropped)


def _length_reason(length: int, min_chars: int, max_chars: int | None) -> str | None:
    """Return "too_short" or "too_long" for a paragraph out of bounds, else None."""
    if length < min_chars:
        return "too_short"
    if max_chars is not None and length > max_chars:
        return "too_long"
    return None
