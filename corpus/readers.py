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


def _int_or_none(value, where: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise CorpusFileError(f"{where}: expected a whole number, got {value!r}") from None


def read_squad_contexts(data: dict, name: str) -> Iterator[SourceArticle]:
    """Yield one article per title of a SQuAD file, its contexts as paragraphs, in order."""
    if not isinstance(data.get("data"), list):
        raise CorpusFileError(f"{name}: no 'data' list, so this is not a SQuAD file")
    grouped: dict[str, SourceArticle] = {}
    for index, entry in enumerate(data["data"]):
        source_title = str(entry.get("title") or "").strip()
        if not source_title:
            raise CorpusFileError(f"{name}: data[{index}] has no title")
        article = grouped.get(source_title)
        if article is None:
            article = grouped[source_title] = SourceArticle(
                title=display_title(source_title),
                source_title=source_title,
                page_id=_int_or_none(entry.get("wikipedia_page_id"), f"data[{index}]"),
            )
        for paragraph in entry.get("paragraphs") or []:
            context = paragraph.get("context") or ""
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
        source_title = str(row.get("title") or "").strip()
        paragraphs, text = row.get("paragraphs"), row.get("text")
        if not source_title:
            raise CorpusFileError(f"{where}: 'title' is missing")
        if not (isinstance(paragraphs, list) and paragraphs) and not (
            isinstance(text, str) and text
        ):
            raise CorpusFileError(f"{where}: give 'paragraphs' (a list) or 'text'")
        yield SourceArticle(
            title=display_title(source_title),
            source_title=source_title,
            paragraphs=[str(p) for p in paragraphs or [] if str(p).strip()],
            text=None if paragraphs else text,
            url=str(row.get("url") or ""),
            page_id=_int_or_none(row.get("page_id"), where),
            revision_id=_int_or_none(row.get("revision_id"), where),
            split=row.get("split"),
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
