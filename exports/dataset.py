"""Read the annotated corpus as export records, streaming, in a stable order.

Questions are read in chunks with their answers, ordered by article title (then id), paragraph
position, question position and id: the same database state always gives the same records in
the same order, and memory holds one chunk at a time, never the dataset.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, groupby, islice

from django.db import connection
from django.db.models import QuerySet

from annotation.models import Answer, export_id
from annotation.selectors.questions import dataset_questions, shown_answers
from exports.formats.records import ExportAnswer, ExportArticle, ExportParagraph, ExportQuestion

CHUNK = 2000

ROW_FIELDS = (
    "pk",
    "uuid",
    "source_id",
    "text",
    "paragraph_id",
    "paragraph__text",
    "paragraph__article_id",
    "paragraph__article__title",
)


@dataclass(frozen=True)
class Selection:
    """Which questions a release takes: one split, approved only or all but rejected."""

    split: str
    approved_only: bool = False
    language: str | None = None


def selected_questions(selection: Selection) -> QuerySet:
    """Return the questions of a split that go into a release, in the release's order.

    Which questions count is annotation's rule (`dataset_questions`), the same for human
    performance and the dataset analysis.
    """
    questions = dataset_questions(
        split=selection.split, approved_only=selection.approved_only, language=selection.language
    )
    return questions.order_by(
        "paragraph__article__title",
        "paragraph__article_id",
        "paragraph__position",
        "paragraph_id",
        "position",
        "pk",
    )


def _answers_by_question(question_pks: list[int]) -> dict[int, list[ExportAnswer]]:
    """Return the exported answers of some questions: the original first, then the others."""
    found: dict[int, list[ExportAnswer]] = {pk: [] for pk in question_pks}
    answers = shown_answers()
    if connection.vendor == "postgresql":
        # One array parameter: a 2,000-item IN list costs more to build, parse and plan than
        # reading the answers themselves (bench/export_scale.py).
        answers = answers.extra(where=["question_id = ANY(%s)"], params=[question_pks])  # noqa: S610
    else:
        answers = answers.filter(question_id__in=question_pks)
    rows = answers.order_by("question_id", "kind", "pk").values_list(
        "question_id", "kind", "text", "answer_start"
    )  # "additional" sorts before "original": the original is moved first below
    for question_pk, kind, text, start in rows:
        answer = ExportAnswer(text=text, answer_start=start)
        if kind == Answer.Kind.ORIGINAL:
            found[question_pk].insert(0, answer)
        else:
            found[question_pk].append(answer)
    return found


def question_rows(selection: Selection) -> Iterator[dict]:
    """Yield the selected questions as dicts with their answers, chunk by chunk.

    One ordered query read through a server-side cursor (PostgreSQL) in chunks; the answers
    of each chunk come in one more query.
    """
    rows = selected_questions(selection).values(*ROW_FIELDS).iterator(chunk_size=CHUNK)
    while chunk := list(islice(rows, CHUNK)):
        answers = _answers_by_question([row["pk"] for row in chunk])
        for row in chunk:
            row["answers"] = answers[row["pk"]]
            yield row


def _question(row: dict, with_answers: bool) -> ExportQuestion:
    return ExportQuestion(
        id=export_id(row["source_id"], row["uuid"]),
        question=row["text"],
        answers=row["answers"] if with_answers else [],
    )


def _paragraphs(rows, with_answers: bool) -> Iterator[ExportParagraph]:
    for _paragraph_pk, group in groupby(rows, key=lambda row: row["paragraph_id"]):
        group = list(group)
        yield ExportParagraph(
            context=group[0]["paragraph__text"],
            questions=[_question(row, with_answers) for row in group],
        )


def export_articles(selection: Selection, *, with_answers: bool = True) -> Iterator[ExportArticle]:
    """Yield the selection as articles whose paragraphs are produced lazily, in order.

    The writers consume each article's paragraphs before asking for the next article, which
    is what lets one stream of rows feed both levels.
    """
    rows = question_rows(selection)
    for _article_pk, group in groupby(rows, key=lambda row: row["paragraph__article_id"]):
        first = next(group)
        rest = chain((first,), group)  # noqa: B031 (consumed once, before the next article)
        title = first["paragraph__article__title"]
        yield ExportArticle(title=title, paragraphs=_paragraphs(rest, with_answers))
