"""A reviewer on a phone sees the answer under review without scrolling the paragraph's box.

Issue 25 §8: on a phone the paragraph's box has a capped height and scrolls inside; an answer
at the end of a long paragraph was hidden until the reviewer scrolled the box. The page brings
it into view when it opens, and again on the next question (the next page).
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import keep_screenshot
from tests.e2e.reviewing import open_next_review, written_for_review
from tests.e2e.test_sign_in import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"
FILLER = (
    "Le canal traverse des plaines, des collines et des villages dont les noms changent au fil "
    "des siècles, et ses écluses ovales retiennent l'eau des rigoles de la Montagne Noire. "
)
TEXT = (
    "Le canal du Midi relie Toulouse à la mer Méditerranée. "
    + FILLER * 7
    + "Pierre-Paul Riquet en dirigea les travaux ; il fut inauguré en 1681, après sa mort."
)


@pytest.fixture
def sampled(db):
    asked = [
        ("Quand fut-il inauguré ?", "1681"),
        ("Qui dirigea les travaux ?", "Pierre-Paul Riquet"),
        ("Que relie le canal ?", "Toulouse"),
    ]
    campaign, _questions = written_for_review(TEXT, asked)
    return campaign


def start_reviewing(page, live_server, campaign):
    page.goto(f"{live_server.url}/review/")
    open_next_review(page, campaign)


def answer_in_its_box(page) -> dict:
    """Where the highlighted answer is against the paragraph box's visible area (pixels)."""
    return page.evaluate(
        """() => {
            const box = document.getElementById('paragraph');
            const mark = box.querySelector('mark.answer-mark');
            const b = box.getBoundingClientRect(), m = mark.getBoundingClientRect();
            return {capped: box.scrollHeight > box.clientHeight + 20,
                    inside: m.top >= b.top && m.bottom <= b.bottom,
                    onScreen: m.top >= 0 && m.bottom <= window.innerHeight,
                    text: mark.textContent};
        }"""
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_on_a_phone_the_answer_under_review_is_in_view(browser, live_server, sampled, language):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR")
    page = context.new_page()
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    start_reviewing(page, live_server, sampled)
    expect(page.locator("#paragraph mark.answer-mark")).to_have_text("1681")
    seen = answer_in_its_box(page)
    assert seen == {"capped": True, "inside": True, "onScreen": True, "text": "1681"}
    keep_screenshot(page, f"review-phone-answer-in-view-{language}-390.png")

    # The next question (its own page): its answer is brought into view too.
    page.keyboard.press("a")
    page.keyboard.press("Control+Enter")
    expect(page.locator("#paragraph mark.answer-mark")).to_have_text("Pierre-Paul Riquet")
    seen = answer_in_its_box(page)
    assert seen == {"capped": True, "inside": True, "onScreen": True, "text": "Pierre-Paul Riquet"}
    # An answer at the start stays where it is: the box is not scrolled for nothing.
    page.keyboard.press("a")
    page.keyboard.press("Control+Enter")
    expect(page.locator("#paragraph mark.answer-mark")).to_have_text("Toulouse")
    assert answer_in_its_box(page)["inside"] is True
    assert page.evaluate("document.getElementById('paragraph').scrollTop") == 0
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    context.close()


def test_on_a_laptop_the_answer_under_review_is_in_view(browser, live_server, sampled):
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="fr-FR")
    page = context.new_page()
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    start_reviewing(page, live_server, sampled)
    expect(page.locator("#paragraph mark.answer-mark")).to_have_text("1681")
    keep_screenshot(page, "review-laptop-fr-1366.png")
    assert answer_in_its_box(page)["onScreen"] is True
    context.close()
