"""Gold questions (issue 28): marked by admins, mixed into the annotators' stream, scored.

- `gold_mark`: a reviewed (approved or corrected) answerable question of train or dev whose
  additional answers all agree with its original answer (the paper's rule: each additional
  answer is an exact match of the original after the language's normalization) becomes gold;
  its answers are the truth. A test question is refused (409): test stays unseen.
- `gold_claim`: a claim of a writing or additional-answers campaign with a gold share draws,
  per claim, whether the next item is a gold question; one is an ordinary `answer` lease,
  shaped and shown like any other (no field, page or payload tells it apart). A person never
  gets the same gold question twice, nor one they wrote or answered.
- `gold_answer_submit`: the answer is scored (the language's EM/F1, through the
  `annotation.gold-scorer` point) and kept as a `GoldAnswer`, with the lease, the campaign
  and the time; it is never an `Answer` (no release, human performance or leaderboard reads it).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from annotation.gold_scoring import POINT, GoldScorer, plain_score
from annotation.models import Answer, Campaign, GoldAnswer, GoldQuestion, Lease, Question, WorkItem
from annotation.selectors.qualification import unseen_gold
from core.errors import ServiceError
from core.extensions import extension
from core.roles import Role

GOLD_SPLITS = ("train", "dev")


def _score(language: str, prediction: str, truths) -> tuple[float, float]:
    scorer = extension(POINT)
    if isinstance(scorer, GoldScorer):
        return scorer.score(language, prediction, truths)
    return plain_score(language, prediction, truths)


def _check_admin(user) -> None:
    if not user.has_role(Role.ADMIN):
        raise ServiceError({"detail": [_("Only admins mark gold questions.")]}, status=403)


def gold_mark(*, question: Question, admin) -> GoldQuestion:
    """Make the question gold (or put it back in the pool); refused unless the rule holds."""
    _check_admin(admin)
    language = question.paragraph.article.language
    truths = _gold_truths(question)
    with transaction.atomic():
        gold, created = GoldQuestion.objects.get_or_create(
            question=question,
            defaults={"answers": truths, "language": language, "marked_by": admin},
        )
        if not created:
            GoldQuestion.objects.filter(pk=gold.pk).update(active=True, answers=truths)
            gold.active, gold.answers = True, truths
        # A gold question takes no more ordinary answers: its places go.
        WorkItem.objects.filter(kind=Lease.Kind.ANSWER, question=question).update(places=0)
    return gold


def _gold_truths(question: Question) -> list[str]:
    """The agreed answers of a question that may be gold (the original first); a refusal
    (ServiceError) that says why when it may not."""
    article = question.paragraph.article
    if article.split not in GOLD_SPLITS:
        raise ServiceError(
            {"question": [_("A test question is never gold: gold comes from train or dev.")]},
            status=409,
        )
    if question.is_impossible:
        raise ServiceError({"question": [_("An unanswerable question cannot be gold.")]})
    if question.status not in (Question.Status.APPROVED, Question.Status.CORRECTED):
        raise ServiceError(
            {"question": [_("Only a question a reviewer approved or corrected can be gold.")]},
            status=409,
        )
    answers = list(question.answers.exclude(kind=Answer.Kind.PLAUSIBLE).order_by("pk"))
    original = next((a for a in answers if a.kind == Answer.Kind.ORIGINAL), None)
    extra = [a for a in answers if a.kind == Answer.Kind.ADDITIONAL]
    if original is None or not extra:
        raise ServiceError(
            {"question": [_("A gold question needs its original answer and additional answers.")]},
            status=409,
        )
    language = article.language
    if any(
        a.no_answer or _score(language, a.text, [original.text])[0] < 100 or a.misaligned
        for a in extra
    ):
        raise ServiceError(
            {"question": [_("Its additional answers do not all agree with the original one.")]},
            status=409,
        )
    return [original.text] + [a.text for a in extra if a.text != original.text]


def gold_unmark(*, question: Question, admin) -> None:
    """Take the question out of the gold pool; the answers already scored stay."""
    _check_admin(admin)
    updated = GoldQuestion.objects.filter(question=question).update(active=False)
    if not updated:
        raise ServiceError({"question": [_("This question is not gold.")]}, status=404)


def _draw(campaign: Campaign, user_id: int, position: int) -> bool:
    """Whether the person's claim number `position` in the campaign is a gold item."""
    return gold_drawn(
        seed=campaign.review_seed, share=campaign.gold_share, user_id=user_id, position=position
    )


