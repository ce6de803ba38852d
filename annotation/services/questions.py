"""How a question comes into the platform, whoever writes it: the one place that stores a
question with its answers and its first version.

The work loop stores what an annotator submits; an import stores what another dataset holds.
Both go through `questions_store`, so a question's type, its answers and its version 1 follow
the same rules whichever door it came by.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotation.models import Answer, Campaign, Lease, Question
from annotation.question_types import classify
from annotation.services.audit import revisions_start
from annotation.services.items import items_for_questions
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
    source_id: str = ""  # its id in the dataset it was imported from


def questions_store(*, campaign: Campaign, questions: list[NewQuestion]) -> list[Question]:
    """Store the questions, their answers and their version 1; return the questions.

    Runs in the caller's transaction, after the caller checked the input: the question type
    is classified here, the first answer of each question is its version 1, and the
    additional-answers campaigns get the new questions as items. The questions come back
    with their answers in hand (`question.answers.all()` reads no row).
    """
    stored = Question.objects.bulk_create(
        Question(
            campaign=campaign,
            paragraph=new.paragraph,
            lease=new.lease,
            author_id=new.author_id,
            position=new.position,
            text=new.text,
            question_type=classify(new.text),
            seconds_spent=new.seconds_spent,
            sampled_for_review=new.sampled_for_review,
            source_id=new.source_id,
        )
        for new in questions
    )
    answers = Answer.objects.bulk_create(
        Answer(
            question=question,
            author_id=answer.author_id,
            answer_start=answer.answer_start,
            text=answer.text,
            kind=answer.kind,
            seconds_spent=answer.seconds_spent,
            misaligned=answer.misaligned,
        )
        for question, new in zip(stored, questions, strict=True)
        for answer in new.answers
    )
    _answers_in_hand(stored, answers)
    firsts = {
        question.pk: (new.answers[0].answer_start, new.answers[0].text)
        for question, new in zip(stored, questions, strict=True)
    }
    revisions_start(stored, firsts)
    items_for_questions(stored)
    return stored


def _answers_in_hand(questions: list[Question], answers: list[Answer]) -> None:
    """Let `question.answers.all()` give the answers just stored without a query, as a
    `prefetch_related("answers")` read would."""
    held = {question.pk: [] for question in questions}
    for answer in answers:
        held[answer.question_id].append(answer)
    for question in questions:
        rows = Answer.objects.filter(question=question)
        rows._result_cache, rows._prefetch_done = held[question.pk], True
        question._prefetched_objects_cache = {"answers": rows}
