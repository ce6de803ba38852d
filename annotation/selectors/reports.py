"""What annotators are paid for: their own figures, and hours per annotator per period.

Time worked is the platform's definition, the same on every page and in every CSV:

- a lease counts from its claim (`created_at`) to its end (`finished_at`), capped at its
  campaign's `lease_minutes`, so a tab left open over lunch does not count as work;
- submitted leases count, and so do released ones (skipped or reported unsuitable): the
  annotator read the paragraph before giving it back;
- active and expired leases count nothing;
- a lease, with all its time, belongs to the period in which it ended (`finished_at`); a
  question belongs to the period in which it was written (`Question.created_at`, the same
  moment as its lease's submission).

Periods are dates in settings.TIME_ZONE (Europe/Paris), start included and end excluded; a week
runs from Monday 00:00 to the next Monday 00:00, local time.

Everything here reads; the sums, counts and medians are computed by the database, with
expressions that PostgreSQL and SQLite both run.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.db import connection
from django.db.models import (
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    IntegerField,
    Max,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.functions import Least
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.models import Campaign, Lease, Question
from core.errors import ServiceError
from core.figures import Figure, bounded_count

COUNTED = [Lease.Status.SUBMITTED, Lease.Status.RELEASED]
MAX_PERIOD_DAYS = 366
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

# min(finished_at - created_at, lease_minutes): the worked time of one lease. SQLite multiplies
# a duration only by a field typed IntegerField, hence the wrapper around lease_minutes.
LEASE_MINUTES = ExpressionWrapper(F("campaign__lease_minutes"), output_field=IntegerField())
LEASE_TIME = Least(
    ExpressionWrapper(F("finished_at") - F("created_at"), output_field=DurationField()),
    ExpressionWrapper(LEASE_MINUTES * Value(timedelta(minutes=1)), output_field=DurationField()),
)


def _seconds(total: timedelta | None) -> int:
    return round(total.total_seconds()) if total else 0


def _local_midnight(day: date) -> datetime:
    """Return 00:00 of a day in settings.TIME_ZONE, as an aware datetime."""
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_default_timezone())


def week_of(now: datetime) -> tuple[date, date]:
    """Return the Monday that starts `now`'s week (local time) and the Monday after it."""
    monday = timezone.localtime(now, timezone.get_default_timezone()).date()
    monday -= timedelta(days=monday.weekday())
    return monday, monday + timedelta(days=7)


def counted_leases(*, start: date | None = None, end: date | None = None) -> QuerySet:
    """Return the leases whose time counts, ended in [start, end) if given."""
    leases = Lease.objects.filter(status__in=COUNTED, finished_at__isnull=False)
    if start is not None:
        leases = leases.filter(finished_at__gte=_local_midnight(start))
    if end is not None:
        leases = leases.filter(finished_at__lt=_local_midnight(end))
    return leases


def seconds_worked(leases: QuerySet) -> int:
    """Return the worked seconds of counted leases, summed by the database."""
    return _seconds(leases.aggregate(total=Sum(LEASE_TIME))["total"])


def annotator_summary(*, user, now: datetime | None = None) -> dict:
    """Return an annotator's own figures: paragraphs, questions by status, time worked."""
    questions = Question.objects.filter(author=user).aggregate(
        questions=Count("pk"),
        **{
            status: Count("pk", filter=Q(status=status))
            for status in ("approved", "rejected", "corrected", "pending")
        },
    )
    start, end = week_of(now or timezone.now())
    week = counted_leases(start=start, end=end).filter(annotator=user)
    leases = counted_leases().filter(annotator=user)
    sent = leases.filter(status=Lease.Status.SUBMITTED)
    return {
        "paragraphs": sent.filter(kind=Lease.Kind.WRITE).count(),
        "answers": sent.filter(kind=Lease.Kind.ANSWER).count(),
        "reviews": sent.filter(kind=Lease.Kind.REVIEW).count(),
        **questions,
        "seconds_week": seconds_worked(week),
        "seconds_total": seconds_worked(leases),
    }


def _hours(seconds: int) -> Decimal:
    return (Decimal(seconds) / 3600).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


MEDIAN_KEYS = ("author_id", "campaign_id")


def median_seconds(questions: QuerySet, key: str = "author_id") -> dict[int, int | float]:
    """Return the median `seconds_spent` of the questions per `key` (an author, a campaign).

    The database counts the questions per (key, seconds) and keeps, per key, the one or two
    values at the middle of the running count: what leaves it is a row or two per key, however
    many questions there are. The median of an even count is the mean of the two middle values,
    as `statistics.median` gives it. SQL that PostgreSQL and SQLite both run.
    """
    found: dict[int, list[int]] = {}
    for value, seconds, low, high in middle_rows(questions, key):
        pair = found.setdefault(value, [0, 0])
        if low:
            pair[0] = seconds
        if high:
            pair[1] = seconds
    return {value: _half(low + high, 2) for value, (low, high) in found.items()}


