"""The qualification round (issue 28, docs/quality.md): a newcomer answers a campaign's set of
gold questions, sees the right answer after each, and passes with a mean F1 at the bar.

- `qualification_claim`: inside a claim's transaction, a person who must qualify gets their
  round's next item (an answer lease on a gold question) instead of real work; one who failed
  is refused until they retry, one who failed twice until an admin resets them.
- `qualification_answer_submit`: the answer is scored (the language's metric, as gold answers
  are) and kept on the round's item, never as an `Answer` or a `GoldAnswer`; the try is
  decided with its last answer: passed when the mean F1 is at least the bar.
- `check_qualified`: real work submitted by a person who must qualify is refused (403),
  whichever door it came by.
- `qualification_retry`: a person who failed once starts their second try (other questions).
- `qualification_reset`: an admin lets a person who failed start again.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.models import (
    Campaign,
    Lease,
    QualificationAttempt,
    QualificationItem,
)
from annotation.selectors.qualification import (
    FAILED,
    NEW,
    OPEN,
    PASSED,
    WAITING,
    answered_count,
    qualification_standing,
    unseen_gold,
)
from annotation.services.gold import _score, gold_lease_create, lease_with_item
from core.errors import ServiceError
from core.roles import Role


def failed_message() -> str:
    return _(
        "You did not pass the qualification round. Read the guidelines, then start your second try."
    )


def waiting_message() -> str:
    return _(
        "You did not pass the qualification round twice. An admin will look at your answers "
        "and may let you try again."
    )


def must_qualify_message() -> str:
    return _("Pass the campaign's qualification round before your work counts.")


def check_qualified(lease: Lease) -> None:
    """Refuse real work from a person who has not passed the campaign's round (403)."""
    campaign = lease.campaign
    if not campaign.qualification_questions:
        return
    standing = qualification_standing(campaign=campaign, user=lease.annotator)
    if standing.must_qualify:
        raise ServiceError({"lease": [must_qualify_message()]}, status=403)


def qualification_claim(
    *, campaign: Campaign, user, expires: datetime, may_take_new: bool = True
) -> tuple[Lease, bool] | ServiceError | None:
    """The person's round item: (lease, created); a refusal to raise once the claim's
    transaction is over (what was decided here stays); None: no round for them now, the
    ordinary claim goes on. Runs inside the claim's transaction."""
    standing = qualification_standing(campaign=campaign, user=user)
    if not standing.must_qualify:
        return None
    if standing.status == FAILED:
        return ServiceError({"qualification": [failed_message()]}, status=403)
    if standing.status == WAITING:
        return ServiceError({"qualification": [waiting_message()]}, status=403)
    attempt = standing.attempt
    if standing.status == NEW:
        attempt = _attempt_start(campaign, user)
    unanswered = attempt.items.filter(answered_at__isnull=True).select_related("lease").first()
    if unanswered is not None:
        return _item_lease(unanswered.lease, expires), False
    if not may_take_new:
        return None
    done = answered_count(attempt)
    # The round asks fewer questions now than when the try began: it is decided as it stands.
    gold = None if done >= campaign.qualification_questions else unseen_gold(campaign, user)
    if gold is None:
        return _without_gold(attempt, done, standing)
    lease = gold_lease_create(campaign=campaign, user=user, gold=gold, expires=expires)
    QualificationItem.objects.create(attempt=attempt, gold=gold, lease=lease, position=done)
    return lease_with_item(lease), True


def _without_gold(attempt, done: int, standing) -> ServiceError | None:
    """No gold question left for the person: a refusal when none was answered, else the try
    decided on those answered (None when passed: the ordinary claim goes on)."""
    if done == 0:
        message = _("The qualification round has no gold question for you yet; ask an admin.")
        return ServiceError({"qualification": [message]}, status=409)
    # Fewer gold questions left than the round asks: decided on those answered.
    if _decide(attempt) == QualificationAttempt.Status.PASSED:
        return None
    return ServiceError(
        {"qualification": [failed_message() if not standing.failures else waiting_message()]},
        status=403,
    )


