"""Questions imported from another dataset (SQuAD-format files: PIAF, FQuAD…), with every
answer they had.

The questions go to an inactive questions campaign named after the file, keep their id as
`source_id`, and are stored like written ones (`questions_store`). The first answer is the
original one, of the account `squad-import`; the others are additional answers of
`squad-import-2`, `squad-import-3`…, since one person gives at most one answer per question.
An unanswerable question (SQuAD 2.0 `is_impossible`) keeps its plausible answers the same way,
as answers of kind `plausible` (the first by `squad-import`, then `squad-import-2`…); it may
have none. The caller leaves out the questions whose id is already in the platform in that
language (`annotation.selectors.questions.source_ids_stored`); should another import store one
in the same campaign meanwhile, the unique (campaign, `source_id`) refuses it and the
transaction rolls back.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Max
from django.utils.translation import gettext as _

from accounts.services import holder_accounts_ensure
from annotation.models import Answer, Campaign, Question
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from core.errors import ServiceError
from corpus.models import Paragraph, Split

IMPORT_USER = "squad-import"
MAX_SOURCE_ID = 200  # Question.source_id
MAX_CAMPAIGN_NAME = 200  # Campaign.name


@dataclass(frozen=True)
class ImportedAnswer:
    text: str
    answer_start: int  # where the text is (repaired by the caller when it can be)
    misaligned: bool = False  # the text is not at answer_start: kept, left out of releases


@dataclass(frozen=True)
class ImportedQuestion:
    paragraph: Paragraph
    id: str  # its id in the dataset
    text: str  # verbatim: a dataset continued here must come back as it was
    answers: list[ImportedAnswer]  # the first is the original answer (or plausible ones)
    is_impossible: bool = False  # unanswerable: `answers` are its plausible answers


@dataclass
class QuestionsImported:
    questions: int = 0
    answers: int = 0  # of answerable questions
    unanswerable: int = 0  # questions
    plausible: int = 0  # answers of unanswerable questions


def questions_import(
    *, source: str, language: str, questions: list[ImportedQuestion]
) -> QuestionsImported:
    """Store questions new to the platform, with their answers (caller's transaction).

    `source` names the dataset (a file name): the questions go to the campaign "Import
    <source>", created the first time.
    """
    result = QuestionsImported()
    if not questions:
        return result
    campaign = _campaign_ensure(source, language)
    most = max(1, *(len(question.answers) for question in questions))
    users = holder_accounts_ensure(
        usernames=[IMPORT_USER] + [f"{IMPORT_USER}-{n}" for n in range(2, most + 1)]
    )
    new = [
        _new_question(question, position, users)
        for question, position in zip(questions, _positions(questions), strict=True)
    ]
    questions_store(campaign=campaign, questions=new)
    result.questions = len(new)
    for question in new:
        if question.is_impossible:
            result.unanswerable += 1
            result.plausible += len(question.answers)
        else:
            result.answers += len(question.answers)
    return result


def _new_question(question: ImportedQuestion, position: int, users: list) -> NewQuestion:
    """Return an imported question as `questions_store` takes it: the import account writes it
    and its first answer, the numbered import accounts the others."""
    return NewQuestion(
        paragraph=question.paragraph,
        author_id=users[0].pk,
        position=position,
        text=question.text,
        source_id=question.id,
        is_impossible=question.is_impossible,
        answers=[
            NewAnswer(
                author_id=users[index].pk,
                answer_start=answer.answer_start,
                text=answer.text,
                kind=_kind(question, index),
                misaligned=answer.misaligned,
            )
            for index, answer in enumerate(question.answers)
        ],
    )


def _kind(question: ImportedQuestion, index: int) -> str:
    if question.is_impossible:
        return Answer.Kind.PLAUSIBLE
    return Answer.Kind.ORIGINAL if index == 0 else Answer.Kind.ADDITIONAL


def _positions(questions: list[ImportedQuestion]) -> list[int]:
    """Number each question after the questions its paragraph already has."""
    pks = {question.paragraph.pk for question in questions}
    rows = Question.objects.filter(paragraph_id__in=pks).values("paragraph_id")
    last = Counter(
        {row["paragraph_id"]: row["last"] + 1 for row in rows.annotate(last=Max("position"))}
    )
    positions = []
    for question in questions:
        positions.append(last[question.paragraph.pk])
        last[question.paragraph.pk] += 1
    return positions


def _campaign_ensure(source: str, language: str) -> Campaign:
    """Return the source's import campaign in this language, created the first time
    (inactive, every split). A campaign holds one language: the same file name imported in
    another language (XQuAD's files share their ids, not their text) gets its own campaign,
    "Import <file> (<language>)", rather than mixing two languages in one."""
    name = f"Import {source}"[:MAX_CAMPAIGN_NAME]
    existing = Campaign.objects.filter(name=name).first()
    if existing is not None and existing.language != language:
        name = f"Import {source}"[: MAX_CAMPAIGN_NAME - len(language) - 3] + f" ({language})"
    campaign, _created = Campaign.objects.get_or_create(
        name=name,
        defaults={
            "kind": Campaign.Kind.QUESTIONS,
            "language": language,
            "splits": list(Split.values),
            "active": False,
        },
    )
    if campaign.kind != Campaign.Kind.QUESTIONS:
        message = _("The campaign “%(name)s” exists and does not hold questions; rename it first.")
        raise ServiceError({"path": [message % {"name": name}]})
    if campaign.language != language:
        message = _("The campaign “%(name)s” exists in another language; rename it first.")
        raise ServiceError({"path": [message % {"name": name}]})
    return campaign