def middle_rows(questions: QuerySet, key: str) -> list[tuple[int, int, int, int]]:
    """The statement of `median_seconds`: per key, the one or two `seconds_spent` at the middle,
    each as (key, seconds, 1 if it is the lower middle else 0, 1 if the upper else 0)."""
    if key not in MEDIAN_KEYS:
        raise ValueError(f"median_seconds groups by one of {MEDIAN_KEYS}, not {key!r}")
    counted = questions.order_by().values(key, "seconds_spent").annotate(n=Count("pk"))
    sql, params = counted.query.sql_with_params()
    # n is cast so that the running sums are integers and (total + 1) / 2 divides as integers;
    # the two flags are 0 or 1 (PostgreSQL would say a comparison as a boolean, SQLite as an
    # integer: every column here reads the same on both).
    middle = f"""
        SELECT k, s,
               CASE WHEN upto - n < (total + 1) / 2 AND upto >= (total + 1) / 2 THEN 1 ELSE 0 END,
               CASE WHEN upto - n < (total + 2) / 2 AND upto >= (total + 2) / 2 THEN 1 ELSE 0 END
        FROM (SELECT h.{key} AS k, h.seconds_spent AS s, CAST(h.n AS INTEGER) AS n,
                     SUM(CAST(h.n AS INTEGER)) OVER (PARTITION BY h.{key} ORDER BY h.seconds_spent)
                         AS upto,
                     SUM(CAST(h.n AS INTEGER)) OVER (PARTITION BY h.{key}) AS total
              FROM ({sql}) h) running
        WHERE upto - n < (total + 2) / 2 AND upto >= (total + 1) / 2
    """  # noqa: S608 (the key is one of MEDIAN_KEYS; every value is a parameter)
    with connection.cursor() as cursor:
        cursor.execute(middle, params)
        return cursor.fetchall()


def _half(total: int, count: int) -> int | float:
    """Return total / count (count is 1 or 2): a whole number stays an int, 41.5 does not."""
    return total // count if total % count == 0 else total / count


def hours_report(*, start: date, end: date, campaign: Campaign | None = None) -> list[dict]:
    """Return one row per annotator who worked in [start, end), by username.

    A row: username, paragraphs (write leases submitted), answers (additional answers given),
    reviews (reviews given), questions (written), seconds (worked, every kind of lease), hours
    (seconds / 3600, rounded half up to 2 decimals) and median_seconds (per question, from
    `Question.seconds_spent`; None without questions).
    """
    leases = counted_leases(start=start, end=end)
    questions = Question.objects.filter(
        created_at__gte=_local_midnight(start), created_at__lt=_local_midnight(end)
    )
    if campaign is not None:
        leases, questions = leases.filter(campaign=campaign), questions.filter(campaign=campaign)
    rows: dict[int, dict] = {}
    sent = {kind: Q(status=Lease.Status.SUBMITTED, kind=kind) for kind in Lease.Kind.values}
    for item in leases.values("annotator_id", "annotator__username").annotate(
        paragraphs=Count("pk", filter=sent[Lease.Kind.WRITE]),
        answers=Count("pk", filter=sent[Lease.Kind.ANSWER]),
        reviews=Count("pk", filter=sent[Lease.Kind.REVIEW]),
        time=Sum(LEASE_TIME),
    ):
        row = _row(item["annotator__username"], item["paragraphs"])
        row |= {"answers": item["answers"], "reviews": item["reviews"]}
        row["seconds"] = _seconds(item["time"])
        rows[item["annotator_id"]] = row
    for item in questions.values("author_id", "author__username").annotate(count=Count("pk")):
        row = rows.setdefault(item["author_id"], _row(item["author__username"], 0))
        row["questions"] = item["count"]
    for author_id, median in median_seconds(questions).items():
        rows[author_id]["median_seconds"] = median
    for row in rows.values():
        row["hours"] = _hours(row["seconds"])
    return sorted(rows.values(), key=lambda row: row["username"])


def _row(username: str, paragraphs: int) -> dict:
    return {
        "username": username,
        "paragraphs": paragraphs,
        "answers": 0,
        "reviews": 0,
        "questions": 0,
        "seconds": 0,
        "hours": Decimal("0.00"),
        "median_seconds": None,
    }


