"""The annotators' work loop: claim a paragraph, save drafts, submit questions, give it back.

Every function here is a service: one transaction, the rules, and a `ServiceError` naming the
field when the input is refused (nothing is written then).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.locks import lease_lock, paragraph_lock_next, question_lock
from annotation.models import Campaign, Lease, Question
from annotation.selectors.candidates import answer_places_taken
from annotation.services.audit import review_sample
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from annotation.validation import check_questions
from core.errors import ServiceError
from core.inputs import check_text, json_has_bad_characters
from core.roles import Role
from corpus.models import Paragraph

MAX_DRAFT_BYTES = 64_000


def taken_message() -> str:
    return _(
        "Your lease expired and someone else took this item. "
        "Your work is kept in your draft; copy it before leaving."
    )


CLAIM_ATTEMPTS = 5

# Which kind of campaign each kind of lease belongs to, and who may hold it.
CAMPAIGN_KIND = {
    Lease.Kind.WRITE: Campaign.Kind.QUESTIONS,
    Lease.Kind.ANSWER: Campaign.Kind.ADDITIONAL_ANSWERS,
    Lease.Kind.REVIEW: Campaign.Kind.QUESTIONS,
}


@dataclass(frozen=True)
class Claim:
    lease: Lease
    created: bool


@dataclass(frozen=True)
class Item:
    """What a claim reserves: a paragraph, and the question for answers and reviews."""

    paragraph: Paragraph
    question: Question | None = None


def check_can_work(campaign: Campaign, user, kind: str) -> None:
    """Refuse a person who may not take this kind of item on this campaign now."""
    if kind == Lease.Kind.REVIEW:
        if not user.has_role(Role.REVIEWER):
            raise ServiceError({"detail": [_("Only reviewers audit questions.")]}, status=403)
    elif not user.has_role(Role.ANNOTATOR):
        raise ServiceError({"detail": [_("Only annotators write questions.")]}, status=403)
    # A closed questions campaign still has its sampled questions to audit.
    if not campaign.active and kind != Lease.Kind.REVIEW:
        raise ServiceError({"campaign": [_("This campaign is closed.")]}, status=409)
    if campaign.kind != CAMPAIGN_KIND[kind]:
        message = {
            Lease.Kind.WRITE: _("This campaign does not ask for questions."),
            Lease.Kind.ANSWER: _("This campaign does not ask for additional answers."),
            Lease.Kind.REVIEW: _("This campaign has no questions to review."),
        }[kind]
        raise ServiceError({"campaign": [message]}, status=409)


def _check_not_paused(user, kind: str) -> None:
    if kind != Lease.Kind.REVIEW and user.paused_at is not None:
        raise ServiceError(
            {"detail": [_("An admin paused your work; ask them before going on.")]}, status=403
        )


def _expire_overdue(campaign: Campaign, now) -> None:
    """Give the items of overdue leases back to the pool."""
    Lease.objects.filter(campaign=campaign, status=Lease.Status.ACTIVE, expires_at__lt=now).update(
        status=Lease.Status.EXPIRED, finished_at=now
    )


def _revive_own_draft(campaign: Campaign, user, kind: str, now) -> Lease | None:
    """Give back the person's expired lease with a draft, if nobody took its item."""
    lease = (
        Lease.objects.filter(
            campaign=campaign, annotator=user, kind=kind, status=Lease.Status.EXPIRED
        )
        .exclude(draft={})
        .order_by("-created_at")
        .first()
    )
    if lease is None or item_taken(lease):
        return None
    Lease.objects.filter(pk=lease.pk).update(
        status=Lease.Status.ACTIVE,
        finished_at=None,
        expires_at=now + timedelta(minutes=campaign.lease_minutes),
    )
    lease.refresh_from_db()
    return lease


