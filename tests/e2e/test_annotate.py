"""Journey: an annotator claims a paragraph, drag-selects answers, writes 3 questions, submits;
another reloads mid-way and finds the draft."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Lease, Question
from annotation.services.campaigns import campaign_create
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.e2e.articles import one_article
from tests.e2e.conftest import settle
from tests.e2e.mouse import drag, drag_phrase, phrase_box
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

# `make test` runs it on SQLite too (the live server and the test share the SQLite file).
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.both_backends,
    pytest.mark.django_db(transaction=True),
]

TEXT = (
    "La Loire 🌊 est le plus long fleuve de France : elle parcourt 1 006 kilomètres depuis le "
    "mont Gerbier-de-Jonc, en Ardèche, jusqu'à l'océan Atlantique, où elle se jette à "
    "Saint-Nazaire."
)
PASSWORD = "a long e2e password"


@pytest.fixture
def setup(db):
    one_article("Loire", TEXT)
    campaign = campaign_create(name="Questions", splits=["dev"])
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    return campaign


def drag_select(page, phrase):
    """Select `phrase` in the paragraph with a real mouse drag."""
    expect(page.locator("#question-counter")).to_contain_text("/")  # the page script runs
    drag_phrase(page, TEXT, phrase)
    expect(page.locator("#answer-preview")).to_have_text(phrase)


def test_annotator_writes_three_questions_and_the_offsets_match(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#paragraph")).to_have_text(TEXT)

    for question, answer in [
        ("Quelle est la longueur de la Loire ?", "1 006 kilomètres"),
        ("Où la Loire prend-elle sa source ?", "mont Gerbier-de-Jonc"),
        ("Dans quelle ville la Loire se jette-t-elle ?", "Saint-Nazaire"),
    ]:
        drag_select(page, answer)
        page.get_by_label("Question", exact=True).fill(question)
        page.get_by_role("button", name="Ajouter la question").click()
    expect(page.locator("#question-counter")).to_have_text("3 / 3–5")
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()

    stored = list(Question.objects.order_by("position"))
    assert [q.text for q in stored] == [
        "Quelle est la longueur de la Loire ?",
        "Où la Loire prend-elle sa source ?",
        "Dans quelle ville la Loire se jette-t-elle ?",
    ]
    assert [q.question_type for q in stored] == ["which", "where", "where"]
    for answer in Answer.objects.all():
        assert TEXT[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text
    assert Answer.objects.get(text="Saint-Nazaire").answer_start == TEXT.index("Saint-Nazaire")
    assert all(q.seconds_spent >= 0 for q in stored)
    assert page.console_problems == []


def test_a_reload_mid_way_restores_the_draft(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    drag_select(page, "Saint-Nazaire")
    page.get_by_label("Question", exact=True).fill("Où la Loire se jette-t-elle ?")
    page.get_by_role("button", name="Ajouter la question").click()
    page.get_by_label("Question", exact=True).fill("Quel fleuve est le plus long")
    expect(page.locator("#draft-status")).to_contain_text("Brouillon enregistré")

    page.reload()
    expect(page.locator("#question-list li")).to_have_count(1)
    expect(page.locator("#question-list li .question-text")).to_have_text(
        "Où la Loire se jette-t-elle ?"
    )
    expect(page.get_by_label("Question", exact=True)).to_have_value("Quel fleuve est le plus long")
    expect(page.locator("#paragraph mark.answer-mark")).to_have_text("Saint-Nazaire")
    assert Lease.objects.get().draft["questions"][0]["text"] == "Où la Loire se jette-t-elle ?"
    assert page.console_problems == []


def test_a_refusal_keeps_the_text_and_says_why(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    for question, answer in [("Qui ?", "Loire"), ("Quoi ?", "fleuve"), ("Où ?", "Ardèche")]:
        drag_select(page, answer)
        page.get_by_label("Question", exact=True).fill(question)
        page.get_by_role("button", name="Ajouter la question").click()
    Lease.objects.update(status="released")  # e.g. given back from another tab
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.locator("#submit-errors")).to_contain_text("Cet élément a été rendu")
    expect(page.locator("#question-list li")).to_have_count(3)
    assert Question.objects.count() == 0


def add(page, question, answer):
    drag_select(page, answer)
    page.get_by_label("Question", exact=True).fill(question)
    page.get_by_role("button", name="Ajouter la question").click()


def test_editing_a_question_keeps_the_unsent_one_and_the_others(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    add(page, "Question A ?", "Loire")
    add(page, "Question B ?", "fleuve")
    add(page, "Question C ?", "Ardèche")
    page.get_by_label("Question", exact=True).fill("Pas encore ajoutée")
    page.locator("#question-list li").nth(1).get_by_role("button", name="Modifier").click()
    expect(page.get_by_label("Question", exact=True)).to_have_value("Question B ?")
    expect(page.locator("#question-list button:has-text('Supprimer')").first).to_be_disabled()
    page.get_by_label("Question", exact=True).fill("Question B modifiée ?")
    page.get_by_role("button", name="Ajouter la question").click()
    expect(page.locator("#question-list .question-text")).to_have_text(
        ["Question A ?", "Question B modifiée ?", "Question C ?"]
    )
    expect(page.get_by_label("Question", exact=True)).to_have_value("Pas encore ajoutée")
    assert page.console_problems == []


def test_a_paragraph_with_a_carriage_return_keeps_its_offsets(page, live_server, db):
    text = "Première ligne du texte.\r\nSeconde ligne : la Garonne arrose Toulouse et Bordeaux."
    one_article("CR", text)
    campaign_create(name="CR", splits=["dev"])
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")  # the script has run
    assert page.evaluate("document.getElementById('paragraph').textContent") == text
    start = text.index("Toulouse")
    page.evaluate(
        """([s, e]) => {
        const node = document.getElementById('paragraph').firstChild;
        const range = document.createRange(); range.setStart(node, s); range.setEnd(node, e);
        getSelection().removeAllRanges(); getSelection().addRange(range);
        node.parentNode.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
    }""",
        [start, start + len("Toulouse")],
    )
    expect(page.locator("#answer-preview")).to_have_text("Toulouse")
    for question in ("Quelle ville ?", "Laquelle encore ?", "Et une troisième ?"):
        page.get_by_label("Question", exact=True).fill(question)
        page.get_by_role("button", name="Ajouter la question").click()
        if question != "Et une troisième ?":
            page.evaluate(
                """([s, e]) => {
                const p = document.getElementById('paragraph'); const t = p.textContent;
                const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
                let node, seen = 0, a, b;
                while ((node = walker.nextNode())) {
                  if (!a && seen + node.length >= s) a = [node, s - seen];
                  if (!b && seen + node.length >= e) b = [node, e - seen];
                  seen += node.length; }
                const range = document.createRange(); range.setStart(...a); range.setEnd(...b);
                getSelection().removeAllRanges(); getSelection().addRange(range);
                p.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
            }""",
                [start, start + len("Toulouse")],
            )
    expect(page.locator("#question-counter")).to_have_text("3 / 3–5")
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    assert page.console_problems == []
    assert {a.answer_start for a in Answer.objects.all()} == {start}


# Issue 12, item 9: few actions, nothing editable once sent; items 8, 13 and 17 on this page.


class Actions:
    """The user's actions, counted: a drag, a click, a key press, one question's typing."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def drag(self, text, phrase):
        drag_phrase(self.page, text, phrase)
        self.count += 1

    def type(self, words):
        self.page.keyboard.type(words)  # into whatever has the focus: no click first
        self.count += 1

    def press(self, key):
        self.page.keyboard.press(key)
        self.count += 1


