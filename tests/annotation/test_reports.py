"""Hours and questions per annotator: the time-worked rule, periods, the page, the CSV, the home."""

import dataclasses
import json
import re
from datetime import date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.utils import timezone, translation

from annotation.models import Lease, Question
from annotation.selectors.reports import (
    HOURS_FIGURE,
    annotator_summary,
    format_hm,
    hours_report,
    hours_totals,
    parse_period,
    week_of,
)
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, lease_release, questions_submit
from core import figures
from core.errors import ServiceError
from core.models import StoredFigure
from core.roles import Role
from core.services.figure_jobs import figure_compute
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory

# Until config/urls.py includes annotation.report_urls.

PARIS = ZoneInfo("Europe/Paris")
MARCH_3 = date(2025, 3, 3)  # a Monday
MARCH_10 = date(2025, 3, 10)


def paris(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=PARIS)


def _date(lease, claimed: datetime, duration: timedelta) -> None:
    """Move a lease (and its questions) to a known claim and end."""
    finished = claimed + duration
    Lease.objects.filter(pk=lease.pk).update(created_at=claimed, finished_at=finished)
    Question.objects.filter(lease=lease).update(created_at=finished)


def submit(campaign, annotator, *, claimed, minutes=0, seconds=0, spent=(40, 41, 42)):
    """Claim the next paragraph and submit questions that took `spent` seconds each."""
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    payload = good_questions(lease.paragraph, count=len(spent))
    for item, value in zip(payload, spent, strict=True):
        item["seconds_spent"] = value
    questions_submit(lease=lease, questions=payload)
    _date(lease, paris(claimed), timedelta(minutes=minutes, seconds=seconds))
    return lease


def release(campaign, annotator, *, claimed, minutes):
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    lease_release(lease=lease, reason="skip")
    _date(lease, paris(claimed), timedelta(minutes=minutes))
    return lease


@pytest.fixture
def short_campaign(db):
    return campaign_create(name="Courte", splits=["dev"], lease_minutes=10)


@pytest.fixture
def worked_week(campaign, short_campaign, paragraphs, annotators):
    """The week of 3 March 2025: two annotators who worked, one whose leases count nothing."""
    ann0, ann1, ann2 = annotators
    submit(campaign, ann0, claimed="2025-03-04 10:00", minutes=10, spent=(30, 50, 70))
    submit(campaign, ann0, claimed="2025-03-05 14:00", minutes=45, spent=(20, 60, 90, 100))
    release(campaign, ann0, claimed="2025-03-06 09:00", minutes=5)
    submit(short_campaign, ann1, claimed="2025-03-07 08:00", minutes=25, spent=(10, 20, 30))
    submit(short_campaign, ann1, claimed="2025-03-07 09:00", seconds=450, spent=(41, 50, 61))
    expired = lease_claim_next(campaign=short_campaign, annotator=ann2).lease
    Lease.objects.filter(pk=expired.pk).update(
        status="expired",
        created_at=paris("2025-03-05 10:00"),
        finished_at=paris("2025-03-05 10:10"),
    )
    other = campaign_create(name="Autre", splits=["dev"], lease_minutes=30)
    active = lease_claim_next(campaign=other, annotator=ann2).lease
    Lease.objects.filter(pk=active.pk).update(created_at=paris("2025-03-05 11:00"))
    return annotators


ANN0_ROW = {
    "username": "ann0",
    "paragraphs": 2,
    "answers": 0,
    "reviews": 0,
    "questions": 7,
    "seconds": 600 + 1800 + 300,  # 10 min, 45 min capped at 30, a 5-minute skip
    "hours": Decimal("0.75"),
    "median_seconds": 60,
}
ANN1_ROW = {
    "username": "ann1",
    "paragraphs": 2,
    "answers": 0,
    "reviews": 0,
    "questions": 6,
    "seconds": 600 + 450,  # 25 min capped at this campaign's 10, then 7 min 30 s
    "hours": Decimal("0.29"),
    "median_seconds": 35.5,
}


# --- the rule ----------------------------------------------------------------------------


