"""Reads of the qualification round (issue 28, docs/quality.md): where a person stands in a
campaign's round, the feedback on one of their answers, and the round's people for admins."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from annotation.models import (
    Answer,
    Campaign,
    GoldAnswer,
    GoldQuestion,
    Lease,
    QualificationAttempt,
    QualificationItem,
)

# Where a person stands in a campaign's round.
EXEMPT = "exempt"  # no round, or they worked in the campaign before it had one
NEW = "new"  # required, not started
OPEN = "open"  # a try under way
PASSED = "passed"
FAILED = "failed"  # failed once: may retry after the guidelines
WAITING = "waiting"  # failed twice: an admin may reset them

TRIES = 2  # a person gets two tries, then waits for an admin


@dataclass(frozen=True)
class Standing:
    status: str
    attempt: QualificationAttempt | None  # the open try, else the last counted one
    failures: int  # failed tries that count (not reset)

    @property
    def must_qualify(self) -> bool:
        """Whether real work is refused to them now."""
        return self.status not in (EXEMPT, PASSED)


def unseen_gold(campaign: Campaign, user) -> GoldQuestion | None:
    """The first active gold question of the campaign's language the person never saw: not
    theirs, never leased, answered or scored by them. The unannounced gold items of a stream
    (services/gold.py) and the qualification round's (services/qualification.py) both take it,
    so that nobody meets a gold question twice, and a second try gets other questions."""
    seen = Lease.objects.filter(annotator=user, question_id=OuterRef("question_id"))
    answered = Answer.objects.filter(author=user, question_id=OuterRef("question_id"))
    scored = GoldAnswer.objects.filter(annotator=user, gold_id=OuterRef("pk"))
    return (
        GoldQuestion.objects.filter(active=True, language=campaign.language)
        .exclude(question__author=user)
        .exclude(Exists(seen))
        .exclude(Exists(answered))
        .exclude(Exists(scored))
        .select_related("question")
        .order_by("pk")
        .first()
    )


def qualification_standing(*, campaign: Campaign, user) -> Standing:
    """Where `user` stands in the campaign's round. Costs nothing when it has no round."""
    if not campaign.qualification_questions:
        return Standing(EXEMPT, None, 0)
    tries = list(
        QualificationAttempt.objects.filter(
            campaign=campaign, annotator=user, reset_at__isnull=True
        ).order_by("number")
    )
    if any(each.status == QualificationAttempt.Status.PASSED for each in tries):
        passed = next(e for e in tries if e.status == QualificationAttempt.Status.PASSED)
        return Standing(PASSED, passed, 0)
    failures = sum(each.status == QualificationAttempt.Status.FAILED for each in tries)
    open_try = next((e for e in tries if e.status == QualificationAttempt.Status.OPEN), None)
    if open_try is not None:
        return Standing(OPEN, open_try, failures)
    if failures >= TRIES:
        return Standing(WAITING, tries[-1], failures)
    if failures:
        return Standing(FAILED, tries[-1], failures)
    if _worked_before(campaign, user):
        return Standing(EXEMPT, None, 0)
    return Standing(NEW, None, 0)


def _worked_before(campaign: Campaign, user) -> bool:
    """A person who held ordinary work in the campaign (before it had a round) is no
    newcomer: only the round's own leases (and reset tries) leave them one."""
    return (
        Lease.objects.filter(campaign=campaign, annotator=user, qualification__isnull=True)
        .exclude(kind=Lease.Kind.REVIEW)
        .exists()
    )


def qualification_item_of(lease: Lease) -> QualificationItem | None:
    """The round's item a lease is on, or None for ordinary work."""
    if lease.kind != Lease.Kind.ANSWER or not lease.campaign.qualification_questions:
        return None
    return QualificationItem.objects.select_related("attempt", "gold").filter(lease=lease).first()


def answered_count(attempt: QualificationAttempt) -> int:
    return attempt.items.filter(answered_at__isnull=False).count()


