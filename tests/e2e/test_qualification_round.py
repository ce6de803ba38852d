"""Journeys of the qualification round (issue 28, docs/quality.md) in Chromium, on a desktop
(1366×768) and a phone (390×844), in French and English: a newcomer answers, sees the right
span and their score after each answer, passes and reaches real work; another fails, is told
so, reads the guidelines and starts a second try on other questions.

With `$SCREENSHOTS_DIR` set, each step's screenshot is saved there for a person to look at.
"""

import os
import re

import pytest
from playwright.sync_api import expect

from annotation.models import GoldQuestion, Lease, QualificationAttempt, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.e2e.conftest import settle
from tests.e2e.test_every_page import CHECK_LAYOUT
from tests.e2e.test_review import drag_select_span
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"
TEXTS = [
    "La tour Eiffel fut construite par Gustave Eiffel pour l’Exposition universelle de 1889 ; "
    "elle mesure aujourd’hui 330 mètres et reçoit des millions de visiteurs.",
    "Le canal du Midi relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea les "
    "travaux à partir de 1666 ; il fut inauguré en 1681.",
]
# Each paragraph's three questions and their answers (all gold, in this order).
ASKED = [
    [
        ("Qui construisit la tour ?", "Gustave Eiffel"),
        ("Combien mesure-t-elle ?", "330 mètres"),
        ("Pour quelle exposition fut-elle construite ?", "l’Exposition universelle de 1889"),
    ],
    [
        ("Quelle ville le canal relie-t-il à la mer ?", "Toulouse"),
        ("Qui en dirigea les travaux ?", "Pierre-Paul Riquet"),
        ("En quelle année fut-il inauguré ?", "1681"),
    ],
]
GUIDELINES = "Choisissez **le plus court passage** qui répond à la question."
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
WORDS = {
    "fr": {
        "banner": "Qualification : question {} sur 2",
        "progress": "1 sur 2. Votre F1 moyen jusqu’ici",
        "next": "Question suivante",
        "passed": "Vous avez réussi la qualification.",
        "start": "Commencer le vrai travail",
        "failed": "Vous n’avez pas réussi la qualification.",
        "read": "Lire les consignes et réessayer",
        "retry": "J’ai lu les consignes : commencer mon second essai",
    },
    "en": {
        "banner": "Qualification round: question {} of 2",
        "progress": "Answered: 1 of 2. Your mean F1 so far: 80; to pass: at least 60.",
        "next": "Next question",
        "passed": "You passed the qualification round.",
        "start": "Start the real work",
        "failed": "You did not pass the qualification round.",
        "read": "Read the guidelines and try again",
        "retry": "I have read the guidelines: start my second try",
    },
}


@pytest.fixture
def round_campaign(db):
    """Six gold questions on two dev paragraphs, and a questions campaign whose newcomers
    answer two of them and pass with a mean F1 of 60."""
    for i, text in enumerate(TEXTS):
        article_store(
            language="fr",
            source=SourceArticle(title=f"Article {i}", source_title=f"Article {i}"),
            paragraphs=[text],
            wave="1.0",
            split="dev",
            kind="file",
        )
    author = UserFactory(username="e2e-author", roles=[Role.ANNOTATOR])
    boss = UserFactory(username="e2e-boss", roles=[Role.ADMIN])
    source = campaign_create(name="Source", splits=["dev"], review_rate="0.00")
    for _ in TEXTS:
        lease = lease_claim_next(campaign=source, annotator=author).lease
        asked = ASKED[TEXTS.index(lease.paragraph.text)]
        questions_submit(
            lease=lease,
            questions=[
                {
                    "text": text,
                    "answer_start": lease.paragraph.text.index(answer),
                    "answer_text": answer,
                }
                for text, answer in asked
            ],
        )
    for question in Question.objects.order_by("paragraph__article__title", "position"):
        GoldQuestion.objects.create(
            question=question,
            answers=[question.answers.get().text],
            language="fr",
            marked_by=boss,
        )
    UserFactory(username="e2e-new", roles=[Role.ANNOTATOR], password=PASSWORD)
    return campaign_create(
        name="Questions qualifiées",
        splits=["dev"],
        qualification_questions=2,
        qualification_bar=60,
        guidelines=GUIDELINES,
    )


