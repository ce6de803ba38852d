"""The annotators' work loop: claim a paragraph, save drafts, submit questions, give it back.

Every function here is a service: one transaction, the rules, and a `ServiceError` naming the
field when the input is refused (nothing is written then).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.roles import Role
from annotation.locks import lease_lock, paragraph_lock_next
from annotation.models import Answer, Campaign, Lease, Question
from annotation.question_types import classify
from annotation.validation import check_questions
from core.errors import ServiceError
from core.inputs import json_has_bad_characters

MAX_DRAFT_BYTES = 64_000


def taken_message() -> str:
    return _(
        "Your lease expired and another annotator took this paragraph. "
        "Your questions are kept in your draft; copy them before leaving."
    )


CLAIM_ATTEMPTS = 5


@dataclass(frozen=True)
class Claim:
    lease: Lease
    created: bool


def _check_can_work(campaign: Campaign, annotator) -> None:
    if not annotator.has_role(Role.ANNOTATOR):
        raise ServiceError({"detail": [_("Only annotators write questions.")]}, status=403)
    if not campaign.active:
        raise ServiceError({"campaign": [_("This campaign is closed.")]}, status=409)
    if campaign.kind != Campaign.Kind.QUESTIONS:
        raise ServiceError(
            {"campaign": [_("This campaign does not ask for questions.")]}, status=409
        )


def _expire_overdue(campaign: Campaign, now) -> None:
    """Give the paragraphs of overdue leases back to the pool."""
    Lease.objects.filter(campaign=campaign, status=Lease.Status.ACTIVE, expires_at__lt=now).update(
        status=Lease.Status.EXPIRED, finished_at=now
    )


def _revive_own_draft(campaign: Campaign, annotator, now) -> Lease | None:
    """Give back the annotator's expired lease with a draft, if nobody took its paragraph."""
    lease = (
        Lease.objects.filter(campaign=campaign, annotator=annotator, status=Lease.Status.EXPIRED)
        .exclude(draft={})
        .order_by("-created_at")
        .first()
    )
    if lease is None or _paragraph_taken(lease):
        return None
    Lease.objects.filter(pk=lease.pk).update(
        status=Lease.Status.ACTIVE,
        finished_at=None,
        expires_at=now + timedelta(minutes=campaign.lease_minutes),
    )
    lease.refresh_from_db()
    return lease


def _claim_once(campaign: Campaign, annotator) -> Claim | None:
    now = timezone.now()
    with transaction.atomic():
        _expire_overdue(campaign, now)
        current = Lease.objects.filter(
            campaign=campaign, annotator=annotator, status=Lease.Status.ACTIVE
        ).first()
        if current is not None:
            return Claim(current, created=False)
        revived = _revive_own_draft(campaign, annotator, now)
        if revived is not None:
            return Claim(revived, created=False)
        paragraph = paragraph_lock_next(campaign=campaign, annotator=annotator)
        if paragraph is None:
            return None
        lease = Lease.objects.create(
            campaign=campaign,
            paragraph=paragraph,
            annotator=annotator,
            expires_at=now + timedelta(minutes=campaign.lease_minutes),
        )
        return Claim(lease, created=True)


def lease_claim_next(*, campaign: Campaign, annotator) -> Claim | None:
    """Return the annotator's lease on this campaign, or claim the next free paragraph.

    None means nothing is left for this annotator. A claim that loses a race on the unique
    constraints is retried with the next paragraph.
    """
    _check_can_work(campaign, annotator)
    for _attempt in range(CLAIM_ATTEMPTS):
        try:
            return _claim_once(campaign, annotator)
        except IntegrityError:
            continue
    raise ServiceError({"lease": [_("Many people are claiming at once; try again.")]}, status=409)


def lease_get(*, lease_pk: int, annotator) -> Lease:
    """Return a lease of this annotator; another person's lease is refused."""
    lease = (
        Lease.objects.select_related("campaign", "paragraph__article").filter(pk=lease_pk).first()
    )
    if lease is None:
        raise ServiceError({"lease": [_("No such lease.")]}, status=404)
    if lease.annotator_id != annotator.pk:
        raise ServiceError({"lease": [_("This lease belongs to another annotator.")]}, status=403)
    return lease