def _pieces(text: str, right: tuple[int, int] | None, theirs: tuple[int, int] | None):
    """The paragraph cut where either span starts or ends: (text, in the right span, in theirs)."""
    cuts = {0, len(text)}
    for span in (right, theirs):
        if span:
            cuts |= {max(0, min(len(text), span[0])), max(0, min(len(text), span[1]))}
    bounds = sorted(cuts)
    pieces = []
    for start, end in zip(bounds, bounds[1:], strict=False):
        if start == end:
            continue
        pieces.append(
            {
                "text": text[start:end],
                "right": bool(right and right[0] <= start and end <= right[1]),
                "theirs": bool(theirs and theirs[0] <= start and end <= theirs[1]),
            }
        )
    return pieces


def qualification_feedback(item: QualificationItem) -> dict:
    """What a person sees once they answered a round's question: the right span (the gold
    question's original answer) highlighted in the paragraph, theirs beside it, their score,
    and where their try stands."""
    lease = item.lease
    question = lease.question
    paragraph = lease.paragraph.text
    original = question.answers.filter(kind=Answer.Kind.ORIGINAL).first()
    right = None
    if original is not None and not original.no_answer:
        right = (original.answer_start, original.answer_start + len(original.text))
    theirs = None
    if item.answered_at and not item.no_answer and item.text:
        theirs = (item.answer_start, item.answer_start + len(item.text))
    attempt = item.attempt
    campaign = attempt.campaign
    return {
        "item": item.pk,
        "position": item.position + 1,
        "count": campaign.qualification_questions,
        "question": question.text,
        "right_answer": original.text if original else "",
        "right_start": right[0] if right else None,
        "your_answer": item.text,
        "your_start": item.answer_start if theirs else None,
        "no_answer": item.no_answer,
        "exact": item.exact,
        "f1": item.f1,
        "pieces": _pieces(paragraph, right, theirs),
        "try": attempt.number,
        "try_status": attempt.status,
        "score": attempt.score,
        "bar": campaign.qualification_bar,
    }


def qualification_people(*, campaign: Campaign) -> list[dict]:
    """The campaign's round for admins: per person who started it, their standing, counted
    failures, tries and last score; by name."""
    if not campaign.qualification_questions:
        return []
    tries = (
        QualificationAttempt.objects.filter(campaign=campaign)
        .select_related("annotator")
        .order_by("annotator__username", "number")
    )
    people: dict[int, dict] = {}
    for each in tries:
        row = people.setdefault(
            each.annotator_id,
            {"user": each.annotator, "tries": 0, "failures": 0, "status": NEW, "score": None},
        )
        row["tries"] += 1
        counted = each.reset_at is None
        if each.status == QualificationAttempt.Status.PASSED and counted:
            row["status"] = PASSED
        elif row["status"] != PASSED and counted:
            if each.status == QualificationAttempt.Status.OPEN:
                row["status"] = OPEN
            elif each.status == QualificationAttempt.Status.FAILED:
                row["failures"] += 1
                row["status"] = WAITING if row["failures"] >= TRIES else FAILED
        if each.score is not None:
            row["score"] = each.score
    return list(people.values())


def qualification_data(*, campaign: Campaign, user) -> dict:
    """A person's standing in the round, for the API and the round's page: the status, the
    bar, their counted failures, and the try shown (the open one, else the last counted one)
    with each answered question's feedback."""
    standing = qualification_standing(campaign=campaign, user=user)
    attempt = standing.attempt
    answered = []
    if attempt is not None:
        items = (
            attempt.items.filter(answered_at__isnull=False)
            .select_related("lease__paragraph", "lease__question", "attempt__campaign")
            .order_by("position")
        )
        answered = [qualification_feedback(item) for item in items]
    return {
        "status": standing.status,
        "questions": campaign.qualification_questions,
        "bar": campaign.qualification_bar,
        "failures": standing.failures,
        "try": attempt.number if attempt else None,
        "score": attempt.score if attempt else None,
        # The mean F1 of the try's answers so far (what the bar is checked against).
        "mean": sum(each["f1"] for each in answered) / len(answered) if answered else None,
        "answered": answered,
    }
