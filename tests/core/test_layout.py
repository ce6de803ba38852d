"""What the pages show and load (issue 12, items 13–15), through Django's client.

Bar charts whose labels are text (never cut), htmx only on the pages that use it, release
formats by name, and a time that ends a sentence without a double full stop. The layout itself
(overflow, cut text, both viewports) is checked in a browser by tests/e2e/test_every_page.py.
"""

import re
from datetime import UTC, datetime

import pytest
from django.template.loader import render_to_string

from core.charts import bar_chart
from core.models import WorkerCheck
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_execute, analysis_start
from exports.services.releases import release_create

HTMX = '<script src="/static/django_htmx/htmx-2.min.js" defer></script>'


def test_bar_chart_scales_bars_and_targets_to_the_largest_figure():
    chart = bar_chart("F1", [("humans", 92.5), ("#3 lexical", 37.0)], targets=[None, 50])
    assert chart == {
        "title": "F1",
        "bars": [
            {
                "label": "humans",
                "value": 92.5,
                "percent": 100.0,
                "target": None,
                "target_percent": None,
            },
            {
                "label": "#3 lexical",
                "value": 37.0,
                "percent": 40.0,
                "target": 50,
                "target_percent": 54.1,
            },
        ],
    }


def test_a_target_above_every_bar_sets_the_scale():
    chart = bar_chart("types", [("why", 10), ("how", 0)], targets=[40, None])
    assert [(b["percent"], b["target_percent"]) for b in chart["bars"]] == [
        (25.0, 100.0),
        (0.0, None),
    ]


def test_a_chart_of_zeros_draws_empty_bars():
    chart = bar_chart("empty", [("train", 0), ("dev", 0)])
    assert [b["percent"] for b in chart["bars"]] == [0.0, 0.0]


def test_chart_labels_are_whole_text_beside_an_svg_bar():
    label = "#12 camembert-base fine-tuned on fquad-1.1 with a long descriptive run name"
    html = render_to_string(
        "partials/bar_chart.html", {"chart": bar_chart("F1 on dev", [(label, 61.2)])}
    )
    assert f'<span class="bar-label">{label}</span>' in html
    assert "<text" not in html  # no SVG text to run out of its box
    assert '<rect width="100.0" height="10" class="chart-bar"></rect>' in html
    assert 'preserveAspectRatio="none"' in html


def test_chart_geometry_is_not_localized(settings):
    # French writes 54,1: an SVG attribute must keep the full stop.
    html = render_to_string(
        "partials/bar_chart.html",
        {"chart": bar_chart("t", [("a", 10), ("b", 3)], targets=[None, 5.41])},
    )
    assert '<rect width="30.0" height="10" class="chart-bar">' in html
    assert 'x1="54.1" x2="54.1"' in html


# htmx only where hx-* attributes are


def uses_htmx(html: str) -> bool:
    return bool(re.search(r"\shx-(get|post|put|patch|delete)=", html))


@pytest.mark.parametrize(
    ("path", "loads_htmx"),
    [
        ("/manage/", False),
        ("/manage/campaigns/", False),
        ("/manage/releases/", False),
        ("/manage/quality/", False),
        ("/manage/corpus/", False),
        ("/manage/system/", True),
        ("/manage/users/", True),
        # It polls the status of running scrape runs (none here, but the page opts in).
        ("/manage/corpus/scrape-runs/", True),
    ],
)
def test_htmx_is_loaded_only_by_pages_with_hx_attributes(admin_client, path, loads_htmx):
    html = admin_client.get(path).content.decode()
    assert (HTMX in html) is loads_htmx
    assert ('name="htmx-config"' in html) is loads_htmx
    if uses_htmx(html):
        assert loads_htmx


def test_the_sign_in_page_loads_no_script(client, db):
    html = client.get("/accounts/login/").content.decode()
    assert "<script" not in html


# Wording


@pytest.fixture
def english(client):
    client.cookies["django_language"] = "en"
    return client


def test_release_pages_name_the_formats(english, admin_user, sent_tasks):
    release = release_create(
        created_by=admin_user, name="fquad", version="1.1", formats=["mrqa", "squad", "hf"]
    )
    english.force_login(admin_user)
    names = "SQuAD v1.1 JSON, Hugging Face JSONL, MRQA"
    detail = english.get(f"/manage/releases/{release.pk}/").content.decode()
    assert re.search(r"<dt>Formats</dt><dd>\s*" + re.escape(names) + r"\s*</dd>", detail)
    listing = english.get("/manage/releases/").content.decode()
    assert re.search(r"<td>\s*" + re.escape(names) + r"\s*</td>", listing)
    assert "squad, hf" not in detail + listing


def test_the_analysis_time_ends_its_sentence_without_a_double_stop(english, admin_user, sent_tasks):
    analysis = analysis_start(created_by=admin_user)
    analysis_execute(analysis=analysis)
    # 08:05 UTC is 09:05 in Paris, written the same way in both languages (24-hour clock; it
    # once was "9:05 a.m.", which already ended in a stop).
    finished = datetime(2026, 11, 24, 8, 5, tzinfo=UTC)
    DatasetAnalysis.objects.filter(pk=analysis.pk).update(finished_at=finished)
    english.force_login(admin_user)
    html = english.get("/manage/analysis/").content.decode()
    assert (
        '<p class="hint" id="analysis-when">Shares in %. Computed on 11/24/2026 09:05</p>'
        in html
    )
    assert "a.m.." not in html


def test_a_lost_worker_s_time_is_not_followed_by_a_full_stop(english, admin_user):
    # 08:05 UTC on 15 January is 09:05 in Paris.
    silent = datetime(2026, 1, 15, 8, 5, tzinfo=UTC)
    check = WorkerCheck.objects.create(
        queue="default", status="running", started_at=silent, heartbeat_at=silent
    )
    english.force_login(admin_user)
    html = english.get(f"/manage/system/checks/{check.pk}/status/").content.decode()
    assert "The worker running this job stopped answering at 09:05: the job goes back" in html
    assert "a.m.." not in html