def _attempt_start(campaign: Campaign, user) -> QualificationAttempt:
    last = (
        QualificationAttempt.objects.filter(campaign=campaign, annotator=user)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return QualificationAttempt.objects.create(
        campaign=campaign, annotator=user, number=(last or 0) + 1
    )


def _item_lease(lease: Lease, expires: datetime) -> Lease:
    """A round's item is not skipped nor lost: an expired or given back lease comes back."""
    if lease.status != Lease.Status.ACTIVE:
        Lease.objects.filter(pk=lease.pk).update(
            status=Lease.Status.ACTIVE, finished_at=None, expires_at=expires, release_reason=""
        )
    return lease_with_item(lease)


def _decide(attempt: QualificationAttempt) -> str:
    """Close the try: passed when the mean F1 of its answers reaches the campaign's bar."""
    scores = list(attempt.items.filter(answered_at__isnull=False).values_list("f1", flat=True))
    mean = sum(scores) / len(scores)
    passed = mean >= attempt.campaign.qualification_bar
    attempt.status = (
        QualificationAttempt.Status.PASSED if passed else QualificationAttempt.Status.FAILED
    )
    attempt.score, attempt.decided_at = mean, timezone.now()
    QualificationAttempt.objects.filter(pk=attempt.pk).update(
        status=attempt.status, score=attempt.score, decided_at=attempt.decided_at
    )
    return attempt.status


def qualification_answer_submit(*, item: QualificationItem, lease: Lease, clean, now):
    """Score and keep the answer on the round's item (the lease is locked and open), mark the
    lease sent, and decide the try with its last answer. Returns the item."""
    attempt = item.attempt
    if attempt.status != QualificationAttempt.Status.OPEN or item.answered_at is not None:
        raise ServiceError({"lease": [_("This item was already submitted.")]}, status=409)
    gold = item.gold
    prediction = "" if clean.no_answer else clean.answer_text
    exact, f1 = _score(gold.language, prediction, gold.answers)
    answer = {
        "answer_start": clean.answer_start,
        "text": clean.answer_text,
        "no_answer": clean.no_answer,
        "exact": exact,
        "f1": f1,
        "answered_at": now,
    }
    QualificationItem.objects.filter(pk=item.pk).update(**answer)
    Lease.objects.filter(pk=lease.pk).update(
        status=Lease.Status.SUBMITTED, finished_at=now, expires_at=max(lease.expires_at, now)
    )
    for name, value in answer.items():
        setattr(item, name, value)
    attempt.campaign = lease.campaign
    if answered_count(attempt) >= attempt.campaign.qualification_questions:
        _decide(attempt)
    return item


def qualification_retry(*, campaign: Campaign, user) -> QualificationAttempt:
    """Start the second try of a person who failed once (after the guidelines)."""
    standing = qualification_standing(campaign=campaign, user=user)
    if standing.status != FAILED:
        message = {
            WAITING: waiting_message(),
            OPEN: _("Your qualification try is still under way."),
            PASSED: _("You already passed the qualification round."),
        }.get(standing.status, _("You have no qualification try to repeat."))
        raise ServiceError({"qualification": [message]}, status=409)
    try:
        with transaction.atomic():
            return _attempt_start(campaign, user)
    except IntegrityError:  # a second click raced the first
        raise ServiceError(
            {"qualification": [_("Your qualification try is still under way.")]}, status=409
        ) from None


def qualification_reset(*, campaign: Campaign, annotator, admin) -> int:
    """Let a person who failed start the round again: their failed tries are marked reset
    (kept, no longer counted). Admins only; returns how many tries were reset."""
    if not admin.has_role(Role.ADMIN):
        raise ServiceError({"detail": [_("Only admins reset a qualification round.")]}, status=403)
    standing = qualification_standing(campaign=campaign, user=annotator)
    if standing.status not in (FAILED, WAITING):
        raise ServiceError(
            {"annotator": [_("Only a person who failed the round can be reset.")]}, status=409
        )
    with transaction.atomic():
        return QualificationAttempt.objects.filter(
            campaign=campaign,
            annotator=annotator,
            status=QualificationAttempt.Status.FAILED,
            reset_at__isnull=True,
        ).update(reset_at=timezone.now(), reset_by=admin)
