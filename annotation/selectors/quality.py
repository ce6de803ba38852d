"""Reads for review and quality: the queue, feedback to annotators, the per-annotator table."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from annotation.models import Campaign, Lease, Question, Review
from annotation.selectors.candidates import waiting_reviews
from annotation.selectors.reports import median_seconds
from core.pagination import KeysetPage, keyset_page
from core.roles import Role

# Annotators per page of the quality table: each row reads its annotator's questions (through
# an index that holds every figure the row needs), so a page costs what its rows wrote.
QUALITY_PAGE_SIZE = 25
QUALITY_ORDER = ("username", "pk")
# Annotators without questions listed under the table, at most.
IDLE_LIMIT = 100


def review_queue(*, reviewer) -> list[dict]:
    """Return, per questions campaign (of either writing kind), how many sampled questions
    wait for this reviewer.

    Closed campaigns are listed while some of their sampled questions wait for an audit.
    Four queries, whatever the number of campaigns.
    """
    campaigns = list(Campaign.objects.filter(kind__in=Campaign.WRITING_KINDS))
    ids = [campaign.pk for campaign in campaigns]
    held = {
        lease.campaign_id: lease
        for lease in Lease.objects.filter(
            campaign_id__in=ids,
            kind=Lease.Kind.REVIEW,
            annotator=reviewer,
            status=Lease.Status.ACTIVE,
        )
    }
    waiting = waiting_reviews(reviewer=reviewer, campaign_ids=ids)
    reviewed = dict(
        Review.objects.filter(reviewer=reviewer, question__campaign_id__in=ids)
        .order_by()
        .values_list("question__campaign_id")
        .annotate(n=Count("pk"))
    )
    rows = []
    for campaign in campaigns:
        count, lease = waiting.get(campaign.pk, 0), held.get(campaign.pk)
        if not (campaign.active or count or lease):  # a closed campaign shows while audits wait
            continue
        rows.append(
            {
                "campaign": campaign,
                "waiting": count,
                "reviewed": reviewed.get(campaign.pk, 0),
                "held": lease,
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


def _authors(campaign: Campaign | None) -> QuerySet:
    """The people who wrote questions (in the campaign, if given)."""
    written = Question.objects.filter(author=OuterRef("pk"))
    if campaign is not None:
        written = written.filter(campaign=campaign)
    return get_user_model().objects.filter(Exists(written))


def quality_rows(users: list, *, campaign: Campaign | None = None) -> list[dict]:
    """Return the quality row of each of these authors, in their order: questions, reviewed,
    verdict shares (of the reviewed), median seconds per question. Two queries."""
    questions = Question.objects.filter(author__in=[user.pk for user in users])
    if campaign is not None:
        questions = questions.filter(campaign=campaign)
    counts = {
        row["author"]: row
        for row in questions.order_by()
        .values("author")
        .annotate(
            total=Count("pk"),
            reviewed=Count("pk", filter=~Q(status=Question.Status.PENDING)),
            approved=Count("pk", filter=Q(status=Question.Status.APPROVED)),
            corrected=Count("pk", filter=Q(status=Question.Status.CORRECTED)),
            rejected=Count("pk", filter=Q(status=Question.Status.REJECTED)),
        )
    }
    medians = median_seconds(questions) if counts else {}
    rows = []
    for user in users:
        row = counts.get(user.pk)
        if row is None:  # wrote nothing since the page was read
            continue
        reviewed = row["reviewed"]
        rows.append(
            {
                "user": user,
                "questions": row["total"],
                "reviewed": reviewed,
                "approved_pct": _percent(row["approved"], reviewed),
                "corrected_pct": _percent(row["corrected"], reviewed),
                "rejected_pct": _percent(row["rejected"], reviewed),
                "median_seconds": medians[user.pk],
            }
        )
    return rows


def quality_table(*, campaign: Campaign | None = None) -> list[dict]:
    """Return one row per annotator who wrote (in the campaign, if given), by username."""
    users = list(_authors(campaign).order_by(*QUALITY_ORDER))
    return quality_rows(users, campaign=campaign)


def quality_table_page(
    *, campaign: Campaign | None = None, after: str = "", before: str = "", size: int = 0
) -> KeysetPage:
    """Return a page of the quality table, by username, after or before a cursor (keyset).

    A refused cursor gives the first page with the refusal in `errors`. Three queries (the
    page's annotators, their counts, their medians), four when a "previous" page turns out to
    be the start of the table.
    """
    page = keyset_page(
        _authors(campaign),
        order=QUALITY_ORDER,
        size=size or QUALITY_PAGE_SIZE,
        after=after,
        before=before,
    )
    page.rows = quality_rows(page.rows, campaign=campaign)
    return page


def annotators_without_questions(limit: int = IDLE_LIMIT) -> list:
    """Return the first `limit` + 1 active annotators (by username) who wrote nothing yet, so
    that an admin can still pause them; the page lists `limit` and says when there are more."""
    return list(
        get_user_model()
        .objects.filter(groups__name=Role.ANNOTATOR, is_active=True)
        .exclude(Exists(Question.objects.filter(author=OuterRef("pk"))))
        .order_by("username")[: limit + 1]
    )
