"""Reviews: reviewers audit the sampled questions, approving, rejecting or correcting them.

A correction never overwrites: it adds a version to the question's history (who, when, what),
and the question and its original answer then show that latest version.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.locks import question_lock
from annotation.models import Answer, Campaign, Lease, Question, RejectReason, Review
from annotation.question_types import classify
from annotation.services.audit import revision_add
from annotation.services.items import items_close_question
from annotation.services.work import (
    Claim,
    check_kind,
    check_open,
    claim_next,
    lease_locked,
    reopen_expired,
)
from annotation.validation import question_text_problems, seconds_problems, span_problems
from core.errors import ServiceError
from core.text import BAD_CHARACTERS

MAX_COMMENT_CHARS = 2000

VERDICT_STATUS = {
    Review.Verdict.APPROVE: Question.Status.APPROVED,
    Review.Verdict.REJECT: Question.Status.REJECTED,
    Review.Verdict.CORRECT: Question.Status.CORRECTED,
}


def review_claim_next(*, campaign: Campaign, reviewer) -> Claim | None:
    """Return the reviewer's review lease on this campaign, or claim the next sampled question."""
    return claim_next(campaign=campaign, user=reviewer, kind=Lease.Kind.REVIEW)


@dataclass(frozen=True)
class Verdict:
    verdict: str
    reason: str
    comment: str
    seconds_spent: int
    text: str | None = None
    answer_start: int | None = None
    answer_text: str | None = None


def _comment_problems(comment) -> dict[str, str]:
    if not isinstance(comment, str):
        return {"comment": _("A comment is text.")}
    if BAD_CHARACTERS.search(comment):
        return {
            "comment": _("The text holds characters that cannot be stored (NUL or broken Unicode).")
        }
    if len(comment) > MAX_COMMENT_CHARS:
        return {"comment": _("A comment has at most 2,000 characters.")}
    return {}


def _reason_problems(verdict: str, reason) -> dict[str, str]:
    if verdict == Review.Verdict.REJECT:
        if reason not in RejectReason.values:
            return {"reason": _("Choose why the question is rejected.")}
    elif reason not in ("", None):
        return {"reason": _("A reason goes with a rejection only.")}
    return {}


def _correction(question: Question, answer: Answer, data: dict) -> tuple[dict, dict]:
    """Return (errors, the corrected fields) of a correction; unchanged fields keep their value."""
    text = data.get("question_text", question.text)
    start = data.get("answer_start", answer.answer_start)
    answer_text = data.get("answer_text", answer.text)
    errors = question_text_problems(text, _)
    errors = {"question_text": errors["text"]} if errors else {}
    errors |= span_problems(question.paragraph.text, start, answer_text, _)
    if errors:
        return errors, {}
    text = " ".join(text.split())
    if (text, start, answer_text) == (question.text, answer.answer_start, answer.text):
        return {"verdict": _("Nothing was changed: approve the question instead.")}, {}
    return {}, {"text": text, "answer_start": start, "answer_text": answer_text}


def check_verdict(question: Question, answer: Answer, data) -> Verdict:
    """Return the submitted verdict, or raise a ServiceError naming the fields at fault."""
    if not isinstance(data, dict):
        raise ServiceError({"detail": [_("Send an object with the verdict.")]})
    verdict = data.get("verdict")
    if verdict not in Review.Verdict.values:
        raise ServiceError({"verdict": [_("Choose approve, reject or correct.")]})
    comment = data.get("comment") or ""
    errors = _reason_problems(verdict, data.get("reason") or "")
    errors |= _comment_problems(comment)
    errors |= seconds_problems(data.get("seconds_spent", 0), _)
    fields: dict = {}
    if verdict == Review.Verdict.CORRECT:
        problems, fields = _correction(question, answer, data)
        errors |= problems
    elif any(key in data for key in ("question_text", "answer_start", "answer_text")):
        errors["verdict"] = _("Only a correction changes the question or its answer.")
    if errors:
        raise ServiceError({key: [message] for key, message in errors.items()})
    return Verdict(
        verdict=verdict,
        reason=data.get("reason") or "",
        comment=comment.strip(),
        seconds_spent=data.get("seconds_spent", 0),
        **fields,
    )


def _apply(question: Question, answer: Answer, verdict: Verdict, lease: Lease) -> Review:
    reviewer = lease.annotator
    revision = None
    changes = {"status": VERDICT_STATUS[verdict.verdict]}
    if verdict.verdict == Review.Verdict.CORRECT:
        revision = revision_add(
            question=question,
            editor=reviewer,
            text=verdict.text,
            answer_start=verdict.answer_start,
            answer_text=verdict.answer_text,
        )
        changes |= {"text": verdict.text, "question_type": classify(verdict.text)}
        Answer.objects.filter(pk=answer.pk).update(
            answer_start=verdict.answer_start, text=verdict.answer_text
        )
    Question.objects.filter(pk=question.pk).update(**changes)
    return Review.objects.create(
        question=question,
        reviewer=reviewer,
        lease=lease,
        verdict=verdict.verdict,
        reason=verdict.reason,
        comment=verdict.comment,
        revision=revision,
        seconds_spent=verdict.seconds_spent,
    )


def review_submit(*, lease: Lease, data, locked: bool = False) -> Review:
    """Record the reviewer's verdict on the leased question, all or nothing."""
    with transaction.atomic(savepoint=not locked):  # a locked lease: the caller's own
        return _review_submit(lease=lease, data=data, locked=locked)


def _review_submit(*, lease: Lease, data, locked: bool = False) -> Review:
    given, lease = lease, lease_locked(lease, locked)
    check_open(lease)
    check_kind(lease, Lease.Kind.REVIEW)
    question = question_lock(question_pk=lease.question_id)
    if question.author_id == lease.annotator_id:
        raise ServiceError({"lease": [_("Nobody reviews their own question.")]}, status=403)
    if question.status != Question.Status.PENDING:
        raise ServiceError({"lease": [_("This question was already reviewed.")]}, status=409)
    answer = question.answers.filter(kind=Answer.Kind.ORIGINAL).first()
    verdict = check_verdict(question, answer, data)
    reopen_expired(lease)
    now = timezone.now()
    Lease.objects.filter(pk=lease.pk).update(status=Lease.Status.SUBMITTED, finished_at=now)
    review = _apply(question, answer, verdict, lease)
    if verdict.verdict == Review.Verdict.REJECT:
        items_close_question(question.pk)
    for each in (given, lease):
        each.status, each.finished_at = Lease.Status.SUBMITTED, now
    return review
