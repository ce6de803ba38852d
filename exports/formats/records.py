"""Plain records that every dataset format writer consumes, and the contract writers keep.

A release is handed to a writer as an iterable of `ExportArticle`, in the order it must appear
in the file. An article's `paragraphs` may itself be a generator, so that neither a whole
release nor a whole article has to sit in memory: writers walk the records once, paragraph by
paragraph, and write as they go. Offsets (`answer_start`) index `ExportParagraph.context` in
Python code points, as every offset in the platform does.

Nothing here imports Django: the database side builds these records, the writers only read them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from operator import attrgetter
from typing import BinaryIO, ClassVar, Protocol


@dataclass(frozen=True, slots=True)
class ExportAnswer:
    """One answer span: its text and where it starts in the paragraph's context."""

    text: str
    answer_start: int


@dataclass(frozen=True, slots=True)
class ExportModel:
    """What a model in the loop did on a question (issue 15; Beat the AI, Bartolo et al. 2020).

    `model` is the round's model label and `round` the campaign's round (1 = its first model);
    `answer` is the model's answer to the question's final text, `exact_match` and `f1` (in
    percent) score it against the question's current answer, and `fooled` says whether F1 is
    under the round's threshold. All three are None when the model did not answer (it was
    unavailable). `attempts` counts the annotator's tries, the last one included.
    """

    model: str
    round: int
    answer: str = ""
    exact_match: float | None = None
    f1: float | None = None
    fooled: bool | None = None
    attempts: int = 0

    @property
    def answered(self) -> bool:
        return self.fooled is not None and self.f1 is not None and self.exact_match is not None


# The statuses of a release's `model_in_the_loop` object (exports.formats.hf, squad).
MODEL_NONE = "none"  # written without a model
MODEL_ANSWERED = "answered"
MODEL_UNAVAILABLE = "unavailable"  # the model did not answer the last attempt
MODEL_WITHHELD = "withheld"  # a held-back split: the answer, scores and fooled stay on the server


def model_in_the_loop(model: ExportModel | None, *, include_answers: bool = True) -> dict:
    """Return a question's `model_in_the_loop` object, every field always of one JSON type.

    One type per field, never null: `datasets.load_dataset("json")` infers each column's type
    from the first block of lines and cannot change it afterwards ("Couldn't cast ... to
    null"), so a file whose first thousands of lines came without a model must still type
    every field. What a field means depends on `status`: `answer`, `exact_match`, `f1` and
    `fooled` are the model's only when it is "answered"; otherwise "", 0.0, 0.0 and false.
    A held-back split ("withheld") keeps the model and the round only: the model's answer,
    its scores, whether it was fooled and the attempts (in adversarial mode the annotator
    tries again until the model is fooled) would tell about the answer.
    """
    if model is None:
        return _model_object("", 0, MODEL_NONE)
    if not include_answers:
        return _model_object(model.model, model.round, MODEL_WITHHELD)
    if not model.answered:
        return _model_object(model.model, model.round, MODEL_UNAVAILABLE, model.attempts)
    return {
        "model": model.model,
        "round": model.round,
        "status": MODEL_ANSWERED,
        "answer": model.answer,
        "exact_match": float(model.exact_match),
        "f1": float(model.f1),
        "fooled": bool(model.fooled),
        "attempts": model.attempts,
    }


def _model_object(label: str, number: int, status: str, attempts: int = 0) -> dict:
    return {
        "model": label,
        "round": number,
        "status": status,
        "answer": "",
        "exact_match": 0.0,
        "f1": 0.0,
        "fooled": False,
        "attempts": attempts,
    }


@dataclass(frozen=True, slots=True)
class ExportQuestion:
    """One question with its answers (none for a held-back split).

    An unanswerable question (SQuAD 2.0, FQuAD 2.0: `is_impossible`) has no answers; its
    `plausible_answers` are the spans a careless reader would give. The defaults are an
    answerable question, which is all a SQuAD v1.1 dataset holds. `model` is set on a question
    written with a model in the loop.
    """

    id: str
    question: str
    answers: list[ExportAnswer] = field(default_factory=list)
    is_impossible: bool = False
    plausible_answers: list[ExportAnswer] = field(default_factory=list)
    model: ExportModel | None = None  # written with a model in the loop: what it did


@dataclass(frozen=True, slots=True)
class ExportParagraph:
    """One context and the questions asked on it; `id` is optional (MRQA writes it if set)."""

    context: str
    questions: list[ExportQuestion] = field(default_factory=list)
    id: str = ""