def test_time_is_claim_to_end_capped_and_active_or_expired_leases_count_nothing(worked_week):
    assert hours_report(start=MARCH_3, end=MARCH_10) == [ANN0_ROW, ANN1_ROW]


def test_a_campaign_filter_keeps_its_own_leases_and_questions(worked_week, short_campaign):
    assert hours_report(start=MARCH_3, end=MARCH_10, campaign=short_campaign) == [ANN1_ROW]


def test_nothing_outside_the_period(worked_week):
    assert hours_report(start=MARCH_10, end=date(2025, 3, 17)) == []
    assert hours_report(start=date(2025, 2, 24), end=MARCH_3) == []


def test_totals_and_hours_rounding(worked_week):
    rows = hours_report(start=MARCH_3, end=MARCH_10)
    assert hours_totals(rows) == {
        "paragraphs": 4,
        "answers": 0,
        "reviews": 0,
        "questions": 13,
        "seconds": 3750,
        "hours": Decimal("1.04"),
    }


def test_weeks_run_monday_to_monday_in_paris_time(campaign, paragraphs, annotators):
    ann0 = annotators[0]
    # Sunday 23:30 in Paris is still the week of 3 March.
    submit(campaign, ann0, claimed="2025-03-09 23:30", minutes=20)
    # Monday 00:30 in Paris is Sunday 23:30 UTC, yet it belongs to the week of 10 March.
    submit(campaign, ann0, claimed="2025-03-10 00:30", minutes=15)
    assert [r["seconds"] for r in hours_report(start=MARCH_3, end=MARCH_10)] == [1200]
    assert [r["seconds"] for r in hours_report(start=MARCH_10, end=date(2025, 3, 17))] == [900]
    monday_noon = annotator_summary(user=ann0, now=paris("2025-03-10 12:00"))
    assert (monday_noon["seconds_week"], monday_noon["seconds_total"]) == (900, 2100)
    sunday_night = annotator_summary(user=ann0, now=paris("2025-03-09 23:59"))
    assert (sunday_night["seconds_week"], sunday_night["seconds_total"]) == (1200, 2100)


def test_week_of_uses_the_local_date():
    assert week_of(paris("2025-03-09 23:30")) == (MARCH_3, MARCH_10)
    assert week_of(paris("2025-03-10 00:00")) == (MARCH_10, date(2025, 3, 17))
    # The week in which clocks go forward (30 March 2025) still starts on Monday.
    assert week_of(paris("2025-03-30 23:30")) == (date(2025, 3, 24), date(2025, 3, 31))


def test_annotator_summary_counts_own_work_by_status(worked_week):
    ann0, ann1, _ann2 = worked_week
    mine = Question.objects.filter(author=ann0).order_by("pk")
    Question.objects.filter(pk__in=[q.pk for q in mine[:2]]).update(status="approved")
    Question.objects.filter(pk=mine[2].pk).update(status="rejected")
    Question.objects.filter(pk=mine[3].pk).update(status="corrected")
    Question.objects.filter(author=ann1).update(status="approved")
    assert annotator_summary(user=ann0, now=paris("2025-03-08 12:00")) == {
        "paragraphs": 2,
        "answers": 0,
        "reviews": 0,
        "questions": 7,
        "approved": 2,
        "rejected": 1,
        "corrected": 1,
        "pending": 3,
        "seconds_week": 2700,
        "seconds_total": 2700,
    }


def test_annotator_summary_of_someone_who_only_has_active_or_expired_leases(worked_week):
    summary = annotator_summary(user=worked_week[2], now=paris("2025-03-08 12:00"))
    assert summary == {
        "paragraphs": 0,
        "answers": 0,
        "reviews": 0,
        "questions": 0,
        "approved": 0,
        "rejected": 0,
        "corrected": 0,
        "pending": 0,
        "seconds_week": 0,
        "seconds_total": 0,
    }


def test_format_hm():
    assert [format_hm(s) for s in (0, 59, 60, 5400, 36_000 + 59 * 60 + 59)] == [
        "0:00",
        "0:00",
        "0:01",
        "1:30",
        "10:59",
    ]


# --- periods -----------------------------------------------------------------------------


