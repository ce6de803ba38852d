"""Reads of questions: who may see which, the list filters, a question's history, and the
questions that count in a dataset (releases, human performance, the analysis)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from annotation.models import Answer, Question, export_id_match
from core.errors import ServiceError
from core.inputs import check_text, parse_id
from core.roles import Role
from corpus.models import Split


def questions_visible_to(user) -> QuerySet:
    """Return the questions a user may read: annotators their own, reviewers and admins all."""
    if user.has_role(Role.ADMIN) or user.has_role(Role.REVIEWER):
        return Question.objects.all()
    if user.has_role(Role.ANNOTATOR):
        return Question.objects.filter(author=user)
    return Question.objects.none()


def answers_held_back(user, split: str) -> bool:
    """Tell whether a question's answers are held back from this user outside the work loop.

    The test split scores the leaderboard, so only admins read its answers; annotators and
    reviewers see a test question without them (a reviewer sees the one answer they audit,
    through the review lease; an annotator, the answers they type).
    """
    return split == Split.TEST and not user.has_role(Role.ADMIN)


def questions_filter(
    questions: QuerySet, *, campaign=None, author=None, status=None, split=None
) -> QuerySet:
    """Apply the list filters; a malformed value is refused naming the parameter."""
    if campaign:
        questions = questions.filter(campaign_id=parse_id(campaign, "campaign"))
    if author:
        questions = questions.filter(author__username=check_text(author, "author"))
    if status:
        if status not in Question.Status.values:
            raise ServiceError({"status": [_("Unknown status “%(s)s”.") % {"s": status}]})
        questions = questions.filter(status=status)
    if split:
        if split not in Split.values:
            raise ServiceError({"split": [_("Unknown split “%(split)s”.") % {"split": split}]})
        questions = questions.filter(paragraph__article__split=split)
    return questions.order_by("-created_at", "-pk")


def question_history(question: Question) -> dict:
    """Return a question's versions (oldest first) and its reviews."""
    return {
        "revisions": list(question.revisions.select_related("editor").order_by("number")),
        "reviews": list(
            question.reviews.select_related("reviewer", "revision").order_by("created_at", "pk")
        ),
    }


def questions_by_export_id(ids) -> QuerySet:
    """Return the questions released under these ids: an imported id, or else the uuid."""
    return Question.objects.filter(export_id_match(ids))


LOOKUP_BATCH = 2000  # ids per IN (…) query


def source_ids_stored(ids: list[str], language: str | None = None) -> set[str]:
    """Return which of these imported ids the platform already holds (in `language`'s
    campaigns only, when given: XQuAD's twelve languages share their ids)."""
    stored = set()
    questions = Question.objects.all()
    if language is not None:
        questions = questions.filter(campaign__language=language)
    for start in range(0, len(ids), LOOKUP_BATCH):
        batch = ids[start : start + LOOKUP_BATCH]
        stored |= set(questions.filter(source_id__in=batch).values_list("source_id", flat=True))
    return stored


def paragraph_existing_questions(paragraph_pk: int) -> list[Question]:
    """Return the answerable questions a paragraph already has, as the writers of
    unanswerable questions see them (their text; rejected ones aside)."""
    questions = Question.objects.filter(paragraph_id=paragraph_pk, is_impossible=False).exclude(
        status=Question.Status.REJECTED
    )
    return list(questions.order_by("position", "pk").only("pk", "text", "paragraph_id"))


def lease_sent_questions(lease) -> list[dict]:
    """The questions a lease sent, as its page shows them once sent: text, the answer (the
    plausible one of an unanswerable question), where it starts in the paragraph (code
    points; None without one) and whether it is unanswerable."""
    questions = Question.objects.filter(lease=lease).order_by("position", "pk")
    rows = []
    for question in questions.prefetch_related("answers"):
        kind = Answer.Kind.PLAUSIBLE if question.is_impossible else Answer.Kind.ORIGINAL
        answer = next((a for a in question.answers.all() if a.kind == kind), None)
        rows.append(
            {
                "text": question.text,
                "answer": answer.text if answer else "",
                "start": answer.answer_start if answer else None,
                "is_impossible": question.is_impossible,
            }
        )
    return rows


def reviewed_answer(question: Question) -> Answer | None:
    """The span a review audits: the original answer, or an unanswerable question's plausible
    one (None when an imported unanswerable question came without it)."""
    kind = Answer.Kind.PLAUSIBLE if question.is_impossible else Answer.Kind.ORIGINAL
    return question.answers.filter(kind=kind).order_by("pk").first()


def shown_answers() -> QuerySet:
    """Return the answers a dataset shows: a span (not "no answer", not the plausible span of
    an unanswerable question) at its right place."""
    return Answer.objects.filter(
        no_answer=False,
        misaligned=False,
        kind__in=[Answer.Kind.ORIGINAL, Answer.Kind.ADDITIONAL],
    )


def plausible_answers() -> QuerySet:
    """Return the plausible spans of unanswerable questions a dataset shows (SQuAD 2.0)."""
    return Answer.objects.filter(kind=Answer.Kind.PLAUSIBLE, misaligned=False)


def dataset_questions(
    *,
    split: str | None = None,
    approved_only: bool = False,
    language: str | None = None,
    unanswerable: bool = False,
) -> QuerySet:
    """Return the questions that count in the dataset, unordered.

    The one rule for releases, human performance and the dataset analysis: never a rejected
    question, nor an answerable one left without an answer to show (an imported question whose
    answers are all misaligned). Unanswerable questions count only with `unanswerable=True`
    (a SQuAD v2.0 release, its scores); a v1.1 dataset has none. `approved_only` keeps the
    reviewed ones (approved or corrected).
    """
    if unanswerable:
        # "unanswerable, or with an answer to show": the answers' ids as a set the planner
        # hashes once (`hashed SubPlan`). As `(answerable AND EXISTS …) OR unanswerable`, the
        # EXISTS ran once per question, and at FQuAD 2.0 size its cost estimate set off
        # PostgreSQL's JIT compiler: about a second of compiling per release query.
        answered = Q(is_impossible=True) | Q(pk__in=shown_answers().values("question_id"))
    else:
        answered = Q(is_impossible=False) & Q(
            Exists(shown_answers().filter(question=OuterRef("pk")))
        )
    questions = Question.objects.exclude(status=Question.Status.REJECTED).filter(answered)
    if split:
        questions = questions.filter(paragraph__article__split=split)
    if approved_only:
        questions = questions.filter(
            status__in=[Question.Status.APPROVED, Question.Status.CORRECTED]
        )
    if language:
        questions = questions.filter(paragraph__article__language=language)
    return questions
