"""The pages of a campaign in another language, in Chromium (core.languages): an Arabic
paragraph reads right to left and hints for "؟"; a Thai campaign's pages say what Thai lacks.

Set SCREENSHOTS_DIR to keep screenshots (1366x768 and 390x844, French and English interface).
"""

import os

import pytest
from playwright.sync_api import expect

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"
ARABIC = (
    "القاهرة هي عاصمة جمهورية مصر العربية وأكبر مدنها، تقع على ضفاف نهر النيل، وهي من أكبر "
    "مدن أفريقيا والشرق الأوسط من حيث عدد السكان، وتضم الأزهر الشريف وعددا كبيرا من المساجد "
    "والكنائس والمتاحف التي تحكي تاريخ البلاد الطويل منذ عصر الفراعنة حتى اليوم، وتلقب بمدينة "
    "الألف مئذنة لكثرة مآذنها التاريخية."
)
SIZES = ((1366, 768), (390, 844))


def _shot(page, name):
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def _context(browser, live_server, username, interface, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("button.button-primary[type=submit]").click()
    page.wait_for_load_state()
    return context, page


def test_an_arabic_paragraph_reads_right_to_left_and_hints_for_its_question_mark(
    browser, live_server
):
    for title in ("القاهرة", "مصر"):  # one paragraph for each writer
        article_store(
            language="ar",
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[ARABIC],
            wave="1.0",
            split="train",
            kind="file",
        )
    campaign = campaign_create(name="أسئلة", language="ar")
    for interface in ("fr", "en"):
        writer = UserFactory(
            username=f"writer-{interface}",
            roles=[Role.ANNOTATOR],
            password=PASSWORD,
            language=interface,
        )
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        for size in SIZES:
            context, page = _context(browser, live_server, writer.username, interface, size)
            page.goto(f"{live_server.url}/annotate/leases/{lease.pk}/")
            paragraph = page.locator("#paragraph")
            expect(paragraph).to_have_attribute("dir", "rtl")
            expect(paragraph).to_have_attribute("lang", "ar")
            assert paragraph.evaluate("p => getComputedStyle(p).direction") == "rtl"
            page.locator("#question-text").fill("ما هي عاصمة مصر")
            hint = "Une question se termine par" if interface == "fr" else "A question ends with"
            expect(page.locator("#question-hints")).to_contain_text(f"{hint}")
            expect(page.locator("#question-hints")).to_contain_text("؟")
            _shot(page, f"lease-ar-{interface}-{size[0]}")
            page.locator("#question-text").fill("ما هي عاصمة مصر؟")
            expect(page.locator("#question-hints")).not_to_contain_text(hint)
            page.locator("#question-text").fill("")
            context.close()


def test_a_thai_campaign_says_what_thai_lacks(browser, live_server):
    campaign = campaign_create(name="คำถาม", language="th")
    for interface, said in (
        ("fr", "Types de question\u00a0: non disponibles en thaï."),
        ("en", "Question types: not available for Thai."),
    ):
        UserFactory(
            username=f"boss-{interface}", roles=[Role.ADMIN], password=PASSWORD, language=interface
        )
        for size in SIZES:
            context, page = _context(browser, live_server, f"boss-{interface}", interface, size)
            page.goto(f"{live_server.url}/manage/campaigns/{campaign.pk}/dashboard/")
            expect(page.locator("#question-types-unavailable")).to_have_text(said)
            _shot(page, f"dashboard-th-{interface}-{size[0]}")
            page.goto(f"{live_server.url}/manage/campaigns/{campaign.pk}/")
            expect(page.locator("#guidelines-unavailable")).to_be_visible()
            _shot(page, f"campaign-th-{interface}-{size[0]}")
            context.close()