def test_the_default_period_is_the_current_week():
    now = paris("2025-03-09 23:30")
    assert parse_period({}, now=now) == (MARCH_3, MARCH_10)
    assert parse_period({"start": "", "end": " "}, now=now) == (MARCH_3, MARCH_10)


def test_one_date_gives_seven_days():
    assert parse_period({"start": "2025-03-03"}) == (MARCH_3, MARCH_10)
    assert parse_period({"end": "2025-03-10"}) == (MARCH_3, MARCH_10)
    assert parse_period({"start": "2025-01-01", "end": "2026-01-02"}) == (
        date(2025, 1, 1),
        date(2026, 1, 2),
    )


@pytest.mark.parametrize(
    ("params", "errors"),
    [
        (
            {"start": "03/03/2025"},
            {"start": ["Enter a date as YYYY-MM-DD, for example 2025-03-03."]},
        ),
        (
            {"start": "2025-02-30"},
            {"start": ["Enter a date as YYYY-MM-DD, for example 2025-03-03."]},
        ),
        ({"end": "20250310"}, {"end": ["Enter a date as YYYY-MM-DD, for example 2025-03-03."]}),
        (
            {"start": "2025-03-10", "end": "2025-03-03"},
            {"end": ["The end date must come after the start date."]},
        ),
        (
            {"start": "2025-03-10", "end": "2025-03-10"},
            {"end": ["The end date must come after the start date."]},
        ),
        (
            {"start": "2025-01-01", "end": "2026-01-03"},
            {"end": ["A period covers at most 366 days."]},
        ),
    ],
)
def test_bad_periods_are_refused_naming_the_field(params, errors):
    with translation.override("en"), pytest.raises(ServiceError) as caught:
        parse_period(params)
    assert caught.value.errors == errors


def test_two_bad_dates_are_both_named():
    with pytest.raises(ServiceError) as caught:
        parse_period({"start": "x", "end": "y"})
    assert sorted(caught.value.errors) == ["end", "start"]


# --- the page and the CSV ----------------------------------------------------------------


def test_the_page_shows_rows_totals_and_a_csv_link(client, admin_user, worked_week, campaign):
    client.force_login(admin_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get("/manage/reports/hours/", {"start": "2025-03-03", "end": "2025-03-10"})
    assert response.status_code == 200
    context = response.context
    assert [{k: row[k] for k in ANN0_ROW} for row in context["rows"]] == [ANN0_ROW, ANN1_ROW]
    assert [row["time"] for row in context["rows"]] == ["0:45", "0:17"]
    assert context["totals"]["hours"] == Decimal("1.04")
    html = response.content.decode()
    assert '<label for="report-start">' in html and '<label for="report-campaign">' in html
    assert 'href="/manage/reports/hours.csv?start=2025-03-03&amp;end=2025-03-10"' in html
    assert '<td class="num">1.04</td>' in html and '<td class="num">35.5</td>' in html
    filtered = client.get("/manage/reports/hours/", {"end": "2025-03-10", "campaign": campaign.pk})
    assert [row["username"] for row in filtered.context["rows"]] == ["ann0"]
    assert f'<option value="{campaign.pk}" selected>' in filtered.content.decode()
    assert (
        f"hours.csv?start=2025-03-03&amp;end=2025-03-10&amp;campaign={campaign.pk}"
        in filtered.content.decode()
    )


def test_the_page_defaults_to_the_current_week_and_has_no_inline_code(client, admin_user):
    campaign_create(name="<b>Q</b>", splits=["dev"])
    client.force_login(admin_user)
    response = client.get("/manage/reports/hours/")
    assert response.status_code == 200
    start, end = week_of(timezone.now())
    assert (response.context["start"], response.context["end"]) == (start, end)
    html = response.content.decode()
    assert f'value="{start.isoformat()}"' in html
    assert "<b>Q</b>" not in html and "&lt;b&gt;Q&lt;/b&gt;" in html
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert re.findall(r"\sstyle=|<style\b|\son[a-z]+=", html) == []


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"start": "2025-13-01"}, "start"),
        ({"start": "2025-03-10", "end": "2025-03-01"}, "end"),
        ({"start": "2024-01-01", "end": "2025-12-31"}, "end"),
        ({"campaign": "abc"}, "campaign"),
        ({"campaign": "999999"}, "campaign"),
        ({"end": "0001-01-03"}, "end"),
        ({"start": "9999-12-30"}, "start"),
        ({"start": "0001-01-01", "end": "0001-01-05"}, "start"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, admin_user, params, field):
    client.force_login(admin_user)
    page = client.get("/manage/reports/hours/", params)
    assert page.status_code == 400
    html = page.content.decode()
    assert f'<p id="report-{field}-error" class="field-error" role="alert">' in html
    assert f'aria-describedby="report-{field}-error"' in html
    assert "hours.csv?" not in html
    download = client.get("/manage/reports/hours.csv", params)
    assert download.status_code == 400
    assert download["Content-Type"] == "text/plain; charset=utf-8"
    assert download.content.decode().startswith(f"{field}: ")