def open_round(browser, live_server, campaign, *, viewport, language):
    phone = viewport == PHONE
    context = browser.new_context(
        locale="fr-FR", viewport=viewport, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.console_problems = problems
    sign_in(page, live_server, "e2e-new", PASSWORD)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/annotate/")
    expect(page.locator("[data-qualification='new']")).to_have_count(1)
    shoot(page, f"qualification-home-{language}-{viewport['width']}")
    page.locator(
        f"#annotator-campaigns form[action='/annotate/campaigns/{campaign.pk}/next/'] button"
    ).click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    return page


def shoot(page, name):
    """Check the page's layout as every page is checked (nothing scrolls sideways, no text is
    cut: tests/e2e/test_every_page.py), and save its screenshot when asked."""
    assert page.evaluate(CHECK_LAYOUT) == [], name
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        page.screenshot(path=f"{folder}/{name}.png", full_page=True)


def answer_with(page, text, phrase, words, position):
    expect(page.locator("#qualification-banner strong")).to_have_text(
        words["banner"].format(position)
    )
    expect(page.locator("#send-answer")).to_be_disabled()  # the script ran
    if phrase is None:
        page.locator("#no-answer").click()
    else:
        drag_select_span(page, text, phrase, "#answer-preview")
        page.locator("#send-answer").click()
    expect(page).to_have_url(re.compile(r"/annotate/qualification/\d+/$"))


@pytest.mark.parametrize(
    ("viewport", "language"), [(DESKTOP, "fr"), (PHONE, "en")], ids=["desktop-fr", "phone-en"]
)
def test_a_newcomer_answers_sees_the_right_span_passes_and_reaches_real_work(
    browser, live_server, round_campaign, viewport, language
):
    words = WORDS[language]
    tag = f"{language}-{viewport['width']}"
    page = open_round(browser, live_server, round_campaign, viewport=viewport, language=language)
    shoot(page, f"qualification-question-{tag}")
    expect(page.locator(".release")).to_have_count(0)  # a round's item is not skipped
    # The first gold question: "Qui construisit la tour ?", answered with a longer span.
    answer_with(page, TEXTS[0], "par Gustave Eiffel", words, 1)
    expect(page.locator("#feedback-paragraph mark.qual-right")).to_have_text("Gustave Eiffel")
    expect(page.locator("#feedback-paragraph .qual-yours")).to_have_text(["par ", "Gustave Eiffel"])
    expect(page.locator("#feedback-score")).to_have_text("80")  # P 2/3, R 1: F1 0.8
    expect(page.locator("#qualification-progress")).to_contain_text(words["progress"])
    shoot(page, f"qualification-feedback-{tag}")
    page.get_by_role("button", name=words["next"]).click()
    answer_with(page, TEXTS[0], "330 mètres", words, 2)
    expect(page.locator("#feedback-score")).to_have_text("100")
    expect(page.locator("#qualification-passed")).to_contain_text(words["passed"])
    shoot(page, f"qualification-passed-{tag}")
    attempt = QualificationAttempt.objects.get()
    assert (attempt.status, attempt.score) == ("passed", 90.0)
    page.get_by_role("button", name=words["start"]).click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#question-counter")).to_contain_text("/")  # the writing page
    assert Lease.objects.filter(kind="write", annotator__username="e2e-new").count() == 1
    assert page.console_problems == []
    settle(page)
    page.context.close()


@pytest.mark.parametrize(
    ("viewport", "language"), [(DESKTOP, "en"), (PHONE, "fr")], ids=["desktop-en", "phone-fr"]
)
def test_a_newcomer_who_fails_is_told_reads_the_guidelines_and_retries(
    browser, live_server, round_campaign, viewport, language
):
    words = WORDS[language]
    tag = f"{language}-{viewport['width']}"
    page = open_round(browser, live_server, round_campaign, viewport=viewport, language=language)
    answer_with(page, TEXTS[0], None, words, 1)  # "the paragraph does not answer": F1 0
    expect(page.locator("#feedback-score")).to_have_text("0")
    page.get_by_role("button", name=words["next"]).click()
    answer_with(page, TEXTS[0], "Gustave Eiffel", words, 2)  # not what was asked: F1 0
    expect(page.locator("#qualification-failed")).to_contain_text(words["failed"])
    shoot(page, f"qualification-failed-{tag}")
    page.get_by_role("link", name=words["read"]).click()
    expect(page).to_have_url(re.compile(r"/qualification/$"))
    expect(page.locator("#qualification-guidelines strong")).to_have_text("le plus court passage")
    expect(page.locator("#qualification-answers li")).to_have_count(2)
    shoot(page, f"qualification-round-{tag}")
    page.get_by_role("button", name=words["retry"]).click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#question-to-answer")).to_have_text(ASKED[0][2][0])  # a new question
    assert list(QualificationAttempt.objects.values_list("number", "status")) == [
        (1, "failed"),
        (2, "open"),
    ]
    assert page.console_problems == []
    settle(page)
    page.context.close()


@pytest.mark.parametrize(
    ("viewport", "language"), [(DESKTOP, "en"), (PHONE, "fr")], ids=["desktop-en", "phone-fr"]
)
def test_an_admin_sees_who_is_where_and_lets_a_twice_failed_person_start_again(
    browser, live_server, round_campaign, viewport, language
):
    from annotation.services.answers import answer_submit
    from annotation.services.qualification import qualification_retry

    newcomer = UserFactory(username="e2e-twice", roles=[Role.ANNOTATOR])
    for _try in range(2):
        for _ in range(2):
            lease = lease_claim_next(campaign=round_campaign, annotator=newcomer).lease
            answer_submit(lease=lease, data={"no_answer": True})
        if _try == 0:
            qualification_retry(campaign=round_campaign, user=newcomer)
    starter = UserFactory(username="e2e-starter", roles=[Role.ANNOTATOR])
    lease_claim_next(campaign=round_campaign, annotator=starter)
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password=PASSWORD)

    phone = viewport == PHONE
    context = browser.new_context(
        locale="fr-FR", viewport=viewport, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    sign_in(page, live_server, "e2e-admin", PASSWORD)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/manage/quality/?campaign={round_campaign.pk}")
    statuses = page.locator("#qualification-table [data-column='qualification-status']")
    expected = {
        "en": ["in qualification", "failed twice: waits for an admin"],
        "fr": ["en qualification", "échec deux fois : attend un administrateur"],
    }[language]
    expect(statuses).to_have_text(expected)
    page.locator("#qualification").scroll_into_view_if_needed()
    shoot(page, f"qualification-quality-{language}-{viewport['width']}")
    reset = {"en": "Let them start again", "fr": "Le laisser recommencer"}[language]
    page.locator("#qualification-table tr[data-annotator='e2e-twice']").get_by_role(
        "button", name=reset
    ).click()
    expect(statuses.nth(1)).to_have_text(
        {"en": "reset: starts again", "fr": "remis à zéro : recommence"}[language]
    )
    assert (
        QualificationAttempt.objects.filter(annotator=newcomer, reset_at__isnull=False).count() == 2
    )
    settle(page)
    context.close()
