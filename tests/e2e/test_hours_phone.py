"""The hours report on a phone: its table's header row stays one short row.

The last column's heading, "Median seconds per question" ("Secondes médianes par question"),
wrapped word by word in its narrow column on a 390-pixel screen, making the header row four
or five lines tall for a column scrolled off to the side. On a phone it reads "Median s/q."
(« s/q méd. »), the whole heading in its title and for screen readers.
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from annotation.models import Lease, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.e2e.conftest import keep_screenshot
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"
TEXT = "Le canal du Midi relie Toulouse à la Méditerranée depuis mille six cent quatre-vingt-un."
PERIOD = "?start=2025-03-03&end=2025-03-10"
# One line of headings is 35 px tall on a phone (.85rem text and the cell's padding), two
# lines 55 px; the old heading took four (96 px, in French and in English).
PHONE_HEADER_MAX_PX = 45
MEDIAN = {
    "fr": ("Secondes médianes par question", "Médiane s/question"),
    "en": ("Median seconds per question", "Median s/question"),
}


@pytest.fixture
def worked(db):
    article_store(
        language="fr",
        source=SourceArticle(title="Canal du Midi", source_title="Canal du Midi"),
        paragraphs=[TEXT],
        wave="1.0",
        split="dev",
        kind="file",
    )
    campaign = campaign_create(name="Questions", splits=["dev"])
    annotator = UserFactory(username="e2e-annotatrice", roles=[Role.ANNOTATOR])
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password=PASSWORD)
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    questions_submit(
        lease=lease,
        questions=[
            {
                "text": f"Que dit le texte de « {word} » ?",
                "answer_start": TEXT.index(word),
                "answer_text": word,
                "seconds_spent": 45,
            }
            for word in ("Toulouse", "Méditerranée", "canal")
        ],
    )
    claimed = datetime(2025, 3, 4, 10, 0, tzinfo=ZoneInfo("Europe/Paris"))
    finished = claimed + timedelta(minutes=12)
    Lease.objects.filter(pk=lease.pk).update(created_at=claimed, finished_at=finished)
    Question.objects.filter(lease=lease).update(created_at=finished)


def open_report(browser, live_server, language, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    sign_in(page, live_server, "e2e-admin", PASSWORD)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/manage/reports/hours/{PERIOD}")
    expect(page.locator("#hours-report tbody th")).to_have_text("e2e-annotatrice")
    return context, page


def header_height(page) -> float:
    return page.evaluate(
        "document.querySelector('#hours-report thead tr').getBoundingClientRect().height"
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_on_a_phone_the_hours_header_row_stays_short(browser, live_server, worked, language):
    context, page = open_report(browser, live_server, language, 390, 844)
    keep_screenshot(page, f"hours-phone-{language}-390.png", full_page=True)
    height = header_height(page)
    assert height < PHONE_HEADER_MAX_PX, f"the header row is {height} px tall"
    long, short = MEDIAN[language]
    # The short heading is the one seen, its long form the column's name for screen readers.
    expect(page.locator("#hours-median .heading-short")).to_be_visible()
    expect(page.locator("#hours-median .heading-short")).to_have_text(short)
    expect(page.locator("#hours-median .heading-short")).to_have_attribute("title", long)
    expect(page.get_by_role("columnheader", name=long, exact=True)).to_have_count(1)
    page.locator(".table-wrap").evaluate("wrap => { wrap.scrollLeft = wrap.scrollWidth; }")
    keep_screenshot(page, f"hours-phone-{language}-390-scrolled.png", full_page=True)
    context.close()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_on_a_laptop_the_hours_table_shows_the_whole_heading(
    browser, live_server, worked, language
):
    context, page = open_report(browser, live_server, language, 1366, 768)
    keep_screenshot(page, f"hours-laptop-{language}-1366.png", full_page=True)
    long, _short = MEDIAN[language]
    expect(page.locator("#hours-median .heading-long")).to_have_text(long)
    expect(page.locator("#hours-median .heading-long")).to_be_visible()
    expect(page.locator("#hours-median .heading-short")).to_be_hidden()
    assert header_height(page) < PHONE_HEADER_MAX_PX
    context.close()
