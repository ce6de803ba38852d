"""Additional answers: every dev and test question gets more answers from other annotators.

FQuAD collected two more answers per dev and test question, each from an annotator who is
neither the question's author nor one of its other answerers, so that human performance can
be measured. The rules hold under concurrency: a question's answer item has as many places as
answers still wanted (`annotation.services.items`), a claim takes one under the item's row
lock, and the database refuses a second answer (or a second live lease) of one person on one
question.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.models import Answer, Campaign, Lease
from annotation.selectors.qualification import qualification_item_of
from annotation.services.claims import Claim, claim_next
from annotation.services.gold import gold_answer_submit, is_gold_lease
from annotation.services.items import item_answered
from annotation.services.qualification import check_qualified, qualification_answer_submit
from annotation.services.work import (
    check_kind,
    check_open,
    lease_locked,
    reopen_expired,
    taken_message,
)
from annotation.validation import seconds_problems, span_problems
from core.errors import ServiceError


def answer_claim_next(*, campaign: Campaign, annotator) -> Claim | None:
    """Return the annotator's answer lease on this campaign, or claim the next question."""
    return claim_next(campaign=campaign, user=annotator, kind=Lease.Kind.ANSWER)


@dataclass(frozen=True)
class CleanAnswer:
    answer_start: int
    answer_text: str
    no_answer: bool
    seconds_spent: int


def check_answer(paragraph: str, data) -> CleanAnswer:
    """Return the submitted answer, or raise a ServiceError naming the fields at fault."""
    if not isinstance(data, dict):
        raise ServiceError({"detail": [_("Send an object: answer_start and answer_text.")]})
    no_answer = data.get("no_answer", False)
    if not isinstance(no_answer, bool):
        raise ServiceError({"no_answer": [_("true or false.")]})
    seconds = data.get("seconds_spent", 0)
    errors = seconds_problems(seconds, _)
    if not no_answer:
        errors |= span_problems(paragraph, data.get("answer_start"), data.get("answer_text"), _)
    elif data.get("answer_text") not in (None, ""):
        errors["no_answer"] = [_("Either select an answer or say there is none, not both.")]
    if errors:
        raise ServiceError({k: v if isinstance(v, list) else [v] for k, v in errors.items()})
    if no_answer:
        return CleanAnswer(0, "", True, seconds)
    return CleanAnswer(data["answer_start"], data["answer_text"], False, seconds)


def answer_submit(*, lease: Lease, data, locked: bool = False) -> Answer:
    """Store the annotator's additional answer (or "no answer") to the leased question."""
    with transaction.atomic(savepoint=not locked):  # a locked lease: the caller's own
        return _answer_submit(lease=lease, data=data, locked=locked)


def _answer_submit(*, lease: Lease, data, locked: bool = False) -> Answer:
    given, lease = lease, lease_locked(lease, locked)
    check_open(lease)
    check_kind(lease, Lease.Kind.ANSWER)
    if lease.question.author_id == lease.annotator_id:
        raise ServiceError({"lease": [_("You cannot answer your own question again.")]}, status=403)
    clean = check_answer(lease.paragraph.text, data)
    item = qualification_item_of(lease)
    if item is not None:  # the qualification round: scored, kept apart, decided at the last
        answer, now = _round_answer(item, lease, clean)
    else:
        check_qualified(lease)
        if is_gold_lease(lease):
            answer, now = _gold_answer(lease, clean)
        else:
            answer, now = _dataset_answer(lease, clean)
    for each in (given, lease):
        each.status, each.finished_at = Lease.Status.SUBMITTED, now
    return answer


def _round_answer(item, lease: Lease, clean: CleanAnswer) -> tuple[Answer, datetime]:
    """Score the answer to a qualification round's question; it is never saved as an answer:
    the one returned carries the round's item for the response's feedback."""
    now = timezone.now()
    item = qualification_answer_submit(item=item, lease=lease, clean=clean, now=now)
    answer = Answer.additional_given(lease, clean)
    answer.qualification_item = item  # for the response's feedback, never saved
    return answer, now


def _gold_answer(lease: Lease, clean: CleanAnswer) -> tuple[Answer, datetime]:
    """Score the answer to a gold question and keep it apart: never an answer of the dataset
    (annotation.services.gold). An expired gold lease comes back whatever holds the item."""
    if lease.status == Lease.Status.EXPIRED:
        expires = timezone.now() + timedelta(minutes=lease.campaign.lease_minutes)
        Lease.objects.filter(pk=lease.pk).update(
            status=Lease.Status.ACTIVE, finished_at=None, expires_at=expires
        )
    now = timezone.now()
    return gold_answer_submit(lease=lease, clean=clean, now=now), now


def _dataset_answer(lease: Lease, clean: CleanAnswer) -> tuple[Answer, datetime]:
    """Store the additional answer with its lease marked sent, and take the question's item
    one answer nearer done; a second answer of the same person, or a lease someone else
    took meanwhile, is refused."""
    reopen_expired(lease)
    now = timezone.now()
    question = lease.question
    try:
        with transaction.atomic():
            Lease.objects.filter(pk=lease.pk).update(status=Lease.Status.SUBMITTED, finished_at=now)
            answer = Answer.additional_given(lease, clean)
            answer.question = question  # the row at hand, not read again
            answer.save(force_insert=True)
    except IntegrityError:
        if Answer.objects.filter(question=question, author_id=lease.annotator_id).exists():
            raise ServiceError(
                {"lease": [_("You already answered this question.")]}, status=409
            ) from None
        raise ServiceError({"lease": [taken_message()]}, status=409) from None
    item_answered(question_pk=question.pk, campaign_pk=lease.campaign_id)
    return answer, now
