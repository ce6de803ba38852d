"""Journey (FQuAD 2.0): an annotator writes unanswerable questions beside a paragraph's existing
ones, each with its plausible span selected by mouse, and a reviewer marks one answerable by
selecting its answer; in a mixed campaign a box marks the unanswerable ones."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Question
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.work import questions_write
from core.roles import Role
from tests.e2e.articles import one_article
from tests.e2e.conftest import settle
from tests.e2e.test_annotate import PASSWORD, TEXT, drag_select
from tests.e2e.test_review import drag_select_span
from tests.factories import UserFactory

# `make test` runs it on SQLite too (the live server and the test share the SQLite file).
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.both_backends,
    pytest.mark.django_db(transaction=True),
]

EXISTING = [
    ("Quelle est la longueur de la Loire ?", "1 006 kilomètres"),
    ("Où la Loire prend-elle sa source ?", "mont Gerbier-de-Jonc"),
    ("Dans quelle ville la Loire se jette-t-elle ?", "Saint-Nazaire"),
]


@pytest.fixture
def paragraph(db):
    article = one_article("Loire", TEXT)
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    return article.paragraphs.get()


@pytest.fixture
def unanswerable(paragraph):
    """The paragraph has three answerable questions (a closed campaign); an unanswerable
    campaign, every question reviewed, is open."""
    questions = campaign_create(name="Questions", splits=["dev"])
    writer = UserFactory(username="e2e-writer", roles=[Role.ANNOTATOR])
    questions_write(
        campaign=questions,
        paragraph=paragraph,
        annotator=writer,
        questions=[
            {"text": text, "answer_start": TEXT.index(answer), "answer_text": answer}
            for text, answer in EXISTING
        ],
    )
    campaign_update(campaign=questions, active=False)
    return campaign_create(
        name="Sans réponse", kind="unanswerable", splits=["dev"], review_rate="1.00"
    )


def english(page, live_server):
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])


def write(page, question, plausible):
    drag_select(page, plausible)
    page.locator("#question-text").fill(question)
    page.get_by_role("button", name="Add the question").click()


def test_an_annotator_writes_two_unanswerable_questions_with_plausible_spans(
    page, live_server, unanswerable
):
    english(page, live_server)
    sign_in_en(page, live_server)
    page.get_by_role("button", name="Next paragraph").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#existing-questions li")).to_have_text([text for text, _ in EXISTING])
    expect(page.locator("#question-label")).to_have_text("Unanswerable question")

    # A repeat of an existing question, then an off-topic one, get their hints as typed.
    page.locator("#question-text").fill("Où la Loire prend-elle sa source ?")
    expect(page.locator("#question-hints")).to_contain_text("already asked on this paragraph")
    page.locator("#question-text").fill("Quel joueur a marqué le plus de buts en championnat ?")
    expect(page.locator("#question-hints")).to_contain_text("Few of its words are in the paragraph")

    page.locator("#question-text").fill("")
    write(page, "Dans quel département la Loire prend-elle sa source ?", "mont Gerbier-de-Jonc")
    write(page, "Quelle est la largeur de la Loire à Saint-Nazaire ?", "1 006 kilomètres")
    expect(page.locator("#question-counter")).to_have_text("2 / 1–5")
    expect(page.locator("#paragraph mark.plausible-mark")).to_have_count(2)
    expect(page.locator("#question-list .question-answer").first).to_contain_text(
        "Plausible answer:"
    )
    page.get_by_role("button", name="Send the paragraph").click()
    expect(page.get_by_text("Sent. Thank you!")).to_be_visible()

    written = list(Question.objects.filter(campaign=unanswerable).order_by("position"))
    assert [(q.text, q.is_impossible, q.sampled_for_review) for q in written] == [
        ("Dans quel département la Loire prend-elle sa source ?", True, True),
        ("Quelle est la largeur de la Loire à Saint-Nazaire ?", True, True),
    ]
    spans = [
        (a.kind, a.answer_start, a.text)
        for a in Answer.objects.filter(question__in=written).order_by("question__position")
    ]
    assert spans == [
        ("plausible", TEXT.index("mont Gerbier-de-Jonc"), "mont Gerbier-de-Jonc"),
        ("plausible", TEXT.index("1 006 kilomètres"), "1 006 kilomètres"),
    ]
    assert page.console_problems == []

    # A reviewer finds that the paragraph does answer the first one (Ardèche): "Actually
    # answerable", the answer selected with the mouse; the question becomes answerable.
    UserFactory(username="e2e-rev", roles=[Role.REVIEWER], password=PASSWORD)
    reviewer = page.context.browser.new_context(locale="en-US")
    review = reviewer.new_page()
    review.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    sign_in_en(review, live_server, "e2e-rev")
    review.locator(f"form[action='/review/campaigns/{unanswerable.pk}/next/'] button").click()
    expect(review.locator("#review-question")).to_have_text(written[0].text)
    expect(review.locator("#paragraph mark.plausible-mark")).to_have_text("mont Gerbier-de-Jonc")
    review.get_by_label("Actually answerable").check()
    drag_select_span(review, TEXT, "Ardèche", "#answerable-preview")
    review.locator("#send-review").click()
    expect(review.locator("#review-question")).to_have_text(written[1].text)
    first = Question.objects.get(pk=written[0].pk)
    assert (first.is_impossible, first.status) == (False, "corrected")
    answer = first.answers.get()
    assert (answer.kind, answer.answer_start, answer.text) == (
        "original",
        TEXT.index("Ardèche"),
        "Ardèche",
    )
    assert list(first.revisions.values_list("number", "is_impossible", "answer_text")) == [
        (1, True, "mont Gerbier-de-Jonc"),
        (2, False, "Ardèche"),
    ]
    settle(review)
    reviewer.close()


def test_a_mixed_campaign_marks_its_unanswerable_question_with_a_box(page, live_server, paragraph):
    campaign = campaign_create(name="Mixte", splits=["dev"], unanswerable_per_paragraph=1)
    english(page, live_server)
    sign_in_en(page, live_server)
    page.get_by_role("button", name="Next paragraph").click()
    for question, answer in EXISTING:
        write(page, question, answer)
    expect(page.get_by_role("button", name="Send the paragraph")).to_be_disabled()
    page.get_by_label("Unanswerable question: the paragraph does not answer it").check()
    expect(page.locator("#answer-preview-label")).to_have_text("Plausible answer:")
    write(page, "Dans quelle ville la Seine se jette-t-elle ?", "Saint-Nazaire")
    expect(page.locator("#question-counter")).to_have_text(
        "3 / 3–5 answerable · 1 / 1 unanswerable"
    )
    expect(page.locator("#question-list .badge")).to_have_text(["unanswerable"])
    page.get_by_role("button", name="Send the paragraph").click()
    expect(page.get_by_text("Sent. Thank you!")).to_be_visible()
    stored = Question.objects.filter(campaign=campaign).order_by("position")
    assert [(q.text, q.is_impossible) for q in stored] == [
        *[(text, False) for text, _ in EXISTING],
        ("Dans quelle ville la Seine se jette-t-elle ?", True),
    ]
    assert page.console_problems == []


def sign_in_en(page, live_server, username="e2e-ann"):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