def _claim_once(campaign: Campaign, user, kind: str, pick: Callable) -> Claim | None:
    now = timezone.now()
    with transaction.atomic():
        _expire_overdue(campaign, now)
        current = Lease.objects.filter(
            campaign=campaign, annotator=user, kind=kind, status=Lease.Status.ACTIVE
        ).first()
        if current is not None:
            return Claim(current, created=False)
        revived = _revive_own_draft(campaign, user, kind, now)
        if revived is not None:
            return Claim(revived, created=False)
        _check_not_paused(user, kind)  # what they hold comes back to them; nothing new
        item = pick(campaign, user)
        if item is None:
            return None
        lease = Lease.objects.create(
            campaign=campaign,
            kind=kind,
            paragraph=item.paragraph,
            question=item.question,
            annotator=user,
            expires_at=now + timedelta(minutes=campaign.lease_minutes),
        )
        return Claim(lease, created=True)


def claim_next(*, campaign: Campaign, user, kind: str, pick: Callable) -> Claim | None:
    """Return the person's lease of this kind on the campaign, or claim the next free item.

    `pick(campaign, user)` locks the next item and returns it as an `Item`, or None when
    nothing is left. A claim that loses a race on the unique constraints is retried.
    """
    check_can_work(campaign, user, kind)
    for _attempt in range(CLAIM_ATTEMPTS):
        try:
            return _claim_once(campaign, user, kind, pick)
        except IntegrityError:
            continue
    raise ServiceError({"lease": [_("Many people are claiming at once; try again.")]}, status=409)


def _pick_paragraph(campaign: Campaign, annotator) -> Item | None:
    paragraph = paragraph_lock_next(campaign=campaign, annotator=annotator)
    return None if paragraph is None else Item(paragraph)


def lease_claim_next(*, campaign: Campaign, annotator) -> Claim | None:
    """Return the annotator's writing lease on this campaign, or claim the next free paragraph.

    None means nothing is left for this annotator.
    """
    return claim_next(
        campaign=campaign, user=annotator, kind=Lease.Kind.WRITE, pick=_pick_paragraph
    )


def lease_get(*, lease_pk: int, annotator) -> Lease:
    """Return a lease of this annotator; another person's lease is refused."""
    lease = (
        Lease.objects.select_related("campaign", "paragraph__article", "question")
        .filter(pk=lease_pk)
        .first()
    )
    if lease is None:
        raise ServiceError({"lease": [_("No such lease.")]}, status=404)
    if lease.annotator_id != annotator.pk:
        raise ServiceError({"lease": [_("This lease belongs to another person.")]}, status=403)
    return lease


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
        check_open(locked)
        saved = {"draft": draft, "draft_saved_at": now}
        renewed = {"expires_at": now + timedelta(minutes=lease.campaign.lease_minutes)}
        if locked.status == Lease.Status.ACTIVE:
            renewed["expires_at"] = max(locked.expires_at, renewed["expires_at"])
        elif item_taken(locked):
            renewed = {}  # the draft is kept; the page warns that the item is gone
        else:
            renewed |= {"status": Lease.Status.ACTIVE, "finished_at": None}
        try:
            with transaction.atomic():  # a claim may take the paragraph meanwhile
                Lease.objects.filter(pk=lease.pk).update(**saved, **renewed)
        except IntegrityError:
            Lease.objects.filter(pk=lease.pk).update(**saved)
    lease.refresh_from_db()
    return lease


def item_taken(lease: Lease) -> bool:
    """Tell whether others hold or finished this lease's item, so it cannot come back to life.

    Writing: another lease of the campaign on the paragraph. Review: another review of the
    question. Answer: the question already has its extra answers without this lease (the
    question row is locked first, so two revivals cannot both take the last place).
    """
    live = Lease.objects.filter(kind=lease.kind, status__in=Lease.LIVE).exclude(pk=lease.pk)
    if lease.kind == Lease.Kind.WRITE:
        return live.filter(campaign_id=lease.campaign_id, paragraph_id=lease.paragraph_id).exists()
    if lease.kind == Lease.Kind.REVIEW:
        return live.filter(question_id=lease.question_id).exists()
    question_lock(question_pk=lease.question_id)
    taken = answer_places_taken(lease.question_id, excluding_lease=lease.pk)
    return taken >= lease.campaign.extra_answers


