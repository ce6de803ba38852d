"""Chromium: the quality table with agreement, flags and their evidence, the weekly history and
the pause in the same row, on desktop and phone, in French and English (issue 28, items 3
and 5; docs/quality.md). Screenshots go to $QA_SHOTS_DIR when set (else the test's tmp dir)."""

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from annotation.models import Campaign, GoldAnswer, GoldQuestion, Question
from core.roles import Role
from tests.e2e.test_sign_in import sign_in
from tests.evaluation.test_annotator_quality import careless_campaign  # noqa: F401
from tests.evaluation.test_human import answered, people, written  # noqa: F401
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "fr": {
        "short": "Réponses les plus courtes",
        "evidence": "8 réponses sur 20",
        "pause": "Mettre en pause",
        "count": "2 signalements",
    },
    "en": {
        "short": "Shortest spans",
        "evidence": "8 of 20 answers",
        "pause": "Pause",
        "count": "2 flags",
    },
}


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("QA_SHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def history(careless_campaign):  # noqa: F811
    """lazy's 20 questions over three weeks, as time would have spread them, and reviewed:
    three weeks ago 8 (4 reviewed, 1 rejected), two weeks ago 8 (4 reviewed, 3 rejected),
    this week 4 (none reviewed)."""
    _campaign, writers = careless_campaign
    mine = list(Question.objects.filter(author=writers["lazy"]).order_by("pk"))
    now = timezone.now()
    for weeks, chunk, rejected in ((3, mine[:8], 1), (2, mine[8:16], 3), (0, mine[16:], 0)):
        ids = [question.pk for question in chunk]
        Question.objects.filter(pk__in=ids).update(created_at=now - timedelta(weeks=weeks))
        if weeks:
            Question.objects.filter(pk__in=ids[:rejected]).update(status="rejected")
            Question.objects.filter(pk__in=ids[rejected:4]).update(status="approved")
    return writers


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_quality_table_shows_flags_history_and_the_pause(
    browser,
    live_server,
    answered,  # noqa: F811
    history,
    shots,
    width,
    height,
    language,
):
    UserFactory(username="boss", roles=[Role.ADMIN])
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    sign_in(page, live_server, "boss", "correct horse battery staple")
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/manage/quality/")
    words = WORDS[language]

    lazy = page.locator('tr[data-annotator="lazy"]')
    flag = lazy.locator('details[data-flag="short"]')
    expect(flag.locator("summary")).to_have_text(words["short"])
    expect(lazy.locator("details.quality-flag")).to_have_count(2)
    expect(page.locator('tr[data-annotator="careful"] [data-column="flags"]')).to_have_text("—")
    # The history: agreement (none in train) and the share rejected, three weeks.
    expect(lazy.locator(".spark-rejected circle")).to_have_count(2)
    expect(page.locator('tr[data-annotator="ann0"] .spark-agreement circle')).to_have_count(1)
    # ann0: dev and test answers, 11/12
    expect(page.locator('tr[data-annotator="ann0"] [data-column="agreement"]')).to_contain_text(
        "91,7" if language == "fr" else "91.7"
    )
    expect(page.locator("#quality-agreement-overall")).to_contain_text(
        "82,1" if language == "fr" else "82.1"
    )
    # The pause is in the same row.
    expect(lazy.get_by_role("button", name=words["pause"])).to_be_visible()
    # The page does not scroll sideways: the wide table scrolls in its own box.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(shots / f"quality-{language}-{width}.png"), full_page=True)

    # The name's badge says how many flags and leads to them (a phone scrolls the table).
    count = lazy.locator("a.flag-count")
    expect(count).to_have_text(words["count"])
    count.click()
    expect(flag).to_be_in_viewport()
    flag.locator("summary").click()
    expect(flag.locator(".flag-evidence")).to_contain_text(words["evidence"])
    expect(flag.locator(".flag-examples li")).to_have_count(3)
    lazy.locator("details.quality-history summary").click()
    expect(lazy.locator(".history-table tbody tr")).to_have_count(2)
    lazy.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"quality-{language}-{width}-open.png"), full_page=True)
    assert problems == []
    context.close()


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_what_an_admin_decides_on_is_in_view_without_scrolling_sideways(
    browser,
    live_server,
    careless_campaign,  # noqa: F811
    history,
    shots,
    width,
    height,
    language,
):
    """A campaign's table: the review rate and why, the gold score, the agreement and the
    flags come right after the name, so a laptop (1366 px) shows them without scrolling the
    table; a phone scrolls the table in its box, never the page."""
    campaign, _writers = careless_campaign
    Campaign.objects.filter(pk=campaign.pk).update(review_adaptive=True)
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    source = Question.objects.filter(author=history["careful"]).first()
    gold = GoldQuestion.objects.create(
        question=source, answers=[source.text], language="fr", marked_by=admin
    )
    GoldAnswer.objects.create(
        gold=gold, annotator=history["lazy"], campaign=campaign, text="x", exact=0.0, f1=20.0
    )
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    sign_in(page, live_server, "boss", "correct horse battery staple")
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/manage/quality/?campaign={campaign.pk}")
    lazy = page.locator('tr[data-annotator="lazy"]')
    expect(lazy.locator('[data-column="gold"]')).to_contain_text(
        "0,0" if language == "fr" else "0.0"
    )
    work = lazy.locator("td").last.bounding_box()  # the Work column, kept in view
    for column in ("review-rate", "gold", "agreement", "flags"):
        box = lazy.locator(f'[data-column="{column}"]').bounding_box()
        if width >= 1366:
            assert box["x"] + box["width"] <= work["x"], column  # not under the Work column
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(shots / f"quality-campaign-{language}-{width}.png"), full_page=True)
    context.close()
