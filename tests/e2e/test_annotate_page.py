"""The annotation page as an annotator meets it (issue 25, items 1–5): Back after "Send", what an
empty question says, a long question counted and never cut, what is kept in reach on a phone,
and the next paragraph's page fetched once."""

import re

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from annotation.models import Lease, Question
from annotation.services.campaigns import campaign_create
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.services.model_loop.campaign_model import campaign_model_set
from tests.e2e.conftest import settle
from tests.e2e.test_annotate import LONG_TEXT, PASSWORD, QUESTIONS, TEXT, add, drag_select
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.both_backends,
    pytest.mark.django_db(transaction=True),
]

SEINE = TEXT.replace("Loire", "Seine")


def store(title, text):
    article_store(
        language="fr",
        source=SourceArticle(title=title, source_title=title),
        paragraphs=[text],
        wave="1.0",
        split="dev",
        kind="file",
    )


@pytest.fixture
def two_paragraphs(db):
    store("Loire", TEXT)
    store("Seine", SEINE)
    campaign = campaign_create(name="Questions", splits=["dev"])
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    return campaign


def open_first(page, live_server):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")  # the script ran
    return page.url


def write_and_send(page):
    for question, answer in QUESTIONS:
        add(page, question, answer)
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()


def test_back_after_send_says_the_paragraph_was_sent_and_offers_the_next(
    page, live_server, two_paragraphs
):
    first = open_first(page, live_server)
    paragraph = page.locator("#paragraph").text_content()
    write_and_send(page)
    # What the live page shows once sent: the count, and the answers marked in the paragraph.
    live_count = page.locator("#question-counter").text_content()
    live_marks = page.locator("#paragraph").inner_html()
    assert live_count == "3 / 3–5" and live_marks.count("<mark ") == 3
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")
    second = page.url
    assert second != first
    page.get_by_label("Question", exact=True).fill("Une question en cours ?")

    page.go_back()
    expect(page).to_have_url(first)
    expect(page.locator("#sent-message")).to_have_text("Ce paragraphe a été envoyé.")
    expect(page.locator("#sent-message")).to_be_visible()
    expect(page.locator("#paragraph")).to_have_text(paragraph)
    # The server-rendered sent state matches the live one (issue 25, left over).
    expect(page.locator("#question-counter")).to_have_text(live_count)
    assert page.locator("#paragraph").inner_html() == live_marks
    expect(page.locator("#question-list .question-text")).to_have_text([q for q, _ in QUESTIONS])
    expect(page.locator("#question-form")).to_be_hidden()
    expect(page.locator("#submit-paragraph")).to_be_hidden()
    expect(page.locator("#question-list button")).to_have_count(0)
    expect(page.locator("#next-paragraph")).to_be_focused()

    # The next one offered is the paragraph already held, with what was being written on it.
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(second)
    expect(page.get_by_label("Question", exact=True)).to_have_value("Une question en cours ?")
    assert Lease.objects.filter(annotator__username="e2e-ann").count() == 2
    assert Question.objects.count() == 3
    assert page.console_problems == []


def test_the_paragraph_is_sent_after_the_draft_save_on_its_way_never_before(
    page, live_server, two_paragraphs
):
    """A draft save still on its way when Send is pressed would reach a sent lease (409, and
    a refusal said on a page already sent): the paragraph waits for its answer."""
    open_first(page, live_server)
    held, posts = [], []
    page.route(
        "**/draft/",
        lambda route: held.append(route) if route.request.method == "PUT" else route.continue_(),
    )
    page.on("request", lambda r: r.method == "POST" and "/submit" in r.url and posts.append(r))
    for question, answer in QUESTIONS:
        add(page, question, answer)
    for _ in range(100):  # a save on its way, unanswered
        if held:
            break
        page.wait_for_timeout(100)
    assert held
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    page.wait_for_timeout(500)
    assert posts == []  # the paragraph waits
    for route in held:
        route.continue_()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    assert len(posts) == 1
    assert Question.objects.count() == 3
    assert page.console_problems == []


def test_an_empty_question_says_what_is_missing_question_first(page, live_server, two_paragraphs):
    open_first(page, live_server)
    field = page.get_by_label("Question", exact=True)
    field.press("Enter")
    expect(page.locator("#question-hints li")).to_have_text(
        ["Écrivez la question, puis sélectionnez sa réponse dans le paragraphe."]
    )
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")

    drag_select(page, "Saint-Nazaire")  # the answer, not the question
    field.press("Enter")
    expect(page.locator("#question-hints li")).to_have_text(["Écrivez la question."])

    page.evaluate("getSelection().removeAllRanges()")
    field.fill("Où la Loire se jette-t-elle ?")
    field.press("Enter")
    expect(page.locator("#question-list li")).to_have_count(1)
    field.fill("Quel est le plus long fleuve ?")
    field.press("Enter")
    expect(page.locator("#question-hints li")).to_have_text(
        ["Sélectionnez la réponse dans le paragraphe."]
    )
    assert page.console_problems == []


