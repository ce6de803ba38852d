"""SQuAD v1.1 and v2.0 JSON: a streaming writer and a tolerant reader (the answer-offset
checks are `exports.formats.offsets`).

The format is the one published with SQuAD (Rajpurkar et al., "SQuAD: 100,000+ Questions for
Machine Comprehension of Text", EMNLP 2016; files and the official `evaluate-v1.1.py` script at
https://rajpurkar.github.io/SQuAD-explorer/), and used as is by FQuAD and PIAF:

    {"version": "1.1",
     "data": [{"title": str,
               "paragraphs": [{"context": str,
                               "qas": [{"id": str, "question": str,
                                        "answers": [{"text": str, "answer_start": int}]}]}]}]}

`answer_start` is the offset of the answer in `context`, counted in Unicode code points (what
Python's `str` indexes). A held-back test split keeps its questions with `"answers": []`.

SQuAD v2.0 (Rajpurkar, Jia and Liang, "Know What You Don't Know: Unanswerable Questions for
SQuAD", ACL 2018; the files train-v2.0.json and dev-v2.0.json on the same page), which FQuAD 2.0
follows, adds unanswerable questions: `"version": "v2.0"`, every qa has `"is_impossible"`, and
an unanswerable one has `"answers": []` and `"plausible_answers"` (same shape as `answers`:
the spans a careless reader would give). The writer writes that layout with
`unanswerable=True` (keys in the order id, question, answers, is_impossible, then
plausible_answers on an unanswerable question); the reader reads both.

A question written with a model in the loop (issue 15) has one more key, last in its qa:
`"model_in_the_loop"`, the object of the HF files (`records.model_in_the_loop`; held back with
the answers in a held-back split). The official scripts read `id`, `answers` (and `question`)
only, so their figures are the same with it (tested); other qas are as before.

The writer renders the envelope by hand and each paragraph with `json.dumps`, so its memory
does not grow with the dataset; the output equals `json.dumps` of the whole document.
The reader uses the stdlib `json.loads`, which reads the whole file at once (the stdlib has no
streaming JSON parser), after `core.jsondepth` has refused a document nested too deeply
(`SquadTooDeep`); it then yields articles one by one and reports, rather than raises on,
malformed entries, naming where each one is.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, BinaryIO

from core.jsondepth import JSONTooDeep
from core.jsondepth import loads as json_loads
from exports.formats.records import (
    ExportAnswer,
    ExportArticle,
    ExportCounts,
    ExportParagraph,
    ExportQuestion,
    PushWriter,
    encode_json,
    model_in_the_loop,
)

# ---------------------------------------------------------------------------------------------
# Writer


V2_VERSION = "v2.0"  # what the official SQuAD 2.0 files give as "version"


class SquadWriter(PushWriter):
    """Write articles as one SQuAD JSON document, paragraph by paragraph.

    By default the v1.1 layout; with `unanswerable=True` the v2.0 one (`is_impossible` on
    every qa, `plausible_answers` on the unanswerable ones). Without answers (a held-back
    split) both write `{"id", "question", "answers": []}` only: whether a question can be
    answered is half of what a v2.0 test scores, so it stays held back with the answers. A
    question written with a model in the loop adds `model_in_the_loop` last (without answers:
    the model and the round only).
    """

    name = "squad"
    extension = ".json"
    media_type = "application/json"

    def __init__(
        self, *, version: str = "1.1", include_answers: bool = True, unanswerable: bool = False
    ) -> None:
        self.version = version
        self.include_answers = include_answers
        self.unanswerable = unanswerable

    def begin(self, out: BinaryIO) -> None:
        """Write the envelope's opening; articles follow."""
        self._out, self._counts = out, ExportCounts()
        self._in_article, self._paragraphs = False, 0
        out.write(b'{"version": ' + encode_json(self.version) + b', "data": [')

    def article(self, title: str) -> None:
        """Close the previous article, if any, and open this one."""
        before = b"]}, " if self._in_article else b""
        self._out.write(before + b'{"title": ' + encode_json(title) + b', "paragraphs": [')
        self._in_article, self._paragraphs = True, 0
        self._counts.articles += 1

    def paragraph(self, paragraph: ExportParagraph) -> None:
        before = b", " if self._paragraphs else b""
        self._out.write(before + encode_json(self._paragraph(paragraph)))
        self._paragraphs += 1
        self._counts.add_paragraph(paragraph, with_answers=self.include_answers)

    def end(self) -> ExportCounts:
        """Close the last article and the document; return what it holds."""
        self._out.write((b"]}" if self._in_article else b"") + b"]}\n")
        return self._counts

    def _paragraph(self, paragraph: ExportParagraph) -> dict[str, Any]:
        return {"context": paragraph.context, "qas": [self._qa(q) for q in paragraph.questions]}

    def _qa(self, question: ExportQuestion) -> dict[str, Any]:
        if not self.include_answers:
            qa = {"id": question.id, "question": question.question, "answers": []}
            if question.model is not None:
                qa["model_in_the_loop"] = model_in_the_loop(question.model, include_answers=False)
            return qa
        qa = {
            "id": question.id,
            "question": question.question,
            "answers": [{"text": a.text, "answer_start": a.answer_start} for a in question.answers],
        }
        if self.unanswerable:
            qa["is_impossible"] = question.is_impossible
            if question.is_impossible:
                qa["plausible_answers"] = [
                    {"text": a.text, "answer_start": a.answer_start}
                    for a in question.plausible_answers
                ]
        if question.model is not None:
            qa["model_in_the_loop"] = model_in_the_loop(question.model)
        return qa