def reopen_expired(lease: Lease) -> None:
    """Let an expired lease's own holder submit, unless someone else took the item."""
    if lease.status == Lease.Status.EXPIRED and item_taken(lease):
        raise ServiceError({"lease": [taken_message()]}, status=409)


@transaction.atomic
def questions_submit(*, lease: Lease, questions) -> list[Question]:
    """Store the questions of a paragraph with their answer spans, all or none."""
    locked = lease_lock(lease_pk=lease.pk)
    check_open(locked)
    check_kind(locked, Lease.Kind.WRITE)
    campaign, paragraph = lease.campaign, lease.paragraph
    errors, clean = check_questions(
        paragraph.text, questions, low=campaign.questions_min, high=campaign.questions_max, _=_
    )
    if errors:
        raise ServiceError(errors)
    reopen_expired(locked)
    now = timezone.now()
    try:
        with transaction.atomic():  # a claim may take the paragraph between check and update
            Lease.objects.filter(pk=lease.pk).update(status=Lease.Status.SUBMITTED, finished_at=now)
    except IntegrityError:
        raise ServiceError({"lease": [taken_message()]}, status=409) from None
    sampled = review_sample(campaign=campaign, annotator_id=lease.annotator_id, count=len(clean))
    stored = questions_store(
        campaign=campaign,
        questions=[
            NewQuestion(
                paragraph=paragraph,
                lease=lease,
                author_id=lease.annotator_id,
                position=position,
                text=item.text,
                seconds_spent=item.seconds_spent,
                sampled_for_review=picked,
                answers=[
                    NewAnswer(
                        author_id=lease.annotator_id,
                        answer_start=item.answer_start,
                        text=item.answer_text,
                        seconds_spent=item.seconds_spent,
                    )
                ],
            )
            for position, (item, picked) in enumerate(zip(clean, sampled, strict=True))
        ],
    )
    lease.status, lease.finished_at = Lease.Status.SUBMITTED, now
    return stored


def questions_write(*, campaign: Campaign, paragraph: Paragraph, annotator, questions):
    """Store questions on a chosen paragraph as if the annotator claimed and sent it at once.

    One write lease, submitted with the same checks and review sampling as any submission;
    all or nothing. For seeding work (the demo), not for annotators, who claim.
    """
    now = timezone.now()
    try:
        with transaction.atomic():
            lease = Lease.objects.create(
                campaign=campaign,
                paragraph=paragraph,
                annotator=annotator,
                expires_at=now + timedelta(minutes=campaign.lease_minutes),
            )
            return questions_submit(lease=lease, questions=questions)
    except IntegrityError:
        message = _("Someone holds this paragraph already.")
        raise ServiceError({"paragraph": [message]}, status=409) from None


def lease_release(*, lease: Lease, reason: str, note: str = "") -> Lease:
    """Give the paragraph back: skipped (others get it) or reported unsuitable (nobody does)."""
    if reason not in Lease.Reason.values:
        raise ServiceError({"reason": [_("Give the reason: skip or unsuitable.")]})
    if not isinstance(note, str) or len(note) > 1000:
        raise ServiceError({"note": [_("At most 1,000 characters.")]})
    check_text(note, "note")
    with transaction.atomic():
        locked = lease_lock(lease_pk=lease.pk)
        check_open(locked)
        Lease.objects.filter(pk=lease.pk).update(
            status=Lease.Status.RELEASED,
            release_reason=reason,
            release_note=note.strip(),
            finished_at=timezone.now(),
        )
    lease.refresh_from_db()
    return lease
