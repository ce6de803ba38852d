"""Reads for review and quality: the queue, feedback to annotators, the per-annotator table."""

from __future__ import annotations

import statistics
from collections import defaultdict

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, QuerySet

from annotation.models import Campaign, Lease, Question, Review
from annotation.selectors.candidates import review_candidates
from core.roles import Role


def review_queue(*, reviewer) -> list[dict]:
    """Return, per questions campaign, how many sampled questions wait for this reviewer.

    Closed campaigns are listed while some of their sampled questions wait for an audit.
    """
    rows = []
    for campaign in Campaign.objects.filter(kind=Campaign.Kind.QUESTIONS):
        held = Lease.objects.filter(
            campaign=campaign,
            kind=Lease.Kind.REVIEW,
            annotator=reviewer,
            status=Lease.Status.ACTIVE,
        ).first()
        waiting = review_candidates(campaign=campaign, reviewer=reviewer).count()
        if not (campaign.active or waiting or held):  # a closed campaign shows while audits wait
            continue
        rows.append(
            {
                "campaign": campaign,
                "waiting": waiting,
                "reviewed": Review.objects.filter(
                    reviewer=reviewer, question__campaign=campaign
                ).count(),
                "held": held,
            }
        )
    return rows


def feedback_for(*, annotator, limit: int = 20) -> QuerySet:
    """Return the latest reviews of the annotator's questions, newest first."""
    return (
        Review.objects.filter(question__author=annotator)
        .select_related("question__paragraph__article", "revision")
        .order_by("-created_at", "-pk")[:limit]
    )


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def quality_table(*, campaign: Campaign | None = None) -> list[dict]:
    """Return one row per annotator: questions, reviewed, verdict shares, median seconds."""
    questions = Question.objects.all()
    if campaign is not None:
        questions = questions.filter(campaign=campaign)
    counts = questions.values("author").annotate(
        total=Count("pk"),
        reviewed=Count("pk", filter=~Q(status=Question.Status.PENDING)),
        approved=Count("pk", filter=Q(status=Question.Status.APPROVED)),
        corrected=Count("pk", filter=Q(status=Question.Status.CORRECTED)),
        rejected=Count("pk", filter=Q(status=Question.Status.REJECTED)),
    )
    seconds = defaultdict(list)
    for author, spent in questions.values_list("author", "seconds_spent"):
        seconds[author].append(spent)
    users = get_user_model().objects.in_bulk([row["author"] for row in counts])
    rows = []
    for row in counts:
        reviewed = row["reviewed"]
        rows.append(
            {
                "user": users[row["author"]],
                "questions": row["total"],
                "reviewed": reviewed,
                "approved_pct": _percent(row["approved"], reviewed),
                "corrected_pct": _percent(row["corrected"], reviewed),
                "rejected_pct": _percent(row["rejected"], reviewed),
                "median_seconds": statistics.median(seconds[row["author"]]),
            }
        )
    return sorted(rows, key=lambda r: r["user"].username)


def annotators_without_questions() -> QuerySet:
    """Return the annotators who wrote nothing yet (so an admin can still pause them)."""
    return (
        get_user_model()
        .objects.filter(groups__name=Role.ANNOTATOR, is_active=True, questions__isnull=True)
        .order_by("username")
    )
