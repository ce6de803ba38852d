"""Chromium smoke of the release schedules pages (desktop): an admin creates a schedule with
the form, runs it now, sees the snapshot and the chart partial that htmx loads."""

import pytest
from playwright.sync_api import expect

from config.celery import app
from core.roles import Role
from exports.models import Release, ReleaseSchedule
from tests.e2e.conftest import settle
from tests.e2e.test_sign_in import sign_in
from tests.exports.test_releases import make_dataset
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(browser):  # a French page: overrides the conftest's
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.console_problems = problems
    yield page
    settle(page)
    context.close()


def test_an_admin_schedules_snapshots_and_runs_one_now(page, live_server, monkeypatch):
    monkeypatch.setattr(app, "send_task", lambda *args, **kwargs: None)  # no build here
    make_dataset()
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password="a long e2e password")
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, live_server, "e2e-admin", "a long e2e password")
    page.goto(f"{live_server.url}/manage/releases/schedules/")
    expect(page.locator("#schedule-list .empty-state")).to_be_visible()

    form = page.locator("#schedule-form")
    form.locator("#id_name").fill("fquad-nightly")
    form.locator("#id_frequency").select_option("daily")
    form.locator("#id_hour").fill("3")
    form.locator("#id_keep_last").fill("0")  # refused: at least 1
    form.get_by_role("button").click()
    expect(form.locator(".errorlist")).to_contain_text("Un nombre entier, au moins 1.")
    assert ReleaseSchedule.objects.count() == 0

    form.locator("#id_keep_last").fill("2")
    form.locator("input[name=campaigns]").first.check()
    form.get_by_role("button").click()
    page.wait_for_url(lambda url: url.rstrip("/").split("/")[-1].isdigit())
    schedule = ReleaseSchedule.objects.get()
    assert (schedule.name, schedule.hour, schedule.keep_last) == ("fquad-nightly", 3, 2)
    assert schedule.campaigns.count() == 1

    page.locator("#schedule-run").click()
    snapshot = Release.objects.get()
    row = page.locator(f'#snapshot-list tr[data-release="{snapshot.pk}"]')
    expect(row).to_contain_text(snapshot.name)
    page.locator("#schedule-run").click()
    expect(page.locator(".messages")).to_contain_text("rien à construire")
    assert Release.objects.count() == 1
    # The chart partial (evaluation) replaced its placeholder: no finished snapshot yet.
    expect(page.locator("#schedule-chart .empty-state")).to_be_visible()
    # The one 400 is the refused form's answer (keep_last 0), by design.
    assert [p for p in page.console_problems if "status of 400" not in p] == []