def test_a_long_question_is_counted_in_characters_and_never_cut(page, live_server, two_paragraphs):
    open_first(page, live_server)
    field = page.get_by_label("Question", exact=True)
    counter = page.locator("#question-length")
    # 1,200 characters, 60 of them emoji (2 UTF-16 units each): 1,260 units.
    pasted = ("Pourquoi 🌊 la Loire " * 60)[:1199] + "?"
    assert len(pasted) == 1200 and len(pasted.encode("utf-16-le")) // 2 > 1200
    field.focus()
    page.keyboard.insert_text(pasted)  # as a paste: the browser's own limits apply
    expect(field).to_have_value(pasted)  # nothing cut
    expect(counter).to_be_visible()
    expect(counter).to_have_text("1\u202f200 / 1\u202f000 caractères")
    expect(counter).to_have_class(re.compile("is-over"))
    drag_select(page, "Saint-Nazaire")
    field.press("Enter")
    expect(page.locator("#question-hints li.field-error")).to_have_text(
        [
            "Cette question fait 1\u202f200 caractères : ramenez-la à 1\u202f000 au plus. "
            "Rien n’a été coupé."
        ]
    )
    expect(page.locator("#question-list li")).to_have_count(0)
    expect(field).to_have_value(pasted)

    # Exactly 1,000 characters (1,050 UTF-16 units): counted as 1,000, accepted, stored whole.
    exact = ("Pourquoi 🌊 la Loire " * 60)[:999] + "?"
    field.fill(exact)
    expect(counter).to_have_text("1\u202f000 / 1\u202f000 caractères")
    expect(counter).not_to_have_class(re.compile("is-over"))
    field.fill("Quelle " + "très " * 175 + "longue question ?")  # 900+: the counter shows
    expect(counter).to_have_text(re.compile(r"^\d{3} / 1\u202f000 caractères$"))
    field.fill("Courte ?")
    expect(counter).to_be_hidden()
    field.fill(exact)
    field.press("Enter")
    expect(page.locator("#question-list li")).to_have_count(1)
    add(page, *QUESTIONS[0])
    add(page, *QUESTIONS[1])
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    stored = Question.objects.order_by("position").first()
    assert stored.text == exact.strip() and len(stored.text) == 1000
    assert page.console_problems == []


def test_on_a_phone_send_the_count_and_the_models_word_stay_in_reach(browser, live_server, db):
    store("Loire", LONG_TEXT)
    campaign = campaign_create(name="Contre le modèle", splits=["dev"])
    campaign_model_set(
        campaign=campaign,
        data={"model_mode": "adversarial", "model_fooling_target": 1, "model_kind": "lexical"},
    )
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    context = browser.new_context(
        locale="fr-FR", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    open_first(page, live_server)
    for question, answer in QUESTIONS[:2]:
        add(page, question, answer)
    bar = page.locator("#action-bar")
    expect(page.locator("#bar-counter")).to_have_text("2 / 3–5")
    expect(page.locator("#bar-model")).to_contain_text("2.")
    expect(page.locator("#bar-model .model-verdict")).to_have_text(re.compile("trompé"))
    # Without scrolling: the bar is on screen, at its bottom, and nothing covers Send.
    for selector in ("#bar-counter", "#bar-model", "#submit-paragraph"):
        expect(page.locator(selector)).to_be_in_viewport()
    box = bar.bounding_box()
    assert box["y"] + box["height"] <= 844 and box["y"] > 844 / 2
    add(page, *QUESTIONS[2])
    expect(page.locator("#submit-paragraph")).to_be_enabled()
    assert (
        page.evaluate(
            """() => { const b = document.getElementById('submit-paragraph').getBoundingClientRect();
               return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id; }"""
        )
        == "submit-paragraph"
    )
    page.locator("#submit-paragraph").tap()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_in_viewport()
    expect(page.locator("#next-paragraph")).to_be_in_viewport()
    assert_apart(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    settle(page)
    context.close()


def assert_apart(page, least_px=16):
    """The buttons "Next paragraph" and "Back to your home page" do not touch: at least `least_px` apart
    (side by side or one above the other)."""
    button = page.locator("#next-paragraph").bounding_box()
    link = page.locator("#after-submit a").bounding_box()
    if link["x"] >= button["x"] + button["width"]:  # side by side
        assert link["x"] - (button["x"] + button["width"]) >= least_px
    else:  # wrapped below
        assert link["y"] - (button["y"] + button["height"]) >= least_px / 2


def test_on_a_wide_screen_next_paragraph_and_home_are_apart(browser, live_server, two_paragraphs):
    context = browser.new_context(locale="fr-FR", viewport={"width": 1366, "height": 768})
    page = context.new_page()
    open_first(page, live_server)
    write_and_send(page)
    expect(page.locator("#next-paragraph")).to_be_in_viewport()
    assert_apart(page, least_px=20)
    settle(page)
    context.close()


def test_the_next_paragraphs_page_is_fetched_once(page, live_server, two_paragraphs):
    """Fetched ahead while "Sent" shows, the next paragraph's page is the one "Next paragraph"
    opens: the server sees one GET of it, not two."""
    seen = []

    def on_request(sender, environ, **kwargs):
        seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))

    request_started.connect(on_request, weak=False)
    try:
        open_first(page, live_server)
        write_and_send(page)
        expect(page.locator('link[rel="prefetch"]')).to_have_count(1)
        held = Lease.objects.get(annotator__username="e2e-ann", status=Lease.Status.ACTIVE)
        path = f"/annotate/leases/{held.pk}/"
        for _ in range(100):  # the page fetched ahead has arrived
            if ("GET", path) in seen:
                break
            page.wait_for_timeout(50)
        page.get_by_role("button", name="Paragraphe suivant").click()
        expect(page.locator("#paragraph")).to_have_text(SEINE)
        expect(page.locator("#question-counter")).to_have_text("0 / 3–5")
        expect(page).to_have_url(f"{live_server.url}{path}")  # its own address, not ?ahead
        page.wait_for_timeout(300)
    finally:
        request_started.disconnect(on_request)
    assert seen.count(("GET", path)) == 1
    assert page.console_problems == []
