"""Journey: an annotator claims a paragraph, drag-selects answers, writes 3 questions, submits;
another reloads mid-way and finds the draft."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Lease, Question
from annotation.services.campaigns import campaign_create
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services import article_store
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = (
    "La Loire 🌊 est le plus long fleuve de France : elle parcourt 1 006 kilomètres depuis le "
    "mont Gerbier-de-Jonc, en Ardèche, jusqu'à l'océan Atlantique, où elle se jette à "
    "Saint-Nazaire."
)
PASSWORD = "a long e2e password"


@pytest.fixture
def setup(db):
    article_store(
        language="fr",
        source=SourceArticle(title="Loire", source_title="Loire"),
        paragraphs=[TEXT],
        wave="1.0",
        split="dev",
        kind="file",
    )
    campaign = campaign_create(name="Questions", splits=["dev"])
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    return campaign


def drag_select(page, phrase):
    """Select `phrase` in the paragraph with a real mouse drag."""
    expect(page.locator("#question-counter")).to_contain_text("/")  # the page script runs
    start = TEXT.index(phrase)
    box = page.evaluate(
        """([start, end]) => {
            const p = document.getElementById('paragraph');
            const text = p.textContent;
            const u = (cp) => { let i = 0, n = 0; while (n < cp) { const c = text.codePointAt(i);
                                 i += c > 0xffff ? 2 : 1; n++; } return i; };
            const range = document.createRange();
            const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
            const locate = (offset) => { let node, seen = 0;
                while ((node = walker.nextNode())) { if (seen + node.length >= offset)
                    return [node, offset - seen]; seen += node.length; } };
            const [a, ao] = locate(u(start)); walker.currentNode = p;
            const [b, bo] = locate(u(end));
            range.setStart(a, ao); range.setEnd(b, bo);
            const rects = range.getClientRects();
            const first = rects[0], last = rects[rects.length - 1];
            return [first.left + 1, (first.top + first.bottom) / 2,
                    last.right - 1, (last.top + last.bottom) / 2];
        }""",
        [start, start + len(phrase)],
    )
    page.mouse.move(box[0], box[1])
    page.mouse.down()
    page.mouse.move(box[2], box[3], steps=8)
    page.mouse.up()
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
    expect(page.locator("#draft-status")).to_contain_text("Brouillon enregistré", timeout=5000)

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
    article_store(
        language="fr",
        source=SourceArticle(title="CR", source_title="CR"),
        paragraphs=[text],
        wave="1.0",
        split="dev",
        kind="file",
    )
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