# ---------------------------------------------------------------------------------------------
# Reader


class SquadFormatError(ValueError):
    """The file is not a SQuAD document at all (not JSON, or no "data" list)."""


class SquadTooDeep(SquadFormatError):
    """The file nests arrays and objects deeper than `core.jsondepth.MAX_JSON_DEPTH` (SQuAD
    nests 7 levels): refused before the recursive JSON parser reads it."""


class SquadFormatWarning(UserWarning):
    """A malformed entry was skipped while reading a SQuAD document."""


@dataclass(frozen=True, slots=True)
class SquadProblem:
    """A malformed entry that the reader skipped: where it is and what is wrong with it."""

    where: str
    message: str
    duplicate_id: str | None = None  # set when the entry repeats an earlier question's id
    qa_id: str | None = None  # the question's id, when the entry is a question that has one

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


ProblemHandler = Callable[[SquadProblem], None]


def read_squad(
    source: str | os.PathLike[str] | IO[Any], *, on_problem: ProblemHandler | None = None
) -> Iterator[ExportArticle]:
    """Yield the articles of a SQuAD file (a path or an open file), skipping malformed entries.

    Each skipped entry is passed to `on_problem` (by default, issued as a `SquadFormatWarning`).
    A missing "version", extra keys and integer ids (turned into strings) are accepted. An
    entry is skipped whole: a question with one bad answer is dropped, not kept half-answered.
    SQuAD 2.0 entries are read too: a qa with `"is_impossible": true` is an unanswerable
    question (no answers allowed) with its `plausible_answers` (optional, each checked like an
    answer); `plausible_answers` on an answerable question are ignored.
    Raise `SquadFormatError` at once if the file is not JSON or has no "data" list.
    """
    return _articles(_load_data(source), _Reader(on_problem or _warn))


def _articles(data: list[Any], reader: _Reader) -> Iterator[ExportArticle]:
    for index, raw_article in enumerate(data):
        article = reader.article(raw_article, index)
        if article is not None:
            yield article


def _warn(problem: SquadProblem) -> None:
    warnings.warn(str(problem), SquadFormatWarning, stacklevel=3)


def _load_data(source: str | os.PathLike[str] | IO[Any]) -> list[Any]:
    document = _load_json(source)
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, list):
        raise SquadFormatError(f'{_name(source)}: expected an object with a "data" list')
    return data


def _load_json(source: str | os.PathLike[str] | IO[Any]) -> Any:
    try:
        if isinstance(source, str | os.PathLike):
            with open(source, "rb") as file:
                return json_loads(file.read())
        return json_loads(source.read())
    except JSONTooDeep as error:
        raise SquadTooDeep(f"{_name(source)}: {error}") from error
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise SquadFormatError(f"{_name(source)}: not valid JSON: {error}") from error


def _name(source: str | os.PathLike[str] | IO[Any]) -> str:
    if isinstance(source, str | os.PathLike):
        return os.fspath(source)
    return str(getattr(source, "name", "<file>"))


