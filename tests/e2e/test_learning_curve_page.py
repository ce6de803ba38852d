"""Chromium (desktop): the results page draws a finished learning curve, and the campaign
dashboard loads the estimate beside the annotation cost by htmx."""

import re
from datetime import timedelta

import pytest
from django.db.models import F
from playwright.sync_api import expect

from annotation.models import Campaign, Lease
from tests.e2e.test_sign_in import sign_in
from tests.evaluation.test_learning_curve_runs import (  # noqa: F401 (autouse fixture)
    finished_curve,
    make_release,
    releases_folder,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_results_page_draws_the_curve_and_the_dashboard_loads_the_estimate(
    page,
    live_server,
):
    release = make_release()
    campaign = Campaign.objects.get()
    Lease.objects.filter(campaign=campaign).update(
        created_at=F("finished_at") - timedelta(minutes=13)
    )
    run = finished_curve(release, campaign)
    admin = release.created_by
    admin.set_password("a long e2e password")
    admin.save()
    page.set_viewport_size({"width": 1280, "height": 900})
    sign_in(page, live_server, admin.username, "a long e2e password")

    page.goto(f"{live_server.url}/manage/results/?release={release.pk}")
    page.locator('.subnav a[data-page="results-curves"]').click()  # the tab, the release kept
    expect(page).to_have_url(f"{live_server.url}/manage/results/curves/?release={release.pk}")
    expect(page.locator('.subnav a[aria-current="page"]')).to_have_attribute(
        "data-page", "results-curves"
    )
    chart = page.locator(f"#learning-curve-chart-{run.pk} svg[role=img]").first
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] > 400 and box["height"] > 150
    expect(page.locator(f"#learning-curve-chart-{run.pk} polyline")).to_have_count(3)
    expect(page.locator(f"#learning-curve-estimate-{run.pk}")).to_contain_text(
        re.compile(r"2\s?000.*78,3.*75,0.*80,1.*4\s?000.*80,3")
    )
    expect(page.locator(f"#learning-curve-table-{run.pk} tbody tr")).to_have_count(6)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280

    page.goto(f"{live_server.url}/manage/campaigns/{campaign.pk}/dashboard/")
    sentence = page.locator("#learning-estimate-sentence")
    expect(sentence).to_contain_text(re.compile(r"50,0.*\+2,8"))
    expect(page.locator("#target-why")).to_have_value("50")
    assert page.console_problems == []