def gold_drawn(*, seed: int, share, user_id: int, position: int) -> bool:
    """A seeded draw at the gold share, reproducible from (seed, person, position); pure
    (bench/quality_model.py draws with it)."""
    share = Fraction(Decimal(str(share)))
    if share <= 0:
        return False
    digest = hashlib.blake2b(f"{seed}:gold:{user_id}:{position}".encode(), digest_size=8).digest()
    return Fraction(int.from_bytes(digest, "big"), 2**64) < share


def is_gold_lease(lease: Lease) -> bool:
    """Whether an answer lease is a gold item: on a gold question, claimed after it was marked
    (an ordinary answer lease held when the question became gold stays an ordinary answer).

    A lease read with `gold_marked()` annotated as `is_gold` (in the query that locks it) is
    answered without a query of its own."""
    if lease.kind != Lease.Kind.ANSWER:
        return False
    if "is_gold" in lease.__dict__:
        return bool(lease.is_gold)
    return GoldQuestion.objects.filter(
        question_id=lease.question_id, marked_at__lte=lease.created_at
    ).exists()


def gold_marked() -> Exists:
    """`is_gold_lease` as an expression on a Lease query: `.annotate(is_gold=gold_marked())`
    reads it in the same statement as the lease (one query less per answer submitted)."""
    return Exists(
        GoldQuestion.objects.filter(
            question_id=OuterRef("question_id"), marked_at__lte=OuterRef("created_at")
        )
    )


def gold_claim(
    *, campaign: Campaign, user, expires: datetime, may_take_new: bool = True
) -> tuple[Lease, bool] | None:
    """(lease, created): the person's gold lease in the campaign, the one they hold, or, when
    this claim's draw says so and they hold nothing, a new one on a gold question they never
    saw. None: the ordinary claim goes on. Runs inside the claim's transaction."""
    if Decimal(str(campaign.gold_share)) <= 0 or campaign.kind not in (
        *Campaign.WRITING_KINDS,
        Campaign.Kind.ADDITIONAL_ANSWERS,
    ):
        return None
    gold_of_lease = GoldQuestion.objects.filter(question_id=OuterRef("question_id"))
    mine = Lease.objects.filter(campaign=campaign, annotator=user, status=Lease.Status.ACTIVE)
    held = mine.filter(Exists(gold_of_lease), kind=Lease.Kind.ANSWER).first()
    if held is not None:
        return lease_with_item(held), False
    if not may_take_new or mine.exists():
        return None  # ordinary work held: the ordinary claim returns it
    position = Lease.objects.filter(campaign=campaign, annotator=user).count()
    if not _draw(campaign, user.pk, position):
        return None
    gold = unseen_gold(campaign, user)
    if gold is None:
        return None
    try:
        with transaction.atomic():
            made = gold_lease_create(campaign=campaign, user=user, gold=gold, expires=expires)
    except IntegrityError:
        return None
    return lease_with_item(made), True


def gold_lease_create(*, campaign: Campaign, user, gold: GoldQuestion, expires) -> Lease:
    """The person's answer lease on a gold question: an unannounced stream item here, a
    qualification round's item (services/qualification.py) there."""
    return Lease.objects.create(
        campaign=campaign,
        kind=Lease.Kind.ANSWER,
        paragraph_id=gold.question.paragraph_id,
        question=gold.question,
        annotator=user,
        expires_at=expires,
    )


def lease_with_item(lease: Lease) -> Lease:
    """The lease read again with its paragraph, article and question (what a claim returns)."""
    return Lease.objects.select_related("paragraph__article", "question").get(pk=lease.pk)


def gold_answer_submit(*, lease: Lease, clean, now: datetime) -> Answer:
    """Score and keep the person's answer to a gold question (the lease is locked and open);
    return an unsaved `Answer` shaped like an ordinary one, for the same response."""
    gold = GoldQuestion.objects.get(question_id=lease.question_id)
    prediction = "" if clean.no_answer else clean.answer_text
    exact, f1 = _score(gold.language, prediction, gold.answers)
    try:
        with transaction.atomic():
            Lease.objects.filter(pk=lease.pk).update(status=Lease.Status.SUBMITTED, finished_at=now)
            GoldAnswer.objects.create(
                gold=gold,
                annotator_id=lease.annotator_id,
                campaign_id=lease.campaign_id,
                lease=lease,
                answer_start=clean.answer_start,
                text=clean.answer_text,
                no_answer=clean.no_answer,
                exact=exact,
                f1=f1,
                seconds_spent=clean.seconds_spent,
            )
    except IntegrityError:
        raise ServiceError(
            {"lease": [_("You already answered this question.")]}, status=409
        ) from None
    return Answer.additional_given(lease, clean)