class _Reader:
    """Turn raw JSON entries into records, reporting each malformed one with its place."""

    def __init__(self, report: ProblemHandler) -> None:
        self.report = report
        self.seen_ids: dict[str, str] = {}

    def problem(
        self,
        where: str,
        message: str,
        *,
        duplicate_id: str | None = None,
        qa_id: str | None = None,
    ) -> None:
        self.report(SquadProblem(where, message, duplicate_id, qa_id))

    def article(self, raw: Any, index: int) -> ExportArticle | None:
        where = f"article {index}"
        if not isinstance(raw, dict):
            return self.problem(where, f"expected an object, found {_kind(raw)}")
        title = raw.get("title")
        if not isinstance(title, str):
            return self.problem(where, f'"title" must be a string, found {_kind(title)}')
        where = f"{where} ({title!r})"
        raw_paragraphs = raw.get("paragraphs")
        if not isinstance(raw_paragraphs, list):
            message = f'"paragraphs" must be a list, found {_kind(raw_paragraphs)}'
            return self.problem(where, message)
        paragraphs = (
            self.paragraph(p, f"{where}, paragraph {i}") for i, p in enumerate(raw_paragraphs)
        )
        return ExportArticle(title=title, paragraphs=[p for p in paragraphs if p is not None])

    def paragraph(self, raw: Any, where: str) -> ExportParagraph | None:
        if not isinstance(raw, dict):
            return self.problem(where, f"expected an object, found {_kind(raw)}")
        context = raw.get("context")
        if not isinstance(context, str):
            return self.problem(where, f'"context" must be a string, found {_kind(context)}')
        raw_qas = raw.get("qas", [])
        if not isinstance(raw_qas, list):
            return self.problem(where, f'"qas" must be a list, found {_kind(raw_qas)}')
        questions = [self.question(q, f"{where}, qa {i}") for i, q in enumerate(raw_qas)]
        return ExportParagraph(context=context, questions=[q for q in questions if q is not None])

    def question(self, raw: Any, where: str) -> ExportQuestion | None:
        if not isinstance(raw, dict):
            return self.problem(where, f"expected an object, found {_kind(raw)}")
        qa_id = _as_id(raw.get("id"))
        if qa_id is None:
            message = f'"id" must be a string or an integer, found {_kind(raw.get("id"))}'
            return self.problem(where, message)
        where = f"{where} (id {qa_id!r})"
        if qa_id in self.seen_ids:
            message = f"duplicate id, first seen at {self.seen_ids[qa_id]}"
            return self.problem(where, message, duplicate_id=qa_id, qa_id=qa_id)
        text = raw.get("question")
        if not isinstance(text, str) or not text.strip():
            message = f'"question" must be a non-empty string, found {text!r}'
            return self.problem(where, message, qa_id=qa_id)
        impossible = raw.get("is_impossible", False)
        if not isinstance(impossible, bool):
            message = f'"is_impossible" must be true or false, found {_kind(impossible)}'
            return self.problem(where, message, qa_id=qa_id)
        answers = self.answers(raw.get("answers"), where, qa_id=qa_id)
        if answers is None:
            return None
        plausible = []
        if impossible:
            plausible = self.plausible(raw, where, answers, qa_id=qa_id)
            if plausible is None:
                return None
        self.seen_ids[qa_id] = where
        return ExportQuestion(
            id=qa_id,
            question=text,
            answers=answers,
            is_impossible=impossible,
            plausible_answers=plausible,
        )

    def plausible(
        self, raw: dict, where: str, answers: list[ExportAnswer], *, qa_id: str
    ) -> list[ExportAnswer] | None:
        """Return an unanswerable question's plausible answers, or None (a problem reported)
        when it has answers or malformed plausible ones."""
        if answers:
            message = "an unanswerable question (is_impossible) cannot have answers"
            return self.problem(where, message, qa_id=qa_id)
        return self.answers(
            raw.get("plausible_answers", []),
            where,
            "plausible_answers",
            "plausible answer",
            qa_id=qa_id,
        )

    def answers(
        self,
        raw: Any,
        where: str,
        key: str = "answers",
        noun: str = "answer",
        *,
        qa_id: str | None = None,
    ) -> list[ExportAnswer] | None:
        if not isinstance(raw, list):
            message = f'"{key}" must be a list, found {_kind(raw)}'
            return self.problem(where, message, qa_id=qa_id)
        answers = []
        for index, raw_answer in enumerate(raw):
            message = _answer_problem(raw_answer)
            if message:
                return self.problem(f"{where}, {noun} {index}", message, qa_id=qa_id)
            answers.append(ExportAnswer(raw_answer["text"], raw_answer["answer_start"]))
        return answers


def _answer_problem(raw: Any) -> str:
    """Return what is wrong with a raw answer, or "" if it is well formed."""
    if not isinstance(raw, dict):
        return f"expected an object, found {_kind(raw)}"
    text, start = raw.get("text"), raw.get("answer_start")
    if not isinstance(text, str) or not text:
        return f'"text" must be a non-empty string, found {text!r}'
    if not _is_int(start) or start < 0:
        return f'"answer_start" must be an integer >= 0, found {start!r}'
    return ""


def _as_id(value: Any) -> str | None:
    if isinstance(value, str) and value:
        return value
    return str(value) if _is_int(value) else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    """Name a JSON value's type the way the file's author would: object, list, string…"""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    names |= {int: "a number", float: "a number", type(None): "nothing"}
    return names.get(type(value), type(value).__name__)
