"""MRQA: gzipped JSON Lines, one line per context, with tokens and every answer occurrence.

The format is the MRQA 2019 shared task's ("Dataset Format" in the task's README,
https://github.com/mrqa/MRQA-Shared-Task-2019; Fisch et al., "MRQA 2019 Shared Task:
Evaluating Generalization in Reading Comprehension", MRQA workshop 2019). The file is
`.jsonl.gz`; its first line is a header, then each line is one context:

    {"header": {"dataset": str, "split": str}}
    {"id": str (only if the paragraph has one), "context": str,
     "context_tokens": [[token, char_offset], ...],
     "qas": [{"qid": str, "question": str, "question_tokens": [[token, char_offset], ...],
              "detected_answers": [{"text": str,
                                    "char_spans": [[start, end], ...],
                                    "token_spans": [[first, last], ...]}],
              "answers": [str, ...]}]}

The README's example names the header's split key "mrqa_split", but the released files (e.g.
SQuAD.jsonl.gz) write `{"header": {"dataset": "SQuAD", "split": "train"}}`: we follow the files.
`detected_answers` has one entry per distinct answer text, listing every occurrence of that
text in the context: `char_spans` are inclusive, `context[start:end + 1] == text`, and each
`token_spans` entry is the inclusive range of the context tokens that overlap that occurrence.
`answers` lists every answer's raw text, repeats included. Offsets count code points.

The task tokenized with spaCy; so do we by default (`spacy_tokenizer`, the `fr_core_news_sm`
tokenizer alone). Any `tokenize(text) -> [(token, char_offset), ...]` can be passed instead,
such as `simple_tokenizer`, which needs nothing installed. The gzip stream is deterministic
(mtime 0, no file name), so the same records and tokenizer always give the same bytes.
"""

from __future__ import annotations

import gzip
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, BinaryIO

from exports.formats.records import (
    ExportArticle,
    ExportCounts,
    ExportParagraph,
    ExportQuestion,
    encode_json,
)
from exports.formats.squad import find_occurrences

Token = tuple[str, int]
Tokenize = Callable[[str], list[Token]]

SPACY_MODEL = "fr_core_news_sm"


class MrqaWriter:
    """Write a header line, then one line per paragraph, through a deterministic gzip stream."""

    name = "mrqa"
    extension = ".jsonl.gz"
    media_type = "application/gzip"

    def __init__(
        self,
        *,
        dataset: str,
        split: str,
        tokenize: Tokenize | None = None,
        include_answers: bool = True,
    ) -> None:
        self.dataset = dataset
        self.split = split
        self.tokenize = tokenize
        self.include_answers = include_answers

    def write(self, articles: Iterable[ExportArticle], out: BinaryIO) -> ExportCounts:
        """Write the gzipped lines to the binary file `out` (left open); return the counts."""
        tokenize = self.tokenize or spacy_tokenizer()
        counts = ExportCounts()
        with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as stream:
            header = {"header": {"dataset": self.dataset, "split": self.split}}
            stream.write(encode_json(header) + b"\n")
            for article in articles:
                for paragraph in article.paragraphs:
                    stream.write(encode_json(self._context(paragraph, tokenize)) + b"\n")
                    counts.add_paragraph(paragraph, with_answers=self.include_answers)
                counts.articles += 1
        return counts

    def _context(self, paragraph: ExportParagraph, tokenize: Tokenize) -> dict[str, Any]:
        tokens = tokenize(paragraph.context)
        spans = TokenSpans(tokens)
        row: dict[str, Any] = {"id": paragraph.id} if paragraph.id else {}
        row["context"] = paragraph.context
        row["context_tokens"] = tokens  # (token, offset) pairs: JSON arrays
        row["qas"] = [self._qa(q, paragraph.context, spans, tokenize) for q in paragraph.questions]
        return row

    def _qa(
        self, question: ExportQuestion, context: str, spans: TokenSpans, tokenize: Tokenize
    ) -> dict[str, Any]:
        texts = [answer.text for answer in question.answers] if self.include_answers else []
        return {
            "qid": question.id,
            "question": question.question,
            "question_tokens": tokenize(question.question),
            "detected_answers": detect_answers(context, texts, spans),
            "answers": texts,
        }


class TokenSpans:
    """Map character spans of a text to the inclusive range of its tokens that overlap them."""

    def __init__(self, tokens: list[Token]) -> None:
        self.starts = [offset for _, offset in tokens]
        self.ends = [offset + len(token) for token, offset in tokens]

    def covering(self, start: int, end: int) -> tuple[int, int] | None:
        """Return (first, last) token indexes overlapping chars start..end (inclusive), or None."""
        first = bisect_right(self.ends, start)
        last = bisect_right(self.starts, end) - 1
        return (first, last) if first <= last else None


def detect_answers(context: str, texts: list[str], spans: TokenSpans) -> list[dict[str, Any]]:
    """List every occurrence of each distinct answer text, with char and token spans.

    An occurrence that no token overlaps (a blank answer) is left out, and so is a text that
    does not occur in the context at all: MRQA keeps it in `answers` only.
    """
    detected = []
    for text in dict.fromkeys(texts):
        char_spans, token_spans = [], []
        for start in find_occurrences(context, text):
            end = start + len(text) - 1
            token_span = spans.covering(start, end)
            if token_span is not None:
                char_spans.append([start, end])
                token_spans.append(list(token_span))
        if char_spans:
            detected.append({"text": text, "char_spans": char_spans, "token_spans": token_spans})
    return detected


# ---------------------------------------------------------------------------------------------
# Tokenizers

_SIMPLE_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+|\S")


def simple_tokenizer(text: str) -> list[Token]:
    """Split `text` into words, numbers and single other characters, with their offsets.

    A dependency-free stand-in for spaCy: "l'été 1,5 km!" gives l ' été 1,5 km !.
    """
    return [(match.group(), match.start()) for match in _SIMPLE_TOKEN.finditer(text)]


def spacy_tokenizer(model: str = SPACY_MODEL) -> Tokenize:
    """Return a tokenize function backed by the tokenizer of spaCy pipeline `model`.

    spaCy is imported and the pipeline loaded (with every component excluded, since only its
    tokenizer is used) on the first call for a model, then reused.
    """
    tokenizer = _load_spacy_tokenizer(model)

    def tokenize(text: str) -> list[Token]:
        return [(token.text, token.idx) for token in tokenizer(text)]

    return tokenize


@cache
def _load_spacy_tokenizer(model: str) -> Callable[[str], Any]:
    try:
        import spacy
    except ImportError as error:
        raise ImportError(
            "MRQA export tokenizes with spaCy: install spacy and fr-core-news-sm, "
            "or pass tokenize=simple_tokenizer"
        ) from error
    components = spacy.info(model).get("components", [])
    return spacy.load(model, exclude=components).tokenizer
