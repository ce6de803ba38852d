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
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, BinaryIO

from exports.formats.records import ExportArticle, ExportCounts, ExportQuestion, encode_json


class HfJsonlWriter:
    """Write one JSON line per question, in the order the articles give them."""

    name = "hf"
    extension = ".jsonl"
    media_type = "application/x-ndjson"

    def __init__(self, *, include_answers: bool = True) -> None:
        self.include_answers = include_answers

    def write(self, articles: Iterable[ExportArticle], out: BinaryIO) -> ExportCounts:
        """Write every question of `articles` to the binary file `out`; return the counts."""
        counts = ExportCounts()
        for article in articles:
            for paragraph in article.paragraphs:
                for question in paragraph.questions:
                    row = self._row(article.title, paragraph.context, question)
                    out.write(encode_json(row) + b"\n")
                counts.add_paragraph(paragraph, with_answers=self.include_answers)
            counts.articles += 1
        return counts

    def _row(self, title: str, context: str, question: ExportQuestion) -> dict[str, Any]:
        answers = question.answers if self.include_answers else []
        return {
            "id": question.id,
            "title": title,
            "context": context,
            "question": question.question,
            "answers": {
                "text": [answer.text for answer in answers],
                "answer_start": [answer.answer_start for answer in answers],
            },
        }