QUESTIONS = [
    ("Quelle est la longueur de la Loire ?", "1 006 kilomètres"),
    ("Où la Loire prend-elle sa source ?", "mont Gerbier-de-Jonc"),
    ("Dans quelle ville la Loire se jette-t-elle ?", "Saint-Nazaire"),
]


@pytest.mark.parametrize("order", ["question first", "answer first"])
def test_three_questions_are_written_and_sent_in_nine_actions(page, live_server, setup, order):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")  # the script ran
    expect(page.get_by_label("Question", exact=True)).to_be_focused()
    act = Actions(page)

    for number, (question, answer) in enumerate(QUESTIONS, 1):
        if order == "question first":
            act.type(question)
            act.drag(TEXT, answer)
        else:
            act.drag(TEXT, answer)
            expect(page.get_by_label("Question", exact=True)).to_be_focused()
            act.type(question)
        expect(page.locator("#answer-preview")).to_have_text(answer)
        act.press("Control+Enter" if number == 3 else "Enter")  # the last one adds and sends
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()

    assert act.count == 9
    stored = list(Question.objects.order_by("position"))
    assert [(q.text, q.answers.get().text) for q in stored] == QUESTIONS
    for q in stored:
        answer = q.answers.get()
        assert TEXT[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text
    assert page.console_problems == []


def test_once_sent_the_questions_are_shown_not_editable(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    for question, answer in QUESTIONS:
        add(page, question, answer)
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()

    expect(page.locator("#question-list .question-text")).to_have_text([q for q, _ in QUESTIONS])
    expect(page.locator("#question-list button")).to_have_count(0)
    expect(page.locator("#question-form")).to_be_hidden()
    expect(page.locator("#submit-paragraph")).to_be_hidden()
    expect(page.locator("#select-inside-words")).to_be_hidden()
    expect(page.locator("#next-paragraph")).to_be_focused()
    # A selection in the paragraph changes nothing any more.
    drag(page, phrase_box(page, TEXT, "Ardèche"), steps=4)
    page.wait_for_timeout(500)
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_count(0)
    expect(page.locator("#paragraph mark.answer-mark")).to_have_count(3)
    assert Question.objects.count() == 3
    assert page.console_problems == []


def test_send_takes_the_complete_question_along_and_keeps_an_unfinished_one(
    page, live_server, setup
):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    add(page, *QUESTIONS[0])
    add(page, *QUESTIONS[1])
    # Two added; the third is written but has no answer yet: sending keeps it on screen.
    page.get_by_label("Question", exact=True).fill(QUESTIONS[2][0])
    page.keyboard.press("Control+Enter")
    expect(page.locator("#submit-errors")).to_contain_text(
        "Terminez la question en cours (il lui faut sa réponse)"
    )
    expect(page.get_by_label("Question", exact=True)).to_have_value(QUESTIONS[2][0])
    assert Question.objects.count() == 0
    drag_select(page, QUESTIONS[2][1])
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    assert [q.text for q in Question.objects.order_by("position")] == [q for q, _ in QUESTIONS]


def english(page, live_server):
    """Switch the pages to English (the language cookie) and reload the current one."""
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()


def test_a_drag_takes_whole_words_and_a_cut_on_purpose_is_flagged(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    english(page, live_server)
    page.get_by_role("button", name="Next paragraph").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")
    act = Actions(page)

    act.drag(TEXT, "1 00")  # cut inside "006"
    expect(page.locator("#answer-preview")).to_have_text("1 006")
    expect(page.locator("#question-hints li")).to_have_count(0)
    expect(page.locator(".selected-answer > span")).to_have_text("Selected answer:")

    page.get_by_role("button", name="Select inside words").click()
    expect(page.get_by_role("button", name="Select inside words")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.evaluate("getSelection().removeAllRanges()")
    act.drag(TEXT, "1 006 kilomètre")
    expect(page.locator("#answer-preview")).to_have_text("1 006 kilomètre")
    expect(page.locator("#question-hints li")).to_have_text(
        ["The answer ends inside the word “kilomètres”."]
    )
    page.get_by_label("Question", exact=True).fill("Quelle longueur ?")
    page.keyboard.press("Enter")
    expect(page.locator("#question-list .question-answer")).to_have_text("Answer: 1 006 kilomètre")
    expect(page.locator("#question-list .hint")).to_have_text(
        "The answer ends inside the word “kilomètres”."
    )
    assert page.console_problems == []


def test_the_draft_time_is_the_servers_time_zone_in_the_pages_language(page, live_server, setup):
    page.context.clock.set_fixed_time("2025-01-15T13:03:27Z")  # the browser runs on UTC
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")  # the script ran
    page.get_by_label("Question", exact=True).fill("Quel fleuve ?")
    expect(page.locator("#draft-status")).to_have_text("Brouillon enregistré à 14:03")
    quotes = "getComputedStyle(document.querySelector('main').appendChild(document.createElement('q'))).quotes"
    assert page.evaluate(quotes) == '"«\u202f" "\u202f»" "“" "”"'  # « France pour »

    english(page, live_server)
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")
    page.get_by_label("Question", exact=True).fill("Which river?")
    # One format in both languages and on the server's pages: 24-hour, no seconds (issue 25)
    expect(page.locator("#draft-status")).to_have_text("Draft saved at 14:03")


def test_the_pace_shows_the_time_on_this_question_against_the_guideline(
    browser, live_server, setup
):
    context = browser.new_context(locale="fr-FR", timezone_id="UTC")
    page = context.new_page()
    page.clock.install(time="2025-01-15T13:00:00Z")
    page.clock.pause_at("2025-01-15T13:00:01Z")  # from now on, time moves only when told
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    english(page, live_server)
    page.get_by_role("button", name="Next paragraph").click()
    expect(page.locator("#pace-line")).to_have_text("Time on this question: 0:00 / about 1:00")

    page.keyboard.type("Quelle est la longueur")
    page.clock.run_for(42_000)
    expect(page.locator("#pace")).to_have_text("0:42 / about 1:00")
    drag_select(page, "1 006 kilomètres")
    page.keyboard.type(" de la Loire ?")
    page.clock.run_for(60_000)
    expect(page.locator("#pace")).to_have_text("1:42 / about 1:00")  # quiet: same look
    page.keyboard.press("Enter")
    expect(page.locator("#pace")).to_have_text("0:00 / about 1:00")  # the next question
    page.clock.run_for(1_000)  # the draft is saved 0.8 s after a change
    for _ in range(50):
        if Lease.objects.get().draft.get("questions"):
            break
        page.wait_for_timeout(100)
    assert [q["seconds"] for q in Lease.objects.get().draft["questions"]] == [102]
    settle(page)
    context.close()


def visible_box(page, selector):
    """Return the element's box in the viewport: {top, bottom, left, right}."""
    return page.evaluate(
        """s => { const r = document.querySelector(s).getBoundingClientRect();
                  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }""",
        selector,
    )


def test_on_a_wide_screen_the_paragraph_is_beside_the_questions(browser, live_server, setup):
    context = browser.new_context(locale="fr-FR", viewport={"width": 1366, "height": 768})
    page = context.new_page()
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")

    paragraph, question = visible_box(page, "#paragraph"), visible_box(page, "#question-text")
    assert paragraph["right"] < question["left"]  # side by side
    assert paragraph["top"] < 768 and question["bottom"] < 768  # both on screen at once
    for q, a in QUESTIONS:
        add(page, q, a)
    page.locator("#submit-paragraph").scroll_into_view_if_needed()
    paragraph = visible_box(page, "#paragraph")
    assert paragraph["bottom"] > 0 and paragraph["top"] < 768  # still in view
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    settle(page)
    context.close()


LONG_TEXT = TEXT + (
    " Son bassin versant couvre plus d'un cinquième du territoire métropolitain ; ses crues, "
    "redoutées depuis le Moyen Âge, ont fait élever des levées de terre le long de son cours. "
    "Le fleuve fut longtemps navigable : gabares et toues transportaient vins, sel, ardoises "
    "et tuffeau entre Nantes, Orléans et le canal de Briare, jusqu'à l'arrivée du chemin de "
    "fer au milieu du XIXe siècle. Le Val de Loire entre Sully-sur-Loire et Chalonnes-sur-"
    "Loire est inscrit au patrimoine mondial de l'Unesco depuis l'an 2000. Ses principaux "
    "affluents sont l'Allier, le Cher, l'Indre, la Vienne et la Maine ; son estuaire, large "
    "de plusieurs kilomètres, accueille le grand port maritime de Nantes-Saint-Nazaire."
)


def test_on_a_phone_the_paragraph_stays_in_reach_while_writing(browser, live_server, db):
    assert len(LONG_TEXT) > 850  # a long paragraph fills a phone's screen by itself
    one_article("Loire", LONG_TEXT)
    campaign_create(name="Questions", splits=["dev"])
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    context = browser.new_context(
        locale="fr-FR", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")

    paragraph, question = visible_box(page, "#paragraph"), visible_box(page, "#question-text")
    assert paragraph["top"] >= 0 and question["bottom"] <= 844  # on screen together
    page.locator("#submit-paragraph").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 400)")
    paragraph = visible_box(page, "#paragraph")
    assert paragraph["top"] >= 0 and paragraph["bottom"] <= 844 * 0.6  # kept at the top
    assert page.evaluate("window.scrollY") > 0  # the page did scroll under it
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.evaluate("window.scrollTo(0, 0)")
    for question, answer in QUESTIONS:
        add(page, question, answer)
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.locator("#next-paragraph")).to_be_focused()
    # Focused and scrolled to, "Next paragraph" is not hidden under the paragraph's box.
    assert (
        page.evaluate(
            """() => { const b = document.getElementById('next-paragraph').getBoundingClientRect();
                   return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id; }"""
        )
        == "next-paragraph"
    )
    settle(page)
    context.close()


def test_on_a_phone_the_pace_keeps_its_times_on_one_line(browser, live_server, setup):
    """"Temps sur cette question : 0:00 / environ 1:00" broke before "1:00" on a phone."""
    context = browser.new_context(
        locale="fr-FR", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#pace")).to_have_text("0:00 / environ 1:00")
    assert page.evaluate("document.getElementById('pace').getClientRects().length") == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    settle(page)
    context.close()


def test_text_typed_just_before_leaving_the_page_is_saved(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page.locator("#question-counter")).to_have_text("0 / 3–5")
    page.keyboard.type("Quelle est la source de la Loire ?")
    page.goto(f"{live_server.url}/annotate/")  # at once: before the 0.8 s debounce
    for _ in range(50):
        if Lease.objects.get().draft.get("current"):
            break
        page.wait_for_timeout(100)
    assert Lease.objects.get().draft["current"]["text"] == "Quelle est la source de la Loire ?"


def test_once_sent_the_next_paragraph_is_claimed_and_opens_without_a_post(page, live_server, setup):
    """While "Sent" shows, the page claims the next paragraph and fetches its page ahead;
    "Next paragraph" then opens it with a GET (no POST, no redirect)."""
    article_store(
        language="fr",
        source=SourceArticle(title="Loire (suite)", source_title="Loire (suite)"),
        paragraphs=[TEXT.replace("Loire", "Seine")],
        wave="1.0",
        split="dev",
        kind="file",
    )
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    first = int(re.search(r"/annotate/leases/(\d+)/$", page.url).group(1))
    for question, answer in QUESTIONS:
        add(page, question, answer)
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    ahead = page.locator('link[rel="prefetch"]')
    expect(ahead).to_have_count(1)
    held = Lease.objects.get(annotator__username="e2e-ann", status=Lease.Status.ACTIVE)
    assert held.pk != first
    # Under an address used once: the browser keeps it for the click (issue 25).
    assert re.fullmatch(rf"/annotate/leases/{held.pk}/\?ahead=\w+", ahead.get_attribute("href"))

    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(f"{live_server.url}/annotate/leases/{held.pk}/")
    expect(page.locator("#paragraph")).to_have_text(TEXT.replace("Loire", "Seine"))
    assert [url for url in posts if "/next/" in url or "/leases/" in url] == []
    assert Lease.objects.filter(annotator__username="e2e-ann").count() == 2
    assert page.console_problems == []


def test_with_nothing_left_next_paragraph_posts_and_says_so(page, live_server, setup):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    for question, answer in QUESTIONS:
        add(page, question, answer)
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    page.wait_for_timeout(300)  # the claim answered 204: nothing to fetch ahead
    expect(page.locator('link[rel="prefetch"]')).to_have_count(0)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(
        page.get_by_text("Tous les paragraphes de cette campagne sont pris. Merci !")
    ).to_be_visible()
    assert Lease.objects.filter(annotator__username="e2e-ann", status="active").count() == 0
    assert page.console_problems == []
