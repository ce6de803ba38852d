"""A reviewer sees why a question was drawn (issue 28), on a desktop and a phone, in French
and English; the campaign page shows the quality settings."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.annotation.conftest import good_questions
from tests.e2e.conftest import keep_screenshot
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"
TEXT = (
    "Paragraphe {i} : Marseille accueille Bordeaux, Grenoble puis Toulouse chaque année, "
    "selon les archives."
)
DRAWN = {
    "fr": "Tirée : taux de 40 % car les erreurs de l’auteur dépassent nettement le seuil de 15 %",
    "en": "Drawn: rate 40% because the author's errors are clearly above the 15% bar",
}


def log_in(page, live_server, username):
    """Sign in whatever the page's language."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("#id_password").press("Enter")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.fixture
def flagged(db):
    """An adaptive campaign whose author's 20 first reviewed questions were all rejected: the
    next ones are drawn at the 40 % ceiling."""
    article_store(
        language="fr",
        source=SourceArticle(title="Villes", source_title="Villes"),
        paragraphs=[TEXT.format(i=i) for i in range(12)],
        wave="1.0",
        split="dev",
        kind="file",
    )
    campaign = campaign_create(
        name="Adaptive",
        splits=["dev"],
        review_rate=Decimal("0.50"),
        review_adaptive=True,
        review_ceiling=Decimal("0.40"),
        review_error_bar=Decimal("0.15"),
    )
    author = UserFactory(username="e2e-author", roles=[Role.ANNOTATOR])
    reviewer = UserFactory(username="e2e-rev", roles=[Role.REVIEWER], password=PASSWORD)
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password=PASSWORD)
    for _ in range(8):
        lease = lease_claim_next(campaign=campaign, annotator=author).lease
        questions_submit(lease=lease, questions=good_questions(lease.paragraph, 5))
        while claim := review_claim_next(campaign=campaign, reviewer=reviewer):
            review_submit(lease=claim.lease, data={"verdict": "reject", "reason": "wrong_answer"})
    for _ in range(3):
        lease = lease_claim_next(campaign=campaign, annotator=author).lease
        questions_submit(lease=lease, questions=good_questions(lease.paragraph, 5))
    campaign.review_lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    return campaign


@pytest.mark.parametrize(
    ("language", "width", "height"),
    [("fr", 1366, 768), ("en", 1366, 768), ("fr", 390, 844), ("en", 390, 844)],
)
def test_the_reviewer_sees_why_the_question_was_drawn(
    browser, live_server, flagged, language, width, height
):
    context = browser.new_context(
        locale="fr-FR" if language == "fr" else "en-US",
        viewport={"width": width, "height": height},
    )
    page = context.new_page()
    log_in(page, live_server, "e2e-rev")
    page.goto(f"{live_server.url}/review/leases/{flagged.review_lease.pk}/")
    drawn = page.locator("#review-drawn")
    expect(drawn).to_be_visible()
    text = drawn.inner_text().replace("\u00a0", " ").replace("\u202f", " ")
    assert text == DRAWN[language]
    keep_screenshot(page, f"review-drawn-{language}-{width}.png", full_page=False)
    context.close()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_campaign_page_shows_the_quality_settings(browser, live_server, flagged, language):
    context = browser.new_context(
        locale="fr-FR" if language == "fr" else "en-US", viewport={"width": 1366, "height": 768}
    )
    page = context.new_page()
    log_in(page, live_server, "e2e-admin")
    page.goto(f"{live_server.url}/manage/campaigns/{flagged.pk}/")
    adaptive = page.locator("#id_review_adaptive")
    expect(adaptive).to_be_checked()
    expect(page.locator("#id_gold_share")).to_have_value("0.00")
    page.locator("#id_review_adaptive").scroll_into_view_if_needed()
    keep_screenshot(page, f"campaign-quality-{language}.png", full_page=False)
    context.close()