def test_the_csv_is_excel_ready_and_injection_safe(client, admin_user, campaign, paragraphs):
    formula = UserFactory(username="=cmd", roles=[Role.ANNOTATOR])
    plain = UserFactory(username="ann1", roles=[Role.ANNOTATOR])
    submit(campaign, formula, claimed="2025-03-04 10:00", minutes=10, spent=(30, 50, 70))
    release(campaign, plain, claimed="2025-03-04 11:00", minutes=5)
    client.force_login(admin_user)
    response = client.get("/manage/reports/hours.csv", {"start": "2025-03-03", "end": "2025-03-10"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert (
        response["Content-Disposition"] == 'attachment; filename="hours-2025-03-03-2025-03-10.csv"'
    )
    assert response.content == (
        b"\xef\xbb\xbfusername,paragraphs,questions,hours,seconds,median_seconds_per_question,"
        b"answers,reviews\r\n"
        b"'=cmd,1,3,0.17,600,50,0,0\r\n"
        b"ann1,0,0,0.08,300,,0,0\r\n"
    )


def test_the_csv_of_an_empty_period_is_its_header(client, admin_user):
    client.force_login(admin_user)
    response = client.get("/manage/reports/hours.csv", {"start": "2025-03-03"})
    assert response.content == (
        b"\xef\xbb\xbfusername,paragraphs,questions,hours,seconds,median_seconds_per_question,"
        b"answers,reviews\r\n"
    )


@pytest.mark.parametrize("path", ["/manage/reports/hours/", "/manage/reports/hours.csv"])
def test_only_admins_see_the_report(client, annotator, reviewer, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/manage/reports/hours")
    for user in (annotator, reviewer):
        client.force_login(user)
        assert client.get(path).status_code == 403


# --- the annotator's home ----------------------------------------------------------------


def test_the_annotator_home_shows_their_own_figures(client, campaign, paragraphs, annotators):
    ann0, ann1, _ann2 = annotators
    now = timezone.now()
    week_start = datetime.combine(week_of(now)[0], datetime.min.time(), tzinfo=PARIS)
    finished = max(now - timedelta(seconds=1), week_start)
    lease = lease_claim_next(campaign=campaign, annotator=ann0).lease
    questions_submit(lease=lease, questions=good_questions(lease.paragraph, count=4))
    Lease.objects.filter(pk=lease.pk).update(
        created_at=finished - timedelta(minutes=12), finished_at=finished
    )
    Question.objects.filter(author=ann0, position=0).update(status="approved")
    submit(campaign, ann0, claimed="2025-01-06 10:00", minutes=50)  # capped at 30
    submit(campaign, ann1, claimed="2025-01-06 10:00", minutes=20, spent=(1, 2, 3, 4, 5))
    Question.objects.filter(author=ann1).update(status="rejected")
    client.force_login(ann0)
    response = client.get("/annotate/")
    assert response.status_code == 200
    assert response.context["summary"] == {
        "paragraphs": 2,
        "answers": 0,
        "reviews": 0,
        "questions": 4 + 3,
        "approved": 1,
        "rejected": 0,
        "corrected": 0,
        "pending": 6,
        "seconds_week": 720,
        "seconds_total": 720 + 1800,
        "time_week": "0:12",
        "time_total": "0:42",
    }
    html = response.content.decode()
    assert '<div id="annotator-work">' in html
    assert html.index('id="annotator-work"') < html.index('id="annotator-campaigns"')
    assert "<strong>0:12</strong>" in html and "<strong>0:42</strong>" in html
    assert f'action="/annotate/campaigns/{campaign.pk}/next/"' in html


def test_reviews_and_answers_are_counted_apart_from_paragraphs(campaign, paragraphs, annotators):
    """A reviewer's audited questions are paid time, not paragraphs written."""
    writer = annotators[0]
    lease = submit(campaign, writer, claimed="2025-03-04T09:00", minutes=10)
    Question.objects.filter(lease=lease).update(sampled_for_review=True)
    reviewer = UserFactory(username="rev1", roles=[Role.REVIEWER])
    for _ in range(2):
        review = review_claim_next(campaign=campaign, reviewer=reviewer).lease
        review_submit(lease=review, data={"verdict": "approve", "seconds_spent": 30})
        _date(review, paris("2025-03-04T10:00"), timedelta(minutes=2))

    rows = {row["username"]: row for row in hours_report(start=MARCH_3, end=MARCH_10)}

    assert {k: rows["rev1"][k] for k in ("paragraphs", "answers", "reviews", "seconds")} == {
        "paragraphs": 0,
        "answers": 0,
        "reviews": 2,
        "seconds": 240,
    }
    assert (rows[writer.username]["paragraphs"], rows[writer.username]["reviews"]) == (1, 0)
    assert annotator_summary(user=reviewer)["paragraphs"] == 0


def test_a_long_period_is_a_stored_report_and_the_csv_stays_exact(
    client,
    admin_user,
    worked_week,
    campaign,
    monkeypatch,
    sent_tasks,
    django_capture_on_commit_callbacks,
):
    """Past SMALL_PERIOD leases the page shows the stored report (computed by a job, again
    when work ends in the period); the CSV is computed whole at every download."""
    figure = figures.REGISTRY[HOURS_FIGURE]
    monkeypatch.setitem(
        figures.REGISTRY, HOURS_FIGURE, dataclasses.replace(figure, small=lambda **params: False)
    )
    client.force_login(admin_user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    period = {"start": "2025-03-03", "end": "2025-03-10"}

    def get():
        with django_capture_on_commit_callbacks(execute=True):
            return client.get("/manage/reports/hours/", period)

    first = get()
    assert first.status_code == 200
    assert first.context["rows"] == []
    html = first.content.decode()
    assert "This period's report is being computed" in html
    assert 'id="hours-report"' not in html
    row = StoredFigure.objects.get(name=HOURS_FIGURE)
    assert json.loads(row.key) == {"campaign": None, "end": "2025-03-10", "start": "2025-03-03"}
    assert len(sent_tasks.calls) == 1

    figure_compute(row=row)
    row.refresh_from_db()
    stored = get()
    assert [{k: r[k] for k in ANN0_ROW} for r in stored.context["rows"]] == [ANN0_ROW, ANN1_ROW]
    assert stored.context["totals"]["hours"] == Decimal("1.04")
    assert re.search(
        r'id="report-figure">Computed on [^<]*the CSV is computed', stored.content.decode()
    )
    assert len(sent_tasks.calls) == 1

    # More work ends in the period: the page keeps the stored report and computes again;
    # the CSV has it at once.
    more = campaign_create(name="Encore", splits=["dev"], lease_minutes=30)
    submit(more, worked_week[0], claimed="2025-03-08 10:00", minutes=20, spent=(40, 40, 40))
    again = get()
    assert again.context["rows"][0]["paragraphs"] == 2
    assert "work was sent since: computing again" in again.content.decode()
    assert len(sent_tasks.calls) == 2
    csv_text = client.get("/manage/reports/hours.csv", period).content.decode("utf-8-sig")
    assert csv_text.splitlines()[1].startswith("ann0,3,10,")
    figure_compute(row=StoredFigure.objects.get(name=HOURS_FIGURE, status="pending"))
    assert get().context["rows"][0]["paragraphs"] == 3
