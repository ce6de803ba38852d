"""Hugging Face JSON Lines: one line per question, the layout of the `squad` dataset card.

Each line is one JSON object with the fields of the Hugging Face `squad` dataset
(https://huggingface.co/datasets/rajpurkar/squad, "Data Fields"), which
`datasets.load_dataset("json", data_files=...)` reads as is and which the ScandEval FQuAD
task uses:

    {"id": str, "title": str, "context": str, "question": str,
     "answers": {"text": [str, ...], "answer_start": [int, ...]}}

Lines are UTF-8 (`ensure_ascii=False`) and end with "\\n"; `answer_start` counts Unicode code
points. The context is repeated on every question's line, as the dataset card does. A held-back
split is written with `"answers": {"text": [], "answer_start": []}`.

A release holding questions written with a model in the loop (issue 15) adds a sixth field to
every line, `"model_in_the_loop"` (`records.model_in_the_loop`): an object whose fields always
have the same JSON type, "status" "none" on a question written without a model, so that
`load_dataset` types the column whatever the first lines hold. Other releases are written as
before, byte for byte.
"""

from __future__ import annotations

from operator import attrgetter
from typing import BinaryIO

from exports.formats.records import (
    ExportCounts,
    ExportParagraph,
    PushWriter,
    encode_json,
    json_ints,
    json_strings,
    json_text,
    model_in_the_loop,
)

_TEXT, _START = attrgetter("text"), attrgetter("answer_start")


class HfJsonlWriter(PushWriter):
    """Write one JSON line per question, in the order the articles give them.

    A line is `json.dumps` of the dict above, byte for byte, but put together from pieces:
    the title and the context are encoded once and repeated on each of their lines, since
    encoding the context again for every question was most of this writer's time.
    """

    name = "hf"
    extension = ".jsonl"
    media_type = "application/x-ndjson"

    def __init__(self, *, include_answers: bool = True, with_model: bool = False) -> None:
        self.include_answers = include_answers
        self.with_model = with_model
        # the end of a line without a model (or without the field): the same on every line
        self._no_model = b"}\n"
        if with_model:
            self._no_model = b', "model_in_the_loop": ' + encode_json(self._model(None)) + b"}\n"

    def begin(self, out: BinaryIO) -> None:
        self._out, self._counts, self._title = out, ExportCounts(), b""

    def article(self, title: str) -> None:
        self._title = b', "title": ' + encode_json(title) + b', "context": '
        self._counts.articles += 1

    def paragraph(self, paragraph: ExportParagraph) -> None:
        """Write the lines of the paragraph's questions in one write."""
        shared = self._title + encode_json(paragraph.context) + b', "question": '
        lines = []
        for question in paragraph.questions:
            answers = question.answers if self.include_answers else []
            texts = json_strings(map(_TEXT, answers))
            starts = json_ints(map(_START, answers))
            # {"id": …, "title": …, "context": …, "question": …, "answers": {…}
            #  [, "model_in_the_loop": {…}]}
            lines.append(('{"id": ' + json_text(question.id)).encode())
            lines.append(shared)
            lines.append(
                f'{json_text(question.question)}, "answers": {{"text": {texts}, '
                f'"answer_start": {starts}}}'.encode()
            )
            if question.model is None or not self.with_model:
                lines.append(self._no_model)
            else:
                model = encode_json(self._model(question.model))
                lines.append(b', "model_in_the_loop": ' + model + b"}\n")
        self._out.write(b"".join(lines))
        self._counts.add_paragraph(paragraph, with_answers=self.include_answers)

    def _model(self, model) -> dict:
        return model_in_the_loop(model, include_answers=self.include_answers)

    def end(self) -> ExportCounts:
        return self._counts
