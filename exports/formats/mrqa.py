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

MRQA has no unanswerable questions: the writer leaves out every question marked
`is_impossible` (and a paragraph left with no question), and counts them in
`ExportCounts.left_out`. Without answers (a held-back split) it keeps them, as the SQuAD and
HF files of that split do: none of its questions shows an answer, and leaving some out would
tell which ones cannot be answered.

The task tokenized with spaCy; so do we, with the tokenizer alone of the pipeline the release's
language names in the registry of languages (`core.languages`, `Language.mrqa_tokens`;
`language_tokenizer`): French's `fr_core_news_sm`, a blank spaCy language's rule-based
tokenizer for the others (Chinese one character a token, Thai through pythainlp). A language
without one gets `TokensUnavailable`, saying so, never French's. Any
`tokenize(text) -> [(token, char_offset), ...]` can be passed instead,
such as `simple_tokenizer`, which needs nothing installed; one that also has a
`many(texts)` method (spaCy's has) is given a batch of texts at a time. The gzip stream is
deterministic (mtime 0, no file name, level 9), so the same records and tokenizer always give
the same bytes, however they are batched.
"""

from __future__ import annotations

import gzip
import re
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any, BinaryIO

from core.languages import Language, Pipeline, language
from exports.formats.offsets import find_occurrences
from exports.formats.records import (
    ExportCounts,
    ExportParagraph,
    ExportQuestion,
    PushWriter,
    encode_json,
)

Token = tuple[str, int]
Tokenize = Callable[[str], list[Token]]

SPACY_MODEL = language("fr").mrqa_tokens.model  # "fr_core_news_sm"
BATCH = 32  # paragraphs tokenized together: few enough to keep memory small
QUEUED = 1  # batches waiting for the gzip thread at most (one keeps both threads busy)


class MrqaWriter(PushWriter):
    """Write a header line, then one line per paragraph, through a deterministic gzip stream.

    Paragraphs are taken in batches of `BATCH`: the contexts and questions of a batch are
    tokenized in one call (spaCy's `pipe`) and their lines handed to one thread that gzips
    and writes them in order. zlib works with the GIL released, so the level-9 compression
    (about a fifth of the work) runs beside the tokenizing on a second core.
    """

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

    def begin(self, out: BinaryIO) -> None:
        """Load the tokenizer (before writing anything), then write the header line."""
        tokenize = self.tokenize or spacy_tokenizer()
        self._tokenize_many = getattr(tokenize, "many", None) or (
            lambda texts: (tokenize(text) for text in texts)  # one text at a time, as used
        )
        self._counts, self._batch = ExportCounts(), []
        self._wrote, self._skipped = False, False  # of the current article's paragraphs
        self._stream = gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="")
        # One worker runs the writes in the order given; it ends with the writer if an
        # error stops the export (an idle pool's thread exits once the pool is collected).
        self._gzip, self._queued = ThreadPoolExecutor(1, thread_name_prefix="mrqa-gzip"), deque()
        header = {"header": {"dataset": self.dataset, "split": self.split}}
        self._write([encode_json(header) + b"\n"])

    def article(self, title: str) -> None:
        self._uncount_emptied_article()
        self._counts.articles += 1

    def _uncount_emptied_article(self) -> None:
        """An article whose every paragraph was left out (unanswerable only) is not in the file."""
        if self._skipped and not self._wrote:
            self._counts.articles -= 1
        self._wrote, self._skipped = False, False

    def paragraph(self, paragraph: ExportParagraph) -> None:
        if self.include_answers and any(q.is_impossible for q in paragraph.questions):
            answerable = [q for q in paragraph.questions if not q.is_impossible]
            self._counts.left_out += len(paragraph.questions) - len(answerable)
            if not answerable:
                self._skipped = True
                return
            paragraph = ExportParagraph(paragraph.context, answerable, paragraph.id)
        self._wrote = True
        self._batch.append(paragraph)
        self._counts.add_paragraph(paragraph, with_answers=self.include_answers)
        if len(self._batch) >= BATCH:
            self._flush()

    def end(self) -> ExportCounts:
        """Write what is left, close the gzip stream (not `out`); return the counts."""
        self._uncount_emptied_article()
        self._flush()
        while self._queued:
            self._queued.popleft().result()
        self._gzip.shutdown()
        self._stream.close()
        return self._counts

    def _write(self, lines: list[bytes]) -> None:
        """Queue `lines` for the gzip thread; wait while `QUEUED` batches are already waiting.

        The lines go to the stream one at a time, not joined: a joined copy would be a second
        batch in memory. The gzip stream's bytes do not depend on how its input is split.
        """
        self._queued.append(self._gzip.submit(self._stream.writelines, lines))
        while len(self._queued) > QUEUED:
            self._queued.popleft().result()  # raises here what the write raised there

    def _flush(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:
            return
        # Each paragraph's context, then its questions, in the order their tokens are used: a
        # tokenizer without `many` then tokenizes a text only when its line needs it, so the
        # batch holds one paragraph's tokens rather than all of them.
        texts = [text for p in batch for text in (p.context, *(q.question for q in p.questions))]
        tokens = iter(self._tokenize_many(texts))
        self._write([encode_json(self._context(paragraph, tokens)) + b"\n" for paragraph in batch])

    def _context(self, paragraph: ExportParagraph, tokens: Iterator[list[Token]]) -> dict[str, Any]:
        """The paragraph's row; takes its context's, then its questions' tokens from `tokens`."""
        context_tokens = next(tokens)
        spans = TokenSpans(context_tokens)
        row: dict[str, Any] = {"id": paragraph.id} if paragraph.id else {}
        row["context"] = paragraph.context
        row["context_tokens"] = context_tokens  # (token, offset) pairs: JSON arrays
        row["qas"] = [
            self._qa(q, paragraph.context, spans, next(tokens)) for q in paragraph.questions
        ]
        return row

    def _qa(
        self, question: ExportQuestion, context: str, spans: TokenSpans, tokens: list[Token]
    ) -> dict[str, Any]:
        texts = [answer.text for answer in question.answers] if self.include_answers else []
        return {
            "qid": question.id,
            "question": question.question,
            "question_tokens": tokens,
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


def spacy_tokenizer(model: str = SPACY_MODEL) -> SpacyTokenizer:
    """Return a tokenize function backed by the tokenizer of spaCy pipeline `model`.

    spaCy is imported and the pipeline loaded (with every component excluded, since only its
    tokenizer is used: the tagger, parser and NER never change the tokens) on the first call
    for a model, then reused.
    """
    return SpacyTokenizer(*_load_spacy_tokenizer(model))


def spacy_model_name(model: str = SPACY_MODEL) -> str:
    """The tokenizer's name (spaCy's version, the pipeline and its version), read from the
    installed packages without importing spaCy."""
    from importlib.metadata import version

    return f"spacy {version('spacy')} {model} {version(model)}"


class TokensUnavailable(LookupError):
    """The language has no MRQA tokenizer (core.languages), or its install is missing."""


def _pipeline(code: str) -> tuple[Language, Pipeline]:
    """Return language `code`'s registry entry and its MRQA pipeline; TokensUnavailable when
    the registry gives it none."""
    entry = language(code)
    if entry.mrqa_tokens is None:
        raise TokensUnavailable(f"MRQA tokens: not available for {entry.name('en')}")
    return entry, entry.mrqa_tokens


def language_tokenizer(code: str) -> SpacyTokenizer:
    """Return the MRQA tokenizer of language `code` (its registry entry's `mrqa_tokens`), or
    raise TokensUnavailable naming the language and what is missing."""
    entry, pipeline = _pipeline(code)
    if pipeline.blank is None:
        return spacy_tokenizer(pipeline.model)
    try:
        return SpacyTokenizer(*_load_blank_tokenizer(pipeline), spaces=False)
    except ImportError as error:
        raise TokensUnavailable(
            f"MRQA tokens for {entry.name('en')} need {pipeline.install or 'spaCy'}: "
            f"install it ({error})"
        ) from error


def language_tokenizer_name(code: str) -> str:
    """The name of language `code`'s MRQA tokenizer (spaCy's version, the pipeline and its
    version, the packages it needs), read without importing spaCy; TokensUnavailable when none."""
    _entry, pipeline = _pipeline(code)
    if pipeline.blank is None:
        return spacy_model_name(pipeline.model)
    return _blank_name(pipeline)


def _blank_name(pipeline: Pipeline) -> str:
    from importlib.metadata import PackageNotFoundError, version

    parts = [f"spacy {version('spacy')} {pipeline.model}"]
    parts += [f"{path}={value}" for path, value in pipeline.config]
    if pipeline.install:
        try:
            parts.append(f"{pipeline.install} {version(pipeline.install)}")
        except PackageNotFoundError:
            parts.append(f"{pipeline.install} (not installed)")
    return " ".join(parts)


@cache
def _load_blank_tokenizer(pipeline: Pipeline) -> tuple[Callable[[str], Any], str]:
    """A blank spaCy language's tokenizer, with the entry's config (spaCy's Korean without
    mecab-ko, Chinese by characters); ImportError when its install is missing."""
    import spacy

    nlp = spacy.blank(pipeline.blank, config=pipeline.config_dict())
    nlp.vocab.lex_attr_getters = {}
    return nlp.tokenizer, _blank_name(pipeline)


class SpacyTokenizer:
    """spaCy's tokenizer as (token, offset) pairs: one text (`__call__`) or a batch (`many`).
    `name` says which spaCy and which pipeline version (a cache of tokens is kept per name)."""

    def __init__(self, tokenizer: Any, name: str = "", *, spaces: bool = True) -> None:
        # spaces=False leaves out whitespace tokens (spaCy's Thai tokenizer makes a token of
        # every space); the pipelines of old keep them, so their tokens stay as they were.
        self.tokenizer, self.name, self.spaces = tokenizer, name, spaces

    def __call__(self, text: str) -> list[Token]:
        return self._tokens(self.tokenizer(text))

    def many(self, texts: list[str]) -> list[list[Token]]:
        return [self._tokens(doc) for doc in self.tokenizer.pipe(texts)]

    def _tokens(self, doc) -> list[Token]:
        if self.spaces:
            return [(token.text, token.idx) for token in doc]
        return [(token.text, token.idx) for token in doc if not token.text.isspace()]


@cache
def _load_spacy_tokenizer(model: str) -> tuple[Callable[[str], Any], str]:
    try:
        import spacy
    except ImportError as error:
        raise ImportError(
            "MRQA export tokenizes with spaCy: install spacy and fr-core-news-sm, "
            "or pass tokenize=simple_tokenizer"
        ) from error
    meta = spacy.info(model)
    nlp = spacy.load(model, exclude=meta.get("components", []))
    # Splitting a text reads no lexeme attribute (norm, shape, is_alpha…): without their
    # getters, a word met for the first time costs less (PIAF, 4,596 texts in a fresh process:
    # 0.52–0.55 s instead of 0.63–0.65 s), and the tokens are the same (tested on all of PIAF).
    nlp.vocab.lex_attr_getters = {}
    return nlp.tokenizer, spacy_model_name(model)
