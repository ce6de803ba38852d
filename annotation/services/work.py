"""The annotators' work loop: claim a paragraph (`annotation.services.claims`), save drafts,
submit questions, give it back.

Every function here is a service: one transaction, the rules, and a `ServiceError` naming the
field when the input is refused (nothing is written then).
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.events import questions_written
from annotation.locks import lease_lock
from annotation.models import Answer, Campaign, Lease, Question
from annotation.selectors.questions import paragraph_existing_questions
from annotation.services.audit import review_sample
from annotation.services.claims import Claim, claim_next
from annotation.services.items import item_give_back, item_take, item_take_back
from annotation.services.qualification import check_qualified
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from annotation.validation import Asked, check_questions, question_marks, same_text
from core.errors import ServiceError
from core.inputs import check_text, json_has_bad_characters
from corpus.models import Paragraph

MAX_DRAFT_BYTES = 64_000


def taken_message() -> str:
    return _(
        "Your lease expired and someone else took this item. "
        "Your work is kept in your draft; copy it before leaving."
    )


def lease_claim_next(*, campaign: Campaign, annotator) -> Claim | None:
    """Return the annotator's writing lease on this campaign, or claim the next free paragraph.

    None means nothing is left for this annotator.
    """
    return claim_next(campaign=campaign, user=annotator, kind=Lease.Kind.WRITE)


def lease_get(*, lease_pk: int, annotator, lock: bool = False) -> Lease:
    """Return a lease of this annotator; another person's lease is refused.

    `lock=True` (inside the caller's transaction) locks its row in the same read: the caller
    then passes `locked=True` to the service it calls, which reads it no second time.
    """
    if lock:
        lease = lease_lock(lease_pk=lease_pk)
    else:
        leases = Lease.objects.select_related("campaign", "paragraph__article", "question")
        lease = leases.filter(pk=lease_pk).first()
    if lease is None:
        raise ServiceError({"lease": [_("No such lease.")]}, status=404)
    if lease.annotator_id != annotator.pk:
        raise ServiceError({"lease": [_("This lease belongs to another person.")]}, status=403)
    return lease


def lease_locked(lease: Lease, locked: bool) -> Lease:
    """The lease with its row locked: as given when the caller read it locked in this
    transaction (`lease_get(lock=True)`), else read again with its lock.

    A caller that passes `locked=True` opened the transaction for this one service call: the
    service then works in it without a savepoint of its own (an error rolls it all back).
    """
    return lease if locked else lease_lock(lease_pk=lease.pk)


def check_open(lease: Lease) -> None:
    """Refuse work on a lease that was already sent or given back."""
    if lease.status == Lease.Status.SUBMITTED:
        raise ServiceError({"lease": [_("This item was already submitted.")]}, status=409)
    if lease.status == Lease.Status.RELEASED:
        raise ServiceError({"lease": [_("This item was given back.")]}, status=409)


def check_kind(lease: Lease, kind: str) -> None:
    """Refuse a submission that does not fit the lease (questions on a review lease…)."""
    if lease.kind != kind:
        raise ServiceError(
            {
                "lease": [
                    _("This lease is for another kind of task (%(kind)s).")
                    % {"kind": lease.get_kind_display()}
                ]
            },
            status=409,
        )


def draft_save(*, lease: Lease, draft, locked: bool = False) -> Lease:
    """Keep the page's work in progress, whatever the lease's state, until it is submitted.

    Typing keeps an active lease alive, and brings an expired one back when nobody took its
    paragraph; otherwise the lease stays expired and the page tells its annotator.
    """
    if not isinstance(draft, dict):
        raise ServiceError({"draft": [_("A draft is a JSON object.")]})
    if json_has_bad_characters(draft):
        raise ServiceError(
            {
                "draft": [
                    _("The draft holds characters that cannot be stored (NUL or broken Unicode).")
                ]
            }
        )
    if len(json.dumps(draft, ensure_ascii=False).encode()) > MAX_DRAFT_BYTES:
        raise ServiceError({"draft": [_("A draft holds at most 64 kB.")]}, status=413)
    now = timezone.now()
    with transaction.atomic(savepoint=not locked):
        lease = lease_locked(lease, locked)
        check_open(lease)
        saved = {"draft": draft, "draft_saved_at": now}
        expires = now + timedelta(minutes=lease.campaign.lease_minutes)
        if lease.status == Lease.Status.ACTIVE:
            saved["expires_at"] = max(lease.expires_at, expires)
        elif lease_revive(lease, expires=expires):
            pass  # back to life, with the draft below
        # else: the draft is kept; the page warns that the item is gone
        Lease.objects.filter(pk=lease.pk).update(**saved)
    for name, value in saved.items():
        setattr(lease, name, value)
    return lease


def lease_revive(lease: Lease, *, expires) -> bool:
    """Bring an expired lease back to life if its place is still free; True if it came back.

    Writing and answering: the lease's item must still have a place (`item_take_back` takes
    it, under the item's row lock). Review: no other live review of the question.
    """
    if lease.kind == Lease.Kind.REVIEW:
        others = Lease.objects.filter(
            kind=Lease.Kind.REVIEW, status__in=Lease.LIVE, question_id=lease.question_id
        ).exclude(pk=lease.pk)
        if others.exists():
            return False
    elif not item_take_back(lease):
        return False
    back = {"status": Lease.Status.ACTIVE, "finished_at": None, "expires_at": expires}
    try:
        with transaction.atomic():  # the unique constraints on live leases are the last word
            Lease.objects.filter(pk=lease.pk).update(**back)
    except IntegrityError:
        return False
    for name, value in back.items():
        setattr(lease, name, value)
    return True


def reopen_expired(lease: Lease) -> None:
    """Let an expired lease's own holder submit, unless someone else took the item."""
    if lease.status != Lease.Status.EXPIRED:
        return
    expires = timezone.now() + timedelta(minutes=lease.campaign.lease_minutes)
    if not lease_revive(lease, expires=expires):
        raise ServiceError({"lease": [taken_message()]}, status=409)


def questions_asked(lease: Lease) -> Asked:
    """What a paragraph's submission must hold under its campaign's settings.

    A campaign that asks for unanswerable questions (of that kind, or mixed) refuses a new
    question that repeats one the page lists: the paragraph's answerable questions (its
    unanswerable ones are not shown, nor told apart by a refusal)."""
    campaign = lease.campaign
    only = campaign.kind == Campaign.Kind.UNANSWERABLE
    marks = question_marks(campaign.language)
    existing = frozenset()
    if only or campaign.unanswerable_per_paragraph:
        shown = paragraph_existing_questions(lease.paragraph_id)  # what the page lists
        existing = frozenset(same_text(question.text, marks) for question in shown)
    return Asked(
        marks=marks,
        low=campaign.questions_min,
        high=campaign.questions_max,
        unanswerable=0 if only else campaign.unanswerable_per_paragraph,
        only_unanswerable=only,
        existing=existing,
    )


def questions_submit(*, lease: Lease, questions, locked: bool = False) -> list[Question]:
    """Store the questions of a paragraph with their answer spans, all or none."""
    with transaction.atomic(savepoint=not locked):  # a locked lease: the caller's own
        return _questions_submit(lease=lease, questions=questions, locked=locked)


def _questions_submit(*, lease: Lease, questions, locked: bool = False) -> list[Question]:
    given, lease = lease, lease_locked(lease, locked)
    check_open(lease)
    check_kind(lease, Lease.Kind.WRITE)
    check_qualified(lease)
    campaign, paragraph = lease.campaign, lease.paragraph
    errors, clean = check_questions(
        paragraph.text, questions, asked=questions_asked(lease), _=_, ngettext=ngettext
    )
    if errors:
        raise ServiceError(errors)
    reopen_expired(lease)
    now = timezone.now()
    # The lease marked sent and the review counter saved go with the questions' statement.
    along = [_lease_sent(lease.pk, now)]
    sampled = review_sample(
        campaign=campaign, annotator_id=lease.annotator_id, count=len(clean), along=along
    )
    stored = questions_store(
        along=along, campaign=campaign, questions=_new_questions(lease, clean, sampled)
    )
    # The floors above add their part in this transaction (the model's answers: evaluation).
    questions_written.send(
        sender=Question, lease=lease, questions=stored, keys=[item.model_key for item in clean]
    )
    for each in (given, lease):
        each.status, each.finished_at = Lease.Status.SUBMITTED, now
    return stored


def _new_questions(lease: Lease, clean: list, sampled: list) -> list[NewQuestion]:
    """The checked questions of a submission as `questions_store` takes them, each with its
    review sampling and its one answer (a plausible span on an unanswerable question)."""
    return [
        NewQuestion(
            paragraph=lease.paragraph,
            lease=lease,
            author_id=lease.annotator_id,
            position=position,
            text=item.text,
            seconds_spent=item.seconds_spent,
            sampled_for_review=picked.picked,
            review_rate=picked.rate,
            review_why=picked.why,
            is_impossible=item.is_impossible,
            answers=[
                NewAnswer(
                    author_id=lease.annotator_id,
                    answer_start=item.answer_start,
                    text=item.answer_text,
                    seconds_spent=item.seconds_spent,
                    kind=Answer.Kind.PLAUSIBLE if item.is_impossible else Answer.Kind.ORIGINAL,
                )
            ],
        )
        for position, (item, picked) in enumerate(zip(clean, sampled, strict=True))
    ]


def _lease_sent(lease_pk: int, now) -> tuple[str, list]:
    """The statement that marks a lease submitted, for `questions_store` to run (`along`):
    hand-written, prepared on PostgreSQL (the ORM's `update()` compiled it again on every
    submission); the time adapted as the ORM adapts it for the backend (SQLite keeps naive
    UTC text)."""
    return (
        "UPDATE annotation_lease SET status = %s, finished_at = %s WHERE id = %s",
        [str(Lease.Status.SUBMITTED), connection.ops.adapt_datetimefield_value(now), lease_pk],
    )


def questions_write(*, campaign: Campaign, paragraph: Paragraph, annotator, questions):
    """Store questions on a chosen paragraph as if the annotator claimed and sent it at once.

    One write lease, submitted with the same checks and review sampling as any submission;
    all or nothing. For seeding work (the demo), not for annotators, who claim.
    """
    now = timezone.now()
    message = _("Someone holds this paragraph already.")
    try:
        with transaction.atomic():
            if not item_take(campaign=campaign, paragraph=paragraph):
                raise ServiceError({"paragraph": [message]}, status=409)
            lease = Lease.objects.create(
                campaign=campaign,
                paragraph=paragraph,
                annotator=annotator,
                expires_at=now + timedelta(minutes=campaign.lease_minutes),
            )
            return questions_submit(lease=lease, questions=questions)
    except IntegrityError:
        raise ServiceError({"paragraph": [message]}, status=409) from None


def lease_release(*, lease: Lease, reason: str, note: str = "", locked: bool = False) -> Lease:
    """Give the item back: skipped (others get it) or reported unsuitable.

    A paragraph reported unsuitable is offered to nobody else in the campaign; a question
    reported unsuitable to answer stays open to the others (their answers tell).
    """
    if reason not in Lease.Reason.values:
        raise ServiceError({"reason": [_("Give the reason: skip or unsuitable.")]})
    if not isinstance(note, str) or len(note) > 1000:
        raise ServiceError({"note": [_("At most 1,000 characters.")]})
    check_text(note, "note")
    with transaction.atomic(savepoint=not locked):
        lease = lease_locked(lease, locked)
        check_open(lease)
        ended = {
            "status": Lease.Status.RELEASED,
            "release_reason": reason,
            "release_note": note.strip(),
            "finished_at": timezone.now(),
        }
        Lease.objects.filter(pk=lease.pk).update(**ended)
        if not (lease.kind == Lease.Kind.WRITE and reason == Lease.Reason.UNSUITABLE):
            item_give_back(lease)
    for name, value in ended.items():
        setattr(lease, name, value)
    return lease
