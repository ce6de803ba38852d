"""Reads for review and quality: the queue, feedback to annotators, the per-annotator table.

The table's agreement, signs of careless work and history (issue 28, docs/quality.md) are
measured by evaluation, which owns the metrics: it registers a `QualityMeasures` at
`QUALITY_MEASURES` (`core.extensions`) naming its stored figure; the page reads that figure
(`core.services.figure_jobs.figure_read`) and hands its value to `quality_rows`. With none
registered, those columns show "—".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from annotation.models import Campaign, Lease, ModelAttempt, ModelKind, Question, Review
from annotation.selectors.candidates import waiting_reviews
from annotation.selectors.reports import median_seconds
from annotation.selectors.review_rates import annotator_quality_figures
from core.charts import sparkline
from core.extensions import extension
from core.pagination import KeysetPage, keyset_page
from core.roles import Role

QUALITY_MEASURES = "annotation.quality.measures"


@dataclass(frozen=True)
class QualityMeasures:
    """What the app that scores answers adds to the quality table: the name of a stored figure
    (`core.figures`) taking `campaign` (a campaign's id) or no parameter (every campaign),
    whose value is {"annotators": {str(user id): {"agreement", "scored", "answers", "signs",
    "flags", "history"}}, "overall": {"agreement", "scored", "human"}, "rules": {...}}."""

    figure: str


def quality_measures() -> QualityMeasures | None:
    """The registered measures, or None (the columns then show "—")."""
    return extension(QUALITY_MEASURES)


def quality_measures_params(campaign: Campaign | None) -> dict:
    """The figure's parameters for the table in view."""
    return {"campaign": campaign.pk} if campaign is not None else {}


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


def reviews_by(*, reviewer, limit: int = 20) -> QuerySet:
    """Return the reviewer's own latest reviews, newest first: what they decided, to read
    again (each links to the question's page and its history). One query."""
    return (
        Review.objects.filter(reviewer=reviewer)
        .select_related("question__campaign", "revision")
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


def with_model(campaign: Campaign | None = None) -> bool:
    """Whether the quality table in view has the model-in-the-loop columns: the campaign (or,
    for all campaigns, some questions campaign) has or had a model in the loop."""
    had = Q(model_round__gt=0) | ~Q(model_kind=ModelKind.NONE)
    if campaign is not None:
        return Campaign.objects.filter(had, pk=campaign.pk).exists()
    return Campaign.objects.filter(had, kind__in=Campaign.WRITING_KINDS).exists()


# The questions a model judged (answered at submission): those whose "fooled" is known.
JUDGED = Q(model_fooled__isnull=False)
# Fooled, and a reviewer agreed with the answer: approved, or corrected and still fooled (a
# correction of the span scores the model again, evaluation/services/model_loop/review.py).
VALIDATED = Q(model_fooled=True, status__in=[Question.Status.APPROVED, Question.Status.CORRECTED])


def _model_counts(questions: QuerySet) -> dict[int, dict]:
    """Per author: questions the model judged, fooled, and the same among the reviewed."""
    reviewed = ~Q(status=Question.Status.PENDING)
    return {
        row["author"]: row
        for row in questions.filter(JUDGED)
        .order_by()
        .values("author")
        .annotate(
            judged=Count("pk"),
            fooled=Count("pk", filter=Q(model_fooled=True)),
            reviewed_judged=Count("pk", filter=reviewed),
            validated=Count("pk", filter=VALIDATED),
        )
    }


def quality_rows(
    users: list,
    *,
    campaign: Campaign | None = None,
    model: bool = True,
    measures: dict | None = None,
) -> list[dict]:
    """Return the quality row of each of these authors, in their order: questions, reviewed,
    verdict shares (of the reviewed), median seconds per question, and, with `model`, the
    fooling rates (None where no question of theirs had a model verdict). Two queries, three
    with `model`. `measures` is the value of the `QualityMeasures` figure (agreement, signs,
    history: `_measured`), read once for the whole table; None leaves those columns empty.

    Fooling rate: fooled / questions with a model verdict. Validated fooling rate: fooled and
    approved (or corrected and still fooled) / reviewed questions with a model verdict."""
    questions = Question.objects.filter(author__in=[user.pk for user in users])
    if campaign is not None:
        questions = questions.filter(campaign=campaign)
    model_counts = _model_counts(questions) if model and users else {}
    counts = _status_counts(questions)
    medians = median_seconds(questions) if counts else {}
    found = (measures or {}).get("annotators", {})
    rates = (
        annotator_quality_figures(campaign, [user.pk for user in users if user.pk in counts])
        if campaign is not None and counts
        else {}
    )
    return [
        _quality_row(user, counts[user.pk], model_counts.get(user.pk, {}), medians[user.pk])
        | _measured(found.get(str(user.pk)))
        | _review_and_gold(rates.get(user.pk))
        for user in users
        if user.pk in counts  # an author who wrote nothing since the page was read has no row
    ]


def _review_and_gold(figures) -> dict:
    """The columns of the adaptive review and the gold questions (issue 28, items 1 and 2):
    `review_rate` ({"rate": percent, "why": text, "flagged"}) and `gold` ({"score": the share
    of gold answers right, "low", "high": its Wilson interval, "f1": mean F1, "answers":
    count}). Both are a campaign's: None
    (shown as "—") for all campaigns at once, and `gold` None for whoever answered none."""
    if figures is None:
        return {"review_rate": None, "gold": None}
    gold = figures.gold
    return {
        "review_rate": {
            "rate": float(figures.rate) * 100,
            "why": figures.why_text,
            "flagged": figures.flagged,
        },
        "gold": (
            {
                "score": gold.right,
                "low": gold.low,
                "high": gold.high,
                "f1": gold.mean_f1,
                "answers": gold.answered,
            }
            if gold.answered
            else None
        ),
    }


# The history chart's two lines, in percent: agreement (F1) and the share rejected.
HISTORY_SERIES = ("agreement", "rejected_pct")


def _measured(found: dict | None) -> dict:
    """Return a row's agreement, signs and history from the annotator's measures (None: not
    measured, or nothing of theirs to measure)."""
    if not found:
        return {
            "agreement": None,
            "scored": 0,
            "answers": 0,
            "signs": {},
            "flags": [],
            "history": [],
            "history_chart": None,
        }
    history = found["history"]
    chart = sparkline([[week.get(name) for week in history] for name in HISTORY_SERIES], top=100.0)
    return {
        "agreement": found["agreement"],
        "scored": found["scored"],
        "answers": found["answers"],
        "signs": found["signs"],
        "flags": [{"sign": sign, **found["signs"][sign]} for sign in found["flags"]],
        "history": history,
        "history_chart": chart,
    }


def _status_counts(questions) -> dict:
    """Return {author id: counts of their questions, in all and by review status} (one query)."""
    return {
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


def _quality_row(user, row: dict, judged: dict, median) -> dict:
    """Return one author's quality row from their status counts and model-verdict counts."""
    reviewed = row["reviewed"]
    return {
        "user": user,
        "questions": row["total"],
        "reviewed": reviewed,
        "approved_pct": _percent(row["approved"], reviewed),
        "corrected_pct": _percent(row["corrected"], reviewed),
        "rejected_pct": _percent(row["rejected"], reviewed),
        "median_seconds": median,
        "model_judged": judged.get("judged", 0),
        "fooled": judged.get("fooled", 0),
        "fooling_pct": _percent(judged.get("fooled", 0), judged.get("judged", 0)),
        "validated_fooling_pct": _percent(
            judged.get("validated", 0), judged.get("reviewed_judged", 0)
        ),
    }


def quality_table(*, campaign: Campaign | None = None, measures: dict | None = None) -> list[dict]:
    """Return one row per annotator who wrote (in the campaign, if given), by username; the
    fooling rates are there always (None without a model verdict)."""
    users = list(_authors(campaign).order_by(*QUALITY_ORDER))
    return quality_rows(users, campaign=campaign, measures=measures)


def quality_table_page(
    *,
    campaign: Campaign | None = None,
    after: str = "",
    before: str = "",
    size: int = 0,
    model: bool = True,
    measures: dict | None = None,
) -> KeysetPage:
    """Return a page of the quality table, by username, after or before a cursor (keyset).

    A refused cursor gives the first page with the refusal in `errors`. Three queries (the
    page's annotators, their counts, their medians), one more for the fooling rates with
    `model`, one more when a "previous" page turns out to be the start of the table.
    """
    page = keyset_page(
        _authors(campaign),
        order=QUALITY_ORDER,
        size=size or QUALITY_PAGE_SIZE,
        after=after,
        before=before,
    )
    page.rows = quality_rows(page.rows, campaign=campaign, model=model, measures=measures)
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


def review_model(question: Question, paragraph_text: str) -> dict | None:
    """Return the model in the loop on a question under review, or None when it was written
    without one (no query then): the round, the attempt that counts, every attempt in order,
    the model's figures against the question's current answer, and the model's span in the
    paragraph when it is one (a predict server may answer text found elsewhere). One query.
    """
    if question.model_attempt_id is None and not question.model_attempts:
        return None
    attempts = list(
        ModelAttempt.objects.filter(question=question)
        .select_related("round")
        .order_by("number", "pk")
    )
    counting = next((a for a in attempts if a.pk == question.model_attempt_id), None)
    if counting is None and attempts:
        counting = attempts[-1]
    if counting is None:
        return None
    span = None
    start, text = counting.model_answer_start, counting.model_answer
    answered = counting.status == ModelAttempt.Status.ANSWERED
    at = start is not None and start >= 0 and paragraph_text[start : start + len(text)] == text
    if answered and text and at:
        span = {"start": start, "text": text}
    return {
        "round": counting.round,
        "attempt": counting,
        "answered": answered,
        "attempts": attempts,
        "count": max(question.model_attempts, len(attempts)),
        "exact": question.model_exact,
        "f1": question.model_f1,
        "fooled": question.model_fooled,
        "span": span,
    }
