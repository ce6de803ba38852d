"""The admins' report of hours and questions per annotator, as a page and as a CSV file."""

import csv
import io
from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.models import Campaign
from annotation.selectors.reports import (
    HOURS_FIGURE,
    format_hm,
    hours_params,
    hours_report,
    hours_rows,
    hours_totals,
    parse_campaign,
    parse_period,
)
from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read

admin_only = role_required(Role.ADMIN)

CSV_HEADER = [
    "username",
    "paragraphs",
    "questions",
    "hours",
    "seconds",
    "median_seconds_per_question",
    "answers",
    "reviews",
]
# A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _read(params):
    """Return (start, end, campaign) from the query string; ServiceError names a bad field."""
    errors = {}
    try:
        start, end = parse_period(params)
    except ServiceError as error:
        errors.update(error.errors)
    try:
        campaign = parse_campaign(params)
    except ServiceError as error:
        errors.update(error.errors)
    if errors:
        raise ServiceError(errors)
    return start, end, campaign


@admin_only
@require_GET
def hours_page(request):
    """Show the form, and the table with its totals when the period is valid."""
    params = request.GET
    context = {
        "campaigns": Campaign.objects.order_by("name"),
        "values": {name: params.get(name, "") for name in ("start", "end", "campaign")},
        "errors": {},
    }
    try:
        start, end, campaign = _read(params)
    except ServiceError as error:
        context["errors"] = error.errors
        return render(request, "annotation/hours_report.html", context, status=400)
    # A long period at scale is a stored figure (see HOURS_FIGURE); the CSV is always exact.
    report = figure_read(HOURS_FIGURE, **hours_params(start=start, end=end, campaign=campaign))
    rows = hours_rows(report.value or [])
    query = {"start": start.isoformat(), "end": end.isoformat()}
    if campaign is not None:
        query["campaign"] = campaign.pk
    context["values"] = {**query, "campaign": str(campaign.pk) if campaign else ""}
    totals = hours_totals(rows)
    context |= {
        "rows": [{**row, "time": format_hm(row["seconds"])} for row in rows],
        "totals": {**totals, "time": format_hm(totals["seconds"])},
        "start": start,
        "end": end,
        "campaign": campaign,
        "csv_query": urlencode(query),
        "report": report,
    }
    return render(request, "annotation/hours_report.html", context)


def _safe(text: str) -> str:
    """Quote a text cell that a spreadsheet would otherwise run as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def hours_csv_text(rows: list[dict]) -> str:
    """Write the report's rows as CSV text: a header line, then one line per annotator."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for row in rows:
        median = row["median_seconds"]
        writer.writerow(
            [
                _safe(row["username"]),
                row["paragraphs"],
                row["questions"],
                row["hours"],
                row["seconds"],
                "" if median is None else median,
                row["answers"],
                row["reviews"],
            ]
        )
    return out.getvalue()


@admin_only
@require_GET
def hours_csv(request):
    """Download the report as UTF-8 CSV with a BOM, which Excel needs to read the accents."""
    try:
        start, end, campaign = _read(request.GET)
    except ServiceError as error:
        text = "".join(f"{field}: {' '.join(msgs)}\n" for field, msgs in error.errors.items())
        return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")
    rows = hours_report(start=start, end=end, campaign=campaign)
    response = HttpResponse(
        ("\ufeff" + hours_csv_text(rows)).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    filename = f"hours-{start.isoformat()}-{end.isoformat()}.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
