"""The claim shared by the three kinds of lease: who may work, and the next item for them.

A writing lease holds a paragraph, an answer lease a question to answer again, a review lease
a sampled question to audit; each kind's own entry (`lease_claim_next`, `answer_claim_next`,
`review_claim_next`) calls `claim_next` with its kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.locks import claim, leases_expire
from annotation.models import Campaign, Lease
from annotation.services.gold import gold_claim
from annotation.services.qualification import qualification_claim
from core.errors import ServiceError
from core.roles import Role

CLAIM_ATTEMPTS = 5

# Which kinds of campaign each kind of lease belongs to, and who may hold it.
CAMPAIGN_KINDS = {
    Lease.Kind.WRITE: Campaign.WRITING_KINDS,
    Lease.Kind.ANSWER: (Campaign.Kind.ADDITIONAL_ANSWERS,),
    Lease.Kind.REVIEW: Campaign.WRITING_KINDS,
}


@dataclass(frozen=True)
class Claim:
    lease: Lease
    created: bool


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
    if campaign.kind not in CAMPAIGN_KINDS[kind]:
        message = {
            Lease.Kind.WRITE: _("This campaign does not ask for questions."),
            Lease.Kind.ANSWER: _("This campaign does not ask for additional answers."),
            Lease.Kind.REVIEW: _("This campaign has no questions to review."),
        }[kind]
        raise ServiceError({"campaign": [message]}, status=409)


def claim_next(*, campaign: Campaign, user, kind: str) -> Claim | None:
    """Return the person's lease of this kind on the campaign, or claim the next free item.

    The overdue leases of the campaign end first (their places come back), then one statement
    claims (`annotation.locks.claim`): what they hold, else their expired lease with a draft
    if its place is still free, else the next item. A person an admin paused gets back what
    they held, nothing new. A claim that loses a race on the unique constraints is retried.
    None means nothing is left for them.
    """
    check_can_work(campaign, user, kind)
    may_take_new = kind == Lease.Kind.REVIEW or user.paused_at is None
    for _attempt in range(CLAIM_ATTEMPTS):
        try:
            found = _claim_once(campaign, user, kind, may_take_new=may_take_new)
        except IntegrityError:
            continue
        return _claimed(found, campaign, may_take_new=may_take_new)
    raise ServiceError({"lease": [_("Many people are claiming at once; try again.")]}, status=409)


def _claim_once(campaign: Campaign, user, kind: str, *, may_take_new: bool):
    """One try, in its own transaction: end the overdue leases, then claim. Return (lease,
    created), the qualification round's refusal (a ServiceError, raised once this try's
    transaction is saved), or None."""
    now = timezone.now()
    expires = now + timedelta(minutes=campaign.lease_minutes)
    with transaction.atomic():
        leases_expire(campaign=campaign, now=now)
        found = None
        if kind != Lease.Kind.REVIEW:
            found = _round_or_gold(campaign, user, expires=expires, may_take_new=may_take_new)
        return found or claim(
            kind,
            campaign=campaign,
            user=user,
            now=now,
            expires=expires,
            may_take_new=may_take_new,
        )


def _round_or_gold(campaign: Campaign, user, *, expires, may_take_new: bool):
    """Before real work (issue 28): the qualification round's next item or its refusal, else
    a gold question, unannounced; None when neither has one for the person."""
    if campaign.qualification_questions:
        found = qualification_claim(
            campaign=campaign, user=user, expires=expires, may_take_new=may_take_new
        )
        if found is not None:
            return found
    return gold_claim(campaign=campaign, user=user, expires=expires, may_take_new=may_take_new)


def _claimed(found, campaign: Campaign, *, may_take_new: bool) -> Claim | None:
    """The claim's answer from what one try found: the round's refusal raised, a paused
    person told, nothing left (None), or the lease with its campaign set."""
    if isinstance(found, ServiceError):
        raise found  # the round's refusal, once what it decided is saved
    if found is None:
        if not may_take_new:
            raise ServiceError(
                {"detail": [_("An admin paused your work; ask them before going on.")]},
                status=403,
            )
        return None
    lease, created = found
    lease.campaign = campaign
    return Claim(lease, created=created)
