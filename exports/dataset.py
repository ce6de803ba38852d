"""Read the annotated corpus as export records, streaming, in a stable order.

A release reads each split once: the questions come ordered by article title (then id),
paragraph position, question position and id, as plain tuples from one query (a server-side
cursor on PostgreSQL), a chunk at a time; each chunk's paragraph texts and answers come in one
query each (and, in a v2.0 release, one for the plausible answers of the chunk's unanswerable
questions; and one for the model-in-the-loop figures of the chunk's questions written with a
model, when it has any). The same database state always gives the same records in the same
order, and memory holds one chunk, never the dataset. Every writer of the release, and the
datasheet's counts, are fed from that one pass (`exports.build`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, groupby, islice
from operator import attrgetter, itemgetter

from django.db import connection
from django.db.models import QuerySet, TextField
from django.db.models.functions import Cast

from annotation.models import Answer, Question, export_id
from annotation.selectors.questions import dataset_questions, plausible_answers, shown_answers
from corpus.models import Paragraph
from exports.formats.records import (
    ExportAnswer,
    ExportArticle,
    ExportModel,
    ExportParagraph,
    ExportQuestion,
)

# Questions per chunk: each chunk costs a few queries (paragraphs, answers, reviews), so fewer,
# larger chunks cost fewer round trips; 5,000 rows with their paragraphs and answers are a few
# MB (bench/export_scale.py: 2,000 → 5,000 cut the export's time by about a tenth, peak RSS
# unchanged within a few MB).
CHUNK = 5000

# What the pass reads of each question; the paragraph's text comes apart (once per chunk),
# so that the query sorts narrow rows, not a copy of the paragraph per question.
ROW_FIELDS = (
    "pk",
    "uuid",
    "source_id",
    "text",
    "paragraph_id",
    "paragraph__article_id",
    "paragraph__article__title",
    "paragraph__article__wave",
    "question_type",
    "campaign_id",
    "is_impossible",
    "model_attempt_id",  # not null: written with a model in the loop (its figures come apart)
)


@dataclass(frozen=True)
class Selection:
    """Which questions a release takes: one split, approved only or all but rejected, and
    the unanswerable ones too (`unanswerable`, a SQuAD v2.0 release) or not (v1.1)."""

    split: str
    approved_only: bool = False
    language: str | None = None
    unanswerable: bool = False
    campaigns: tuple[int, ...] = ()  # the questions of these campaigns only; () for all


@dataclass(slots=True)  # not frozen: a frozen dataclass's __init__ costs 10x more per row
class QuestionRow:
    """One question as the pass reads it: what the files show and what the datasheet counts.

    `answers` are the answers a release shows, the original first; the first `originals` of
    them are original answers (the datasheet's answer lengths count those), and
    `original_types` their stored (answer type, pipeline) (the datasheet's answer types).
    An unanswerable question (`is_impossible`) has no answers, whatever others gave on it, and its
    `plausible` spans, the author's first.
    """

    pk: int
    id: str  # the id in the release files
    text: str
    context: str
    paragraph_id: int
    article_id: int
    title: str
    wave: str
    question_type: str
    campaign_id: int
    imported: bool
    answers: list[ExportAnswer]
    originals: int
    is_impossible: bool = False
    plausible: list[ExportAnswer] = field(default_factory=list)
    model: ExportModel | None = None  # written with a model in the loop
    model_round_id: int | None = None  # its ModelRound (the datasheet's rounds)
    original_types: list[tuple[str, str]] = field(default_factory=list)


def selected_questions(selection: Selection) -> QuerySet:
    """Return the questions of a split that go into a release, in the release's order.

    Which questions count is annotation's rule (`dataset_questions`), the same for human
    performance and the dataset analysis.
    """
    questions = dataset_questions(
        split=selection.split,
        approved_only=selection.approved_only,
        language=selection.language,
        unanswerable=selection.unanswerable,
    )
    if selection.campaigns:  # a campaign group: its questions, each with all its answers
        questions = questions.filter(campaign_id__in=selection.campaigns)
    return questions.order_by(
        "paragraph__article__title",
        "paragraph__article_id",
        "paragraph__position",
        "paragraph_id",
        "position",
        "pk",
    )


def with_ids(rows: QuerySet, ids: Iterable[int], field: str = "pk") -> QuerySet:
    """Filter `rows` to those whose `field` (a column of their own table) is one of `ids`.

    On PostgreSQL the ids go as one array parameter (`= ANY(…)`): a 2,000-item IN list costs
    more to build, parse and plan than reading the rows themselves. The array is passed as its
    text, `{1,2,3}`: psycopg's client-side binding turns a Python list into a literal one item
    at a time, about 2 ms per 2,000 ids (bench/export_scale.py).
    """
    ids = [int(pk) for pk in ids]
    if connection.vendor == "postgresql":
        meta = rows.model._meta
        column = (meta.pk if field == "pk" else meta.get_field(field)).column
        where = f'"{meta.db_table}"."{column}" = ANY(%s::bigint[])'
        array = "{" + ",".join(map(str, ids)) + "}"
        return rows.extra(where=[where], params=[array])  # noqa: S610
    return rows.filter(**{f"{field}__in": ids})


_ORIGINAL = str(Answer.Kind.ORIGINAL)  # plain strs compare faster than the enum members
_PLAUSIBLE = str(Answer.Kind.PLAUSIBLE)
_NO_SPANS: list[ExportAnswer] = []  # shared, never changed: an answerable question's plausible


def _answers_by_question(
    question_pks: list[int], impossible: set[int]
) -> dict[int, tuple[list[ExportAnswer], int, list[tuple[str, str]], list[ExportAnswer]]]:
    """Return, per question, its shown answers (the original first), how many of them are
    original, the originals' stored (answer type, pipeline), and the plausible spans of an
    unanswerable one (those in `impossible`), in the order given (the author's first;
    imported ones in the file's order). One query: the plausible spans come with the answers
    when the chunk has unanswerable questions (whose other answers are judgments, not shown)."""
    answers = shown_answers() | plausible_answers() if impossible else shown_answers()
    rows = (
        with_ids(answers, question_pks, "question")
        .order_by("question_id", "kind", "pk")
        .values_list(
            "question_id", "kind", "text", "answer_start", "answer_type", "answer_type_pipeline"
        )
    )  # "additional" sorts before "original", then "plausible"
    found = {}
    for question_pk, given in groupby(rows, key=itemgetter(0)):
        originals, others, types, plausible = [], [], [], _NO_SPANS
        if question_pk in impossible:
            plausible = [
                ExportAnswer(text, start)
                for _pk, kind, text, start, _type, _pipeline in given
                if kind == _PLAUSIBLE
            ]
        else:
            for _pk, kind, text, start, answer_type, pipeline in given:
                if kind == _ORIGINAL:
                    originals.append(ExportAnswer(text, start))
                    types.append((answer_type, pipeline))
                else:
                    others.append(ExportAnswer(text, start))
            originals.reverse()  # were there several, the latest first, as releases always had
        found[question_pk] = (originals + others, len(originals), types, plausible)
    return found


MODEL_FIELDS = (
    "pk",
    "model_attempts",
    "model_exact",
    "model_f1",
    "model_fooled",
    "model_attempt__model_answer",
    "model_attempt__round_id",
    "model_attempt__round__number",
    "model_attempt__round__label",
)


def _models_by_question(question_pks: list[int]) -> dict[int, tuple[ExportModel, int]]:
    """Return what the model in the loop did on some questions, and the id of its round.

    The scores are the question's (against its current answer, computed again when a
    reviewer corrects the span), the answer is that of the attempt that counts (the last).
    """
    rows = with_ids(Question.objects.all(), question_pks).values_list(*MODEL_FIELDS)
    return {
        pk: (ExportModel(label, number, answer or "", exact, f1, fooled, attempts), round_pk)
        for pk, attempts, exact, f1, fooled, answer, round_pk, number, label in rows
        if round_pk is not None  # its attempt deleted since the chunk was read: no model
    }


_NO_MODEL = (None, None)
_NO_ANSWERS = ([], 0, [], _NO_SPANS)


def question_chunks(selection: Selection) -> Iterator[list[QuestionRow]]:
    """Yield the selected questions in release order, `CHUNK` at a time.

    One ordered query read through Django's chunked iterator (a server-side cursor on
    PostgreSQL, no model instances), plus per chunk one query for the paragraphs' texts and
    one for the answers (and one for the plausible spans when the chunk has unanswerable
    questions, one for the model-in-the-loop figures when it has questions written with a
    model: a release without any reads what it read before).
    """
    rows = _ordered_rows(selection).iterator(chunk_size=CHUNK)
    while chunk := list(islice(rows, CHUNK)):
        yield _question_rows(chunk)


def _ordered_rows(selection: Selection):
    """The selected questions' ROW_FIELDS, in release order."""
    questions = selected_questions(selection)
    if connection.vendor == "postgresql":  # the uuid as text: psycopg parses no UUID to print
        questions = questions.annotate(uuid_text=Cast("uuid", TextField()))
        fields = tuple("uuid_text" if name == "uuid" else name for name in ROW_FIELDS)
    else:  # SQLite keeps a uuid as 32 hex digits: Django gives a UUID, printed below
        fields = ROW_FIELDS
    return questions.values_list(*fields)


def _chunk_reads(chunk: list[tuple]) -> tuple[dict, dict, dict]:
    """Return one chunk's paragraph texts, answers and (where any) model-in-the-loop figures,
    by paragraph and question id: one query each."""
    contexts = dict(
        with_ids(Paragraph.objects.all(), {row[4] for row in chunk}).values_list("pk", "text")
    )
    # An unanswerable question shows no answer (an additional one given on it is a human
    # judgment, not an answer), only its plausible spans.
    impossible = {row[0] for row in chunk if row[10]}
    answers = _answers_by_question([row[0] for row in chunk], impossible)
    with_model = [row[0] for row in chunk if row[11] is not None]
    models = _models_by_question(with_model) if with_model else {}
    return contexts, answers, models


def _question_rows(chunk: list[tuple]) -> list[QuestionRow]:
    """Return one chunk's QuestionRows."""
    contexts, answers, models = _chunk_reads(chunk)
    return [
        QuestionRow(
            pk,
            export_id(source_id, uuid),
            text,
            contexts[paragraph_pk],
            paragraph_pk,
            article_pk,
            title,
            wave,
            question_type,
            campaign_pk,
            bool(source_id),
            shown[0],
            shown[1],
            is_impossible,
            shown[3],
            *models.get(pk, _NO_MODEL),
            shown[2],
        )
        for (
            pk,
            uuid,
            source_id,
            text,
            paragraph_pk,
            article_pk,
            title,
            wave,
            question_type,
            campaign_pk,
            is_impossible,
            _attempt_pk,
        ) in chunk
        for shown in (answers.get(pk, _NO_ANSWERS),)
    ]


def articles_of(
    rows: Iterable[QuestionRow], *, with_answers: bool = True
) -> Iterator[ExportArticle]:
    """Group ordered question rows into articles whose paragraphs are produced lazily.

    The writers consume each article's paragraphs before asking for the next article, which
    is what lets one stream of rows feed both levels.
    """
    for _article_pk, group in groupby(rows, key=attrgetter("article_id")):
        first = next(group)
        rest = chain((first,), group)  # noqa: B031 (consumed once, before the next article)
        yield ExportArticle(title=first.title, paragraphs=_paragraphs(rest, with_answers))


def _paragraphs(rows: Iterable[QuestionRow], with_answers: bool) -> Iterator[ExportParagraph]:
    for _paragraph_pk, group in groupby(rows, key=attrgetter("paragraph_id")):
        group = list(group)
        yield ExportParagraph(
            context=group[0].context,
            questions=[
                ExportQuestion(
                    row.id,
                    row.text,
                    row.answers if with_answers else [],
                    row.is_impossible,
                    row.plausible if with_answers else [],
                    row.model if with_answers else None,
                )
                for row in group
            ],
        )


def export_articles(selection: Selection, *, with_answers: bool = True) -> Iterator[ExportArticle]:
    """Yield the selection as articles, in release order (one pass over the split)."""
    rows = chain.from_iterable(question_chunks(selection))
    return articles_of(rows, with_answers=with_answers)
