"""Reviews: reviewers audit the sampled questions, approving, rejecting or correcting them.

A correction never overwrites: it adds a version to the question's history (who, when, what),
and the question and its original answer then show that latest version.

An unanswerable question (`is_impossible`) is audited the same way, on its plausible span: to
approve it says "really unanswerable", a correction fixes its text or plausible span and it
stays unanswerable, and the verdict `answerable` says that the paragraph does answer it: the
reviewer gives the answer span, the question becomes answerable and its plausible answer row
becomes its original answer with that span (the first versions keep what it was).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.events import answer_changed
from annotation.locks import question_lock
from annotation.models import Answer, Campaign, Lease, Question, RejectReason, Review
from annotation.question_types import classify_in
from annotation.selectors.questions import reviewed_answer
from annotation.services.audit import revision_add
from annotation.services.claims import Claim, claim_next
from annotation.services.items import items_close_question, items_follow_review
from annotation.services.work import (
    check_kind,
    check_open,
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
    Review.Verdict.ANSWERABLE: Question.Status.CORRECTED,
}

# The verdicts that write a new version of the question.
REVISING = (Review.Verdict.CORRECT, Review.Verdict.ANSWERABLE)
SPAN_FIELDS = ("question_text", "answer_start", "answer_text")


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
    is_impossible: bool = False


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


def _reason_problems(question: Question, verdict: str, reason) -> dict[str, str]:
    if verdict == Review.Verdict.REJECT:
        if reason not in RejectReason.values:
            return {"reason": _("Choose why the question is rejected.")}
        if question.is_impossible and reason == RejectReason.NOT_ANSWERED:
            return {
                "reason": _(
                    "This question is meant to be unanswerable: that the paragraph does not "
                    "answer it is no reason to reject it."
                )
            }
    elif reason not in ("", None):
        return {"reason": _("A reason goes with a rejection only.")}
    return {}


def _correction(question: Question, answer: Answer | None, data: dict) -> tuple[dict, dict]:
    """Return (errors, the corrected fields) of a correction; unchanged fields keep their value.

    An unanswerable question's span is its plausible answer, and it stays unanswerable; one
    imported without a plausible answer may stay without (a correction of its text alone)."""
    text = data.get("question_text", question.text)
    start = data.get("answer_start", answer.answer_start if answer else None)
    answer_text = data.get("answer_text", answer.text if answer else None)
    spanless = (
        question.is_impossible
        and answer is None
        and not any(key in data for key in ("answer_start", "answer_text"))
    )
    errors = question_text_problems(text, _)
    errors = {"question_text": errors["text"]} if errors else {}
    if not spanless:
        errors |= span_problems(
            question.paragraph.text, start, answer_text, _, plausible=question.is_impossible
        )
    if errors:
        return errors, {}
    text = " ".join(text.split())
    if spanless:
        start, answer_text = 0, ""
        unchanged = text == question.text
    else:
        unchanged = answer is not None and (text, start, answer_text) == (
            question.text,
            answer.answer_start,
            answer.text,
        )
    if unchanged:
        return {"verdict": _("Nothing was changed: approve the question instead.")}, {}
    return {}, {
        "text": text,
        "answer_start": start,
        "answer_text": answer_text,
        "is_impossible": question.is_impossible,
    }


def _answerable(question: Question, data: dict) -> tuple[dict, dict]:
    """Return (errors, the new version's fields) of the verdict `answerable`: the reviewer's
    answer span (required), and the question's text, corrected or kept."""
    if not question.is_impossible:
        return {
            "verdict": _("Only an unanswerable question can be marked answerable: correct it.")
        }, {}
    text = data.get("question_text", question.text)
    start, answer_text = data.get("answer_start"), data.get("answer_text")
    errors = question_text_problems(text, _)
    errors = {"question_text": errors["text"]} if errors else {}
    errors |= span_problems(question.paragraph.text, start, answer_text, _)
    if errors:
        return errors, {}
    return {}, {
        "text": " ".join(text.split()),
        "answer_start": start,
        "answer_text": answer_text,
        "is_impossible": False,
    }


def check_verdict(question: Question, answer: Answer | None, data) -> Verdict:
    """Return the submitted verdict, or raise a ServiceError naming the fields at fault.

    `answer` is the span under review (`reviewed_answer`)."""
    if not isinstance(data, dict):
        raise ServiceError({"detail": [_("Send an object with the verdict.")]})
    verdict = data.get("verdict")
    if verdict not in Review.Verdict.values:
        raise ServiceError({"verdict": [_("Choose approve, reject, correct or answerable.")]})
    comment = data.get("comment") or ""
    errors = _reason_problems(question, verdict, data.get("reason") or "")
    errors |= _comment_problems(comment)
    errors |= seconds_problems(data.get("seconds_spent", 0), _)
    fields: dict = {}
    if verdict == Review.Verdict.CORRECT:
        problems, fields = _correction(question, answer, data)
        errors |= problems
    elif verdict == Review.Verdict.ANSWERABLE:
        problems, fields = _answerable(question, data)
        errors |= problems
    elif any(key in data for key in SPAN_FIELDS):
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


def _span_save(question: Question, answer: Answer | None, verdict: Verdict) -> None:
    """Give the reviewed answer row the new version's span (and its kind: original once the
    question is answerable); its author stays the question's author."""
    if not verdict.answer_text:  # an unanswerable question left without a plausible answer
        return
    kind = Answer.Kind.PLAUSIBLE if verdict.is_impossible else Answer.Kind.ORIGINAL
    span = {"answer_start": verdict.answer_start, "text": verdict.answer_text}
    if answer is None:
        Answer.objects.create(question=question, author_id=question.author_id, kind=kind, **span)
        return
    # Checked against the paragraph just now: no longer misaligned, if it was (imported).
    # A new span loses the answer type the analysis stored for the old one (issue 16).
    if (answer.answer_start, answer.text) != (verdict.answer_start, verdict.answer_text):
        span |= {"answer_type": "", "answer_type_pipeline": ""}
    Answer.objects.filter(pk=answer.pk).update(kind=kind, misaligned=False, **span)


def _answer_changes(answer: Answer | None, verdict: Verdict) -> bool:
    """Whether the verdict gives the question another original answer: a new span (an
    unanswerable question's plausible span is not its answer), or an answer at last."""
    if verdict.verdict == Review.Verdict.ANSWERABLE:
        return True
    if verdict.verdict != Review.Verdict.CORRECT or verdict.is_impossible:
        return False
    return answer is None or (answer.answer_start, answer.text) != (
        verdict.answer_start,
        verdict.answer_text,
    )


def _apply(question: Question, answer: Answer | None, verdict: Verdict, lease: Lease) -> Review:
    reviewer = lease.annotator
    revision = None
    changes = {"status": VERDICT_STATUS[verdict.verdict]}
    if verdict.verdict in REVISING:
        revision = revision_add(
            question=question,
            editor=reviewer,
            text=verdict.text,
            answer_start=verdict.answer_start,
            answer_text=verdict.answer_text,
            is_impossible=verdict.is_impossible,
        )
        changes |= {
            "text": verdict.text,
            "question_type": classify_in(question.campaign.language, verdict.text),
            "is_impossible": verdict.is_impossible,
        }
        _span_save(question, answer, verdict)
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
    answer = reviewed_answer(question)
    verdict = check_verdict(question, answer, data)
    reopen_expired(lease)
    now = timezone.now()
    Lease.objects.filter(pk=lease.pk).update(status=Lease.Status.SUBMITTED, finished_at=now)
    review = _apply(question, answer, verdict, lease)
    if _answer_changes(answer, verdict):
        # Model in the loop: its figures are scored again against the new answer (receivers
        # in the floors above, in this transaction).
        answer_changed.send(sender=Question, question=question)
    if verdict.verdict == Review.Verdict.REJECT:
        items_close_question(question.pk)
    if verdict.verdict in (Review.Verdict.REJECT, Review.Verdict.ANSWERABLE):
        items_follow_review(question)
    for each in (given, lease):
        each.status, each.finished_at = Lease.Status.SUBMITTED, now
    return review