def _check_open(lease: Lease) -> None:
    if lease.status == Lease.Status.SUBMITTED:
        raise ServiceError({"lease": [_("This paragraph was already submitted.")]}, status=409)
    if lease.status == Lease.Status.RELEASED:
        raise ServiceError({"lease": [_("This paragraph was given back.")]}, status=409)


def draft_save(*, lease: Lease, draft) -> Lease:
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
    with transaction.atomic():
        locked = lease_lock(lease_pk=lease.pk)
        _check_open(locked)
        saved = {"draft": draft, "draft_saved_at": now}
        renewed = {"expires_at": now + timedelta(minutes=lease.campaign.lease_minutes)}
        if locked.status == Lease.Status.ACTIVE:
            renewed["expires_at"] = max(locked.expires_at, renewed["expires_at"])
        elif _paragraph_taken(locked):
            renewed = {}  # the draft is kept; the page warns that the paragraph is gone
        else:
            renewed |= {"status": Lease.Status.ACTIVE, "finished_at": None}
        try:
            with transaction.atomic():  # a claim may take the paragraph meanwhile
                Lease.objects.filter(pk=lease.pk).update(**saved, **renewed)
        except IntegrityError:
            Lease.objects.filter(pk=lease.pk).update(**saved)
    lease.refresh_from_db()
    return lease


def _paragraph_taken(lease: Lease) -> bool:
    """Tell whether another lease holds or finished this lease's paragraph."""
    return (
        Lease.objects.filter(
            campaign_id=lease.campaign_id,
            paragraph_id=lease.paragraph_id,
            status__in=[Lease.Status.ACTIVE, Lease.Status.SUBMITTED],
        )
        .exclude(pk=lease.pk)
        .exists()
    )


def _reopen_expired(lease: Lease) -> None:
    """Let an expired lease's own annotator submit, unless someone else took the paragraph."""
    if _paragraph_taken(lease):
        raise ServiceError({"lease": [taken_message()]}, status=409)


@transaction.atomic
def questions_submit(*, lease: Lease, questions) -> list[Question]:
    """Store the questions of a paragraph with their answer spans, all or none."""
    locked = lease_lock(lease_pk=lease.pk)
    _check_open(locked)
    campaign, paragraph = lease.campaign, lease.paragraph
    errors, clean = check_questions(
        paragraph.text, questions, low=campaign.questions_min, high=campaign.questions_max
    )
    if errors:
        raise ServiceError(errors)
    if locked.status == Lease.Status.EXPIRED:
        _reopen_expired(locked)
    now = timezone.now()
    try:
        with transaction.atomic():  # a claim may take the paragraph between check and update
            Lease.objects.filter(pk=lease.pk).update(status=Lease.Status.SUBMITTED, finished_at=now)
    except IntegrityError:
        raise ServiceError({"lease": [taken_message()]}, status=409) from None
    stored = Question.objects.bulk_create(
        Question(
            campaign=campaign,
            paragraph=paragraph,
            lease=lease,
            author_id=lease.annotator_id,
            position=position,
            text=item.text,
            question_type=classify(item.text),
            seconds_spent=item.seconds_spent,
        )
        for position, item in enumerate(clean)
    )
    Answer.objects.bulk_create(
        Answer(
            question=question,
            author_id=lease.annotator_id,
            answer_start=item.answer_start,
            text=item.answer_text,
            kind=Answer.Kind.ORIGINAL,
            seconds_spent=item.seconds_spent,
        )
        for question, item in zip(stored, clean, strict=True)
    )
    lease.status, lease.finished_at = Lease.Status.SUBMITTED, now
    return stored


def lease_release(*, lease: Lease, reason: str, note: str = "") -> Lease:
    """Give the paragraph back: skipped (others get it) or reported unsuitable (nobody does)."""
    if reason not in Lease.Reason.values:
        raise ServiceError({"reason": [_("Give the reason: skip or unsuitable.")]})
    if len(note) > 1000:
        raise ServiceError({"note": [_("At most 1,000 characters.")]})
    with transaction.atomic():
        locked = lease_lock(lease_pk=lease.pk)
        _check_open(locked)
        Lease.objects.filter(pk=lease.pk).update(
            status=Lease.Status.RELEASED,
            release_reason=reason,
            release_note=note.strip(),
            finished_at=timezone.now(),
        )
    lease.refresh_from_db()
    return lease
