"""Journey: an annotator who did not write the question answers it again, from the home page;
a reload mid-way restores the selection from the draft; "no answer" is the other way out."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Lease
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from tests.e2e.articles import one_article
from tests.e2e.conftest import settle
from tests.e2e.mouse import drag_phrase
from tests.e2e.test_review import drag_select_span
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

# `make test` runs it on SQLite too (the live server and the test share the SQLite file).
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.both_backends,
    pytest.mark.django_db(transaction=True),
]

# The emoji (U+1F5FC, outside the BMP) comes before the answer: 1 code point, 2 UTF-16 units.
TEXT = (
    "La tour Eiffel 🗼 fut construite par Gustave Eiffel pour l’Exposition universelle de "
    "1889 ; elle mesure aujourd’hui 330 mètres."
)
PASSWORD = "a long e2e password"


@pytest.fixture
def to_answer(db):
    """Three questions by e2e-author on TEXT (dev) and a campaign of additional answers."""
    one_article("Tour Eiffel", TEXT)
    questions_campaign = campaign_create(name="Questions", splits=["dev"])
    author = UserFactory(username="e2e-author", roles=[Role.ANNOTATOR])
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    lease = lease_claim_next(campaign=questions_campaign, annotator=author).lease
    questions = questions_submit(
        lease=lease,
        questions=[
            {
                "text": "Pour quel événement la tour fut-elle construite ?",
                "answer_start": TEXT.index("l’Exposition universelle de 1889"),
                "answer_text": "l’Exposition universelle de 1889",
            },
            {
                "text": "Qui la construisit ?",
                "answer_start": TEXT.index("Gustave Eiffel"),
                "answer_text": "Gustave Eiffel",
            },
            {
                "text": "Combien mesure-t-elle ?",
                "answer_start": TEXT.index("330 mètres"),
                "answer_text": "330 mètres",
            },
        ],
    )
    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])
    return answers, questions


def open_next_question(page, live_server, campaign):
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    expect(page).to_have_url(f"{live_server.url}/annotate/")
    page.locator(
        f"#annotator-campaigns form[action='/annotate/campaigns/{campaign.pk}/next/'] button"
    ).click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#send-answer")).to_be_disabled()  # the script ran: nothing selected


def test_annotator_answers_with_the_mouse_and_a_reload_keeps_the_selection(
    page, live_server, to_answer
):
    campaign, questions = to_answer
    open_next_question(page, live_server, campaign)
    lease = Lease.objects.get(kind="answer")
    assert (lease.question_id, lease.annotator.username) == (questions[0].pk, "e2e-ann")
    expect(page.locator("#question-to-answer")).to_have_text(
        "Pour quel événement la tour fut-elle construite ?"
    )
    assert page.evaluate("document.getElementById('paragraph').textContent") == TEXT

    phrase = "Exposition universelle de 1889"
    start = TEXT.index(phrase)
    drag_select_span(page, TEXT, phrase, "#answer-preview")
    expect(page.locator("#answer-start")).to_have_value(str(start))
    expect(page.locator("#draft-status")).not_to_be_empty()  # the draft is saved
    lease.refresh_from_db()
    assert (lease.draft["start"], lease.draft["end"]) == (start, start + len(phrase))

    page.reload()
    expect(page.locator("#answer-preview")).to_have_text(phrase)
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_text(phrase)
    expect(page.locator("#send-answer")).to_be_enabled()
    page.locator("#send-answer").click()

    # Sent; the next question opens
    expect(page.locator("#question-to-answer")).to_have_text("Qui la construisit ?")
    answer = Answer.objects.get(kind="additional")
    assert (answer.question_id, answer.author.username, answer.no_answer) == (
        questions[0].pk,
        "e2e-ann",
        False,
    )
    assert (answer.text, answer.answer_start) == (phrase, start)
    assert len(TEXT[:start].encode("utf-16-le")) // 2 == start + 1  # code points, not UTF-16
    assert TEXT[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text
    assert answer.seconds_spent >= 0
    assert Lease.objects.get(pk=lease.pk).status == "submitted"
    assert page.console_problems == []


def test_the_no_answer_button(page, live_server, to_answer):
    campaign, questions = to_answer
    open_next_question(page, live_server, campaign)
    page.locator("#no-answer").click()
    expect(page.locator("#question-to-answer")).to_have_text("Qui la construisit ?")
    answer = Answer.objects.get(kind="additional")
    assert (answer.question_id, answer.no_answer, answer.text, answer.answer_start) == (
        questions[0].pk,
        True,
        "",
        0,
    )
    assert page.console_problems == []


# Issue 12: whole words by default, a cut on purpose flagged, the pace, English wording.


def test_a_drag_takes_whole_words_and_the_pace_counts_against_30_seconds(
    browser, live_server, to_answer
):
    campaign, questions = to_answer
    context = browser.new_context(locale="fr-FR", timezone_id="UTC")
    page = context.new_page()
    page.clock.install(time="2025-01-15T13:00:00Z")
    page.clock.pause_at("2025-01-15T13:00:01Z")  # from now on, time moves only when told
    open_next_question(page, live_server, campaign)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()
    expect(page.locator("#pace-line")).to_have_text("Time on this question: 0:00 / about 0:30")
    expect(page.locator(".selected-answer > span")).to_have_text("Selected answer:")

    drag_phrase(page, TEXT, "Exposition universel")  # cut inside "universelle"
    expect(page.locator("#answer-preview")).to_have_text("Exposition universelle")
    expect(page.locator("#answer-hints li")).to_have_count(0)
    page.clock.run_for(12_000)
    expect(page.locator("#pace")).to_have_text("0:12 / about 0:30")

    page.get_by_role("button", name="Select inside words").click()
    page.evaluate("getSelection().removeAllRanges()")
    drag_phrase(page, TEXT, "Exposition universel")
    expect(page.locator("#answer-preview")).to_have_text("Exposition universel")
    expect(page.locator("#answer-hints li")).to_have_text(
        ["The answer ends inside the word “universelle”."]
    )
    page.locator("#send-answer").click()  # a cut on purpose is the annotator's call
    expect(page.locator("#question-to-answer")).to_have_text("Qui la construisit ?")
    answer = Answer.objects.get(kind="additional")
    assert (answer.text, answer.answer_start) == (
        "Exposition universel",
        TEXT.index("Exposition universel"),
    )
    assert answer.seconds_spent == 12
    settle(page)
    context.close()