@dataclass(frozen=True, slots=True)
class ExportArticle:
    """One article: a title and its paragraphs, possibly produced lazily."""

    title: str
    paragraphs: Iterable[ExportParagraph] = ()


_IS_IMPOSSIBLE = attrgetter("is_impossible")
_ANSWERS = attrgetter("answers")


@dataclass(slots=True)
class ExportCounts:
    """Tally what a writer wrote, for a release's manifest.

    `unanswerable` counts the unanswerable questions among `questions`; `left_out` the
    unanswerable questions a format cannot hold (MRQA) and did not write. `as_dict` gives
    the four counts of a v1.1 file, and these two as well for a v2.0 one.
    """

    articles: int = 0
    paragraphs: int = 0
    questions: int = 0
    answers: int = 0
    unanswerable: int = 0
    left_out: int = 0

    def add_paragraph(self, paragraph: ExportParagraph, *, with_answers: bool = True) -> None:
        """Count one written paragraph with its questions, and its answers if they were written."""
        self.paragraphs += 1
        questions = paragraph.questions
        self.questions += len(questions)
        # map() over attrgetter: this runs for every paragraph of every file of a release
        self.unanswerable += sum(map(_IS_IMPOSSIBLE, questions))
        if with_answers:
            self.answers += sum(map(len, map(_ANSWERS, questions)))

    def as_dict(self, *, unanswerable: bool = False) -> dict[str, int]:
        """The counts a manifest lists: with `unanswerable` (a v2.0 release), the two above."""
        counts = {
            "articles": self.articles,
            "paragraphs": self.paragraphs,
            "questions": self.questions,
            "answers": self.answers,
        }
        if unanswerable:
            counts |= {"unanswerable": self.unanswerable, "left_out": self.left_out}
        return counts


class FormatWriter(Protocol):
    """The strategy every format writer implements (see `exports.formats.FORMATS`).

    A writer writes one file, fed either all at once (`write`) or pushed record by record:
    `begin(out)`, then `article(title)` before each article's `paragraph(...)` calls, then
    `end()`. The push form lets a release read a split once and hand every paragraph to the
    writers of all its formats; both forms write the same bytes.
    """

    name: ClassVar[str]  # the key in the catalogue
    extension: ClassVar[str]  # what a release file of this format ends with
    media_type: ClassVar[str]  # the Content-Type a download is served with

    def write(self, articles: Iterable[ExportArticle], out: BinaryIO) -> ExportCounts:
        """Write `articles` to the binary file `out`, in order, and return what was written."""
        ...

    def begin(self, out: BinaryIO) -> None:
        """Start the file in `out` (left open by `end`)."""
        ...

    def article(self, title: str) -> None:
        """Start the next article; the paragraphs that follow belong to it."""
        ...

    def paragraph(self, paragraph: ExportParagraph) -> None:
        """Write one paragraph of the current article."""
        ...

    def end(self) -> ExportCounts:
        """Finish the file and return what was written."""
        ...


class PushWriter:
    """`write` in terms of the push methods, shared by the writers."""

    def write(self, articles: Iterable[ExportArticle], out: BinaryIO) -> ExportCounts:
        self.begin(out)
        for article in articles:
            self.article(article.title)
            for paragraph in article.paragraphs:
                self.paragraph(paragraph)
        return self.end()


# One encoder for every call: `json.dumps(value, ensure_ascii=False)` builds a new encoder
# each time, which costs more than encoding a short string. Same settings, same output.
_ENCODER = json.JSONEncoder(ensure_ascii=False)
json_text = _ENCODER.encode


def json_strings(values: Iterable[str]) -> str:
    """Return `json_text(list(values))` for strings, without building an encoder per list."""
    return "[" + ", ".join(map(encode_basestring, values)) + "]"


def json_ints(values: Iterable[int]) -> str:
    """Return `json_text(list(values))` for integers (JSON writes an int as `int.__repr__`)."""
    return "[" + ", ".join(map(int.__repr__, values)) + "]"


def encode_json(value: object) -> bytes:
    """Return `value` as UTF-8 JSON bytes, the one rendering all writers share.

    It is `json.dumps(value, ensure_ascii=False)`: separators ", " and ": ", non-ASCII text
    kept as is (U+2028 and U+2029 too), key order the order the writer built the dict in, so
    the same records always give the same bytes.
    """
    return _ENCODER.encode(value).encode("utf-8")