def hours_totals(rows: list[dict]) -> dict:
    """Return the report's totals: paragraphs, questions, seconds and hours of all rows."""
    seconds = sum(row["seconds"] for row in rows)
    return {
        "paragraphs": sum(row["paragraphs"] for row in rows),
        "answers": sum(row["answers"] for row in rows),
        "reviews": sum(row["reviews"] for row in rows),
        "questions": sum(row["questions"] for row in rows),
        "seconds": seconds,
        "hours": _hours(seconds),
    }


def format_hm(seconds: int) -> str:
    """Write a duration as h:mm (minutes rounded down): 5400 → "1:30"."""
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}"


def _parse_date(params, name: str, errors: dict) -> date | None:
    value = (params.get(name) or "").strip()
    if not value:
        return None
    try:
        if ISO_DATE.fullmatch(value):
            parsed = date.fromisoformat(value)
            # Far dates overflow when shifted between time zones; nobody was paid then.
            if 1900 <= parsed.year <= 9000:
                return parsed
    except ValueError:
        pass
    errors[name] = [_("Enter a date as YYYY-MM-DD, for example 2025-03-03.")]
    return None


def parse_period(params, *, now: datetime | None = None) -> tuple[date, date]:
    """Read ?start=YYYY-MM-DD&end=YYYY-MM-DD (end excluded); refuse bad or too long periods.

    Without dates the period is the current week; with one date only, it is the 7 days that
    start (or end) there.
    """
    errors: dict[str, list[str]] = {}
    start, end = _parse_date(params, "start", errors), _parse_date(params, "end", errors)
    if errors:
        raise ServiceError(errors)
    if start is None and end is None:
        return week_of(now or timezone.now())
    start = start or end - timedelta(days=7)
    end = end or start + timedelta(days=7)
    if end <= start:
        raise ServiceError({"end": [_("The end date must come after the start date.")]})
    if (end - start).days > MAX_PERIOD_DAYS:
        raise ServiceError(
            {"end": [_("A period covers at most %(days)d days.") % {"days": MAX_PERIOD_DAYS}]}
        )
    return start, end


def parse_campaign(params) -> Campaign | None:
    """Read the optional ?campaign=<id>; an unknown or malformed id is refused."""
    value = (params.get("campaign") or "").strip()
    if not value:
        return None
    is_id = value.isascii() and value.isdigit() and len(value) < 19
    campaign = Campaign.objects.filter(pk=int(value)).first() if is_id else None
    if campaign is None:
        raise ServiceError({"campaign": [_("No such campaign.")]})
    return campaign


# The hours page over a long period reads every lease and question in it (half a year at 10×
# FQuAD: 650,000 leases, 800,000 questions, 450 ms): a stored figure (`core.figures`). Counted
# during the request while the period holds few rows, so the page is exact on a small install;
# else the stored report, computed again by a job when a lease ended or a question was written
# in the period since (a past period never changes again). The CSV is always computed whole.
HOURS_FIGURE = "annotation.hours_report"
SMALL_PERIOD = 20_000


def hours_params(*, start: date, end: date, campaign: Campaign | None) -> dict:
    return {
        "start": start.isoformat(),
        "end": end.isoformat(),
        "campaign": campaign.pk if campaign is not None else None,
    }


def _hours_compute(*, start: str, end: str, campaign: int | None) -> list[dict]:
    chosen = Campaign.objects.filter(pk=campaign).first() if campaign is not None else None
    rows = hours_report(
        start=date.fromisoformat(start), end=date.fromisoformat(end), campaign=chosen
    )
    return [{**row, "hours": str(row["hours"])} for row in rows]


def _hours_fingerprint(*, start: str, end: str, campaign: int | None) -> str:
    """The last end of a counted lease and the newest question in the period: two backward
    probes of the indexes by end and by creation."""
    first, last = date.fromisoformat(start), date.fromisoformat(end)
    ended = counted_leases(start=first, end=last).aggregate(last=Max("finished_at"))["last"]
    written = Question.objects.filter(
        created_at__gte=_local_midnight(first), created_at__lt=_local_midnight(last)
    ).aggregate(last=Max("created_at"))["last"]
    return f"{ended and ended.isoformat()}|{written and written.isoformat()}"


def _hours_small(*, start: str, end: str, campaign: int | None) -> bool:
    first, last = date.fromisoformat(start), date.fromisoformat(end)
    leases = counted_leases(start=first, end=last)
    return bounded_count(leases, SMALL_PERIOD) <= SMALL_PERIOD


def hours_figure() -> Figure:
    """The figure registered by the app (`AnnotationConfig.ready`)."""
    return Figure(HOURS_FIGURE, _hours_compute, _hours_fingerprint, _hours_small)


def hours_rows(value: list[dict]) -> list[dict]:
    """The report's rows from the figure's stored value (hours back to decimals)."""
    return [{**row, "hours": Decimal(row["hours"])} for row in value]
