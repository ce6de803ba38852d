"""Read offline corpora: a SQuAD-format file's contexts, or a corpus JSONL. Pure: no Django.

Both yield `SourceArticle`s. SQuAD contexts are kept verbatim (their answer offsets index
them); a JSONL article given as one `text` is left for segmentation to split.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from core.text import BAD_CHARACTERS

TAG = re.compile(r"<[^>]+>")
SPACES = re.compile(r"\s+")


class CorpusFileError(ValueError):
    """The file cannot be read as a corpus; the message says where and why."""


@dataclass
class SourceArticle:
    title: str
    source_title: str
    paragraphs: list[str] = field(default_factory=list)
    text: str | None = None  # whole extract, to be segmented
    url: str = ""
    page_id: int | None = None
    revision_id: int | None = None
    split: str | None = None


def display_title(source_title: str) -> str:
    """Return the title without HTML tags or entities, spaces collapsed."""
    return SPACES.sub(" ", html.unescape(TAG.sub("", source_title))).strip()


MAX_ID = 2**63 - 1
MAX_TITLE = 300
MAX_SOURCE_TITLE = 1000


def _int_or_none(value, where: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        number = -1
    if isinstance(value, bool) or not 0 <= number <= MAX_ID:
        raise CorpusFileError(f"{where}: expected a whole number from 0, got {value!r}")
    return number


def _titles(value, where: str) -> tuple[str, str]:
    """Return (display title, source title), refusing what the corpus cannot hold."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise CorpusFileError(f"{where}: the title must be text")
    source = str(value).strip()
    title = display_title(source)
    if not title:
        raise CorpusFileError(f"{where}: the title is missing or empty once HTML is removed")
    if len(title) > MAX_TITLE or len(source) > MAX_SOURCE_TITLE:
        raise CorpusFileError(f"{where}: the title is longer than {MAX_TITLE} characters")
    if BAD_CHARACTERS.search(source):
        raise CorpusFileError(f"{where}: the title holds NUL or broken Unicode")
    return title, source


def _paragraph_text(value, where: str) -> str:
    if not isinstance(value, str):
        raise CorpusFileError(f"{where}: a paragraph must be text")
    if BAD_CHARACTERS.search(value):
        raise CorpusFileError(f"{where}: a paragraph holds NUL or broken Unicode")
    return value


def read_squad_contexts(data: dict, name: str) -> Iterator[SourceArticle]:
    """Yield one article per title of a SQuAD file, its contexts as paragraphs, in order."""
    if not isinstance(data.get("data"), list):
        raise CorpusFileError(f"{name}: no 'data' list, so this is not a SQuAD file")
    grouped: dict[str, SourceArticle] = {}
    for index, entry in enumerate(data["data"]):
        where = f"{name}: data[{index}]"
        if not isinstance(entry, dict):
            raise CorpusFileError(f"{where} is not an object")
        if not entry.get("title"):
            raise CorpusFileError(f"{where} has no title")
        title, source_title = _titles(entry["title"], where)
        article = grouped.get(source_title)
        if article is None:
            article = grouped[source_title] = SourceArticle(
                title=title,
                source_title=source_title,
                page_id=_int_or_none(entry.get("wikipedia_page_id"), f"data[{index}]"),
            )
        paragraphs = entry.get("paragraphs") or []
        if not isinstance(paragraphs, list) or not all(isinstance(p, dict) for p in paragraphs):
            raise CorpusFileError(f"{where}: 'paragraphs' must be a list of objects")
        for number, paragraph in enumerate(paragraphs):
            context = _paragraph_text(
                paragraph.get("context") or "", f"{where}.paragraphs[{number}].context"
            )
            if context.strip() and context not in article.paragraphs:
                article.paragraphs.append(context)
    yield from (a for a in grouped.values() if a.paragraphs)


def read_corpus_jsonl(lines, name: str) -> Iterator[SourceArticle]:
    """Yield the articles of a JSONL file: title plus `paragraphs` (list) or `text`."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as error:
            raise CorpusFileError(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(row, dict):
            raise CorpusFileError(f"{where}: expected a JSON object")
        if not row.get("title"):
            raise CorpusFileError(f"{where}: 'title' is missing")
        title, source_title = _titles(row["title"], where)
        paragraphs, text = row.get("paragraphs"), row.get("text")
        split = row.get("split")
        if split is not None and not isinstance(split, str):
            raise CorpusFileError(f"{where}: 'split' must be train, dev or test")
        if not (isinstance(paragraphs, list) and paragraphs) and not (
            isinstance(text, str) and text
        ):
            raise CorpusFileError(f"{where}: give 'paragraphs' (a list) or 'text'")
        yield SourceArticle(
            title=title,
            source_title=source_title,
            paragraphs=[_paragraph_text(p, where) for p in paragraphs or [] if str(p).strip()],
            text=None if paragraphs else _paragraph_text(text, where),
            url=str(row.get("url") or "")[:1000],
            page_id=_int_or_none(row.get("page_id"), where),
            revision_id=_int_or_none(row.get("revision_id"), where),
            split=split,
        )


def read_corpus_file(path: Path) -> list[SourceArticle]:
    """Read a .json SQuAD file or a .jsonl corpus; raise CorpusFileError on any problem."""
    try:
        with path.open(encoding="utf-8") as handle:
            if path.suffix == ".jsonl":
                return list(read_corpus_jsonl(handle, path.name))
            data = json.load(handle)
    except OSError as error:
        raise CorpusFileError(f"{path}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CorpusFileError(f"{path.name}: not a JSON file ({error})") from None
    if not isinstance(data, dict):
        raise CorpusFileError(f"{path.name}: expected a JSON object with a 'data' list")
    return list(read_squad_contexts(data, path.name))
