"""How a question comes into the platform, whoever writes it: the one place that stores a
question with its answers and its first version.

The work loop stores what an annotator submits; an import stores what another dataset holds.
Both go through `questions_store`, so a question's type, its answers and its version 1 follow
the same rules whichever door it came by.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.models import Answer, Campaign, Lease, Question, QuestionRevision
from annotation.question_types import classify_in
from annotation.services.audit import first_revisions
from annotation.services.items import items_for_questions
from core.errors import ServiceError
from core.rows import prepared_cursor
from corpus.models import Paragraph


@dataclass(frozen=True)
class NewAnswer:
    author_id: int
    answer_start: int
    text: str
    kind: str = Answer.Kind.ORIGINAL
    seconds_spent: int = 0
    misaligned: bool = False  # imported at an offset where its text is not


@dataclass(frozen=True)
class NewQuestion:
    """A question to store; its first answer is the original one (the span of version 1)."""

    paragraph: Paragraph
    author_id: int
    position: int
    text: str
    answers: list[NewAnswer] = field(default_factory=list)
    seconds_spent: int = 0
    lease: Lease | None = None
    sampled_for_review: bool = False
    # The author's review rate when it was decided, and why (`annotation.services.audit`).
    review_rate: Decimal | None = None
    review_why: str = ""
    source_id: str = ""  # its id in the dataset it was imported from
    # Unanswerable: its one answer is the plausible span (kind `plausible`), never original.
    is_impossible: bool = False


# A statement of the caller's (SQL, parameters) that `questions_store` runs in its place.
Along = tuple[str, list]


def questions_store(
    *, campaign: Campaign, questions: list[NewQuestion], along: list[Along] = ()
) -> list[Question]:
    """Store the questions, their answers and their version 1; return the questions.

    Runs in the caller's transaction, after the caller checked the input: the question type
    is classified here, the first answer of each question is its version 1, and the
    additional-answers campaigns get the new questions as items. Each question comes back
    with its answers in `answers_stored` (no query to read them again). On PostgreSQL the
    three tables are written by one statement (the work loop's hot path).

    `along`: the caller's own data-modifying statements (no result read) to run in the same
    transaction before the questions are written. On PostgreSQL they go into the store's one
    statement, as WITH clauses (a submission's lease marked sent and its review counter saved:
    two round trips fewer); elsewhere they run one by one first.
    """
    _check_answer_kinds(questions)
    now = timezone.now()
    rows = [_question_row(campaign, new, now) for new in questions]
    answers = [
        _answer_row(question, answer, now)
        for question, new in zip(rows, questions, strict=True)
        for answer in new.answers
    ]
    revisions = _first_revisions(rows, answers, now)
    if connection.vendor == "postgresql":
        _store_in_one_statement(rows, answers, revisions, along)
    else:
        _store_one_table_at_a_time(rows, answers, revisions, along)
    for question in rows:
        question.answers_stored = []
    for answer in answers:
        answer.question.answers_stored.append(answer)
    items_for_questions(rows)
    return rows


def _question_row(campaign: Campaign, new: NewQuestion, now) -> Question:
    """The question to insert, its type classified in the campaign's language."""
    return Question(
        campaign=campaign,
        paragraph=new.paragraph,
        lease=new.lease,
        author_id=new.author_id,
        position=new.position,
        text=new.text,
        question_type=classify_in(campaign.language, new.text),
        seconds_spent=new.seconds_spent,
        sampled_for_review=new.sampled_for_review,
        review_rate=new.review_rate,
        review_why=new.review_why,
        source_id=new.source_id,
        is_impossible=new.is_impossible,
        created_at=now,
    )


def _answer_row(question: Question, new: NewAnswer, now) -> Answer:
    return Answer(
        question=question,
        author_id=new.author_id,
        answer_start=new.answer_start,
        text=new.text,
        kind=new.kind,
        seconds_spent=new.seconds_spent,
        misaligned=new.misaligned,
        created_at=now,
    )


def _first_revisions(rows: list[Question], answers: list[Answer], now) -> list[QuestionRevision]:
    """Each question's version 1, with its first answer's span (none without an answer)."""
    firsts = {}
    for answer in answers:
        firsts.setdefault(answer.question.uuid, answer)
    revisions = first_revisions(rows, [firsts.get(question.uuid) for question in rows])
    for revision in revisions:
        revision.created_at = now
    return revisions


def _store_one_table_at_a_time(rows, answers, revisions, along=()) -> None:
    """Elsewhere than on PostgreSQL: the `along` statements, then each table's rows in one
    bulk insert, each row's question id set once its question has one."""
    if along:
        with prepared_cursor() as cursor:
            for sql, params in along:
                cursor.execute(sql, params)
    Question.objects.bulk_create(rows)
    for answer in answers:
        answer.question = answer.question  # the question's id, now known
    Answer.objects.bulk_create(answers)
    for revision in revisions:
        revision.question = revision.question
    QuestionRevision.objects.bulk_create(revisions)


def _check_answer_kinds(questions: list[NewQuestion]) -> None:
    """Refuse an unanswerable question that carries an answer (original or additional: only
    plausible spans, and "no answer" judgments), and an answerable one with a plausible span."""
    for index, new in enumerate(questions):
        kinds = {answer.kind for answer in new.answers}
        if new.is_impossible and kinds - {Answer.Kind.PLAUSIBLE}:
            message = _("An unanswerable question has no answer, only plausible answers.")
        elif not new.is_impossible and Answer.Kind.PLAUSIBLE in kinds:
            message = _("Only an unanswerable question has a plausible answer.")
        elif not new.is_impossible and new.answers[:1] and new.answers[0].kind != "original":
            message = _("An answerable question's first answer is its original one.")
        else:
            continue
        raise ServiceError({f"questions[{index}].answers": [message]})


# Fields whose Python values psycopg sends as they are (Django's preparation is the identity
# for them on PostgreSQL): skipping it per value is most of the statement's Python time.
SENT_AS_IS = {
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "DateTimeField",
    "ForeignKey",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
    "UUIDField",
}


@cache
def _unnest_plan(model, names: tuple[str, ...], alias: str) -> tuple[str, tuple]:
    """`unnest(%s::type[], …) WITH ORDINALITY AS alias(column, …, n)` of these fields, and
    per field what to read of each object: (attname, field to prepare the value with, or
    None). Made once per model and fields (the types and columns never change while the
    process runs; working them out was a third of a submission's statement time). A foreign
    key to a question is sent as the question's uuid (`question_uuid`): its id is not known
    before the statement."""
    casts, columns, reads = [], [], []
    for name in names:
        if name == "question_uuid":
            casts.append("%s::uuid[]")
            columns.append(name)
            reads.append((name, None))
            continue
        field = model._meta.get_field(name)
        casts.append(f"%s::{field.db_type(connection)}[]")
        columns.append(field.column)
        reads.append((field.attname, None if field.get_internal_type() in SENT_AS_IS else field))
    source = f"unnest({', '.join(casts)}) WITH ORDINALITY AS {alias}({', '.join(columns)}, n)"
    return source, tuple(reads)


def _unnest_params(plan: tuple, objects) -> list[str]:
    """The arrays of an `_unnest_plan`'s fields, one per field, of these objects, each in
    PostgreSQL's text form (`array_text`): the statement casts each to its column's type."""
    params = []
    for attname, prepared_by in plan:
        if attname == "question_uuid":
            values = [item.question.uuid for item in objects]
        elif prepared_by is None:
            values = [getattr(item, attname) for item in objects]
        else:
            values = [
                prepared_by.get_db_prep_save(getattr(item, attname), connection) for item in objects
            ]
        params.append(array_text(values))
    return params


def array_text(values) -> str:
    """A one-dimensional array in PostgreSQL's text form, `{…}`, for a parameter the statement
    casts to the array's type (`%s::bigint[]`): psycopg, given a list, looks into it to find
    its type, which cost more than the rest of the submission's statement in Python.

    None is NULL; booleans t and f; integers and floats as Python writes them (floats round
    trip exactly); anything else (text, uuids, times in ISO 8601 with their offset) in double
    quotes, a backslash or a double quote escaped by a backslash, so that every character
    arrives as it is (commas, braces, spaces, the word NULL)."""
    return "{" + ",".join(map(_array_item, values)) + "}"


def _array_item(value) -> str:
    if value is None:
        return "NULL"
    if value is True or value is False:
        return "t" if value else "f"
    if isinstance(value, int):
        return int.__repr__(value)  # an IntegerChoices member writes its number, not its name
    if isinstance(value, float):
        return float.__repr__(value)
    if isinstance(value, str):
        text = str.__str__(value)  # a TextChoices member: its value
    elif isinstance(value, date):  # a datetime too
        text = value.isoformat()
    else:
        text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fields(model, *, without=("id",)) -> tuple[str, ...]:
    return tuple(f.name for f in model._meta.concrete_fields if f.name not in without)


@cache
def _store_statement(along: tuple[str, ...] = ()) -> tuple[str, tuple, tuple, tuple]:
    """The one statement `_store_in_one_statement` sends, and the plans of its three arrays'
    sources: made once per set of `along` statements (its text depends on the models and
    those only), which come first as WITH clauses of their own."""
    question_names = _fields(Question)
    answer_names = _fields(Answer, without=("id", "question"))
    revision_names = _fields(QuestionRevision, without=("id", "question"))
    q_source, q_plan = _unnest_plan(Question, question_names, "x")
    a_source, a_plan = _unnest_plan(Answer, ("question_uuid", *answer_names), "y")
    r_source, r_plan = _unnest_plan(QuestionRevision, ("question_uuid", *revision_names), "z")

    def columns(model, names):
        return ", ".join(model._meta.get_field(name).column for name in names)

    answer_columns = columns(Answer, answer_names)
    revision_columns = columns(QuestionRevision, revision_names)
    first = "".join(f"s{number} AS ({text}),\n" for number, text in enumerate(along))
    sql = f"""
        WITH {first}q AS (
            INSERT INTO annotation_question ({columns(Question, question_names)})
            SELECT {columns(Question, question_names)} FROM {q_source} ORDER BY x.n
            RETURNING id, uuid),
        a AS (
            INSERT INTO annotation_answer (question_id, {answer_columns})
            SELECT q.id, {", ".join("y." + c for c in answer_columns.split(", "))}
            FROM {a_source} JOIN q ON q.uuid = y.question_uuid ORDER BY y.n
            RETURNING id, question_id, author_id),
        r AS (
            INSERT INTO annotation_questionrevision (question_id, {revision_columns})
            SELECT q.id, {", ".join("z." + c for c in revision_columns.split(", "))}
            FROM {r_source} JOIN q ON q.uuid = z.question_uuid ORDER BY z.n)
        SELECT id, uuid, NULL::bigint, NULL::bigint FROM q
        UNION ALL SELECT id, NULL::uuid, question_id, author_id FROM a"""
    return sql, q_plan, a_plan, r_plan


def _store_in_one_statement(rows, answers, revisions, along=()) -> None:
    """PostgreSQL: insert the questions, then their answers and versions joined to the new
    questions by uuid, in one statement, each table in the order given (ids follow it, as
    with the ORM), after the `along` statements; set the ids on the objects."""
    sql, q_plan, a_plan, r_plan = _store_statement(tuple(text for text, _params in along))
    params = [
        *(value for _text, values in along for value in values),
        *_unnest_params(q_plan, rows),
        *_unnest_params(a_plan, answers),
        *_unnest_params(r_plan, revisions),
    ]
    with prepared_cursor() as cursor:
        cursor.execute(sql, params)
        made = cursor.fetchall()
    ids = {uuid: pk for pk, uuid, _question, _author in made if uuid is not None}
    for question in rows:
        question.pk = ids[question.uuid]
        question._state.adding = False
    answer_ids = {(q, author): pk for pk, uuid, q, author in made if uuid is None}
    for answer in answers:
        answer.question = answer.question  # its question_id, from the question's new id
        answer.pk = answer_ids[answer.question_id, answer.author_id]
        answer._state.adding = False
    for revision in revisions:
        revision.question = revision.question
