"""Journey (issue 14): a reviewer audits unanswerable questions in Chromium. The page says the
question is meant to be unanswerable and marks its plausible span apart (not as the answer);
the reviewer finds the first one answered by the paragraph, chooses "Actually answerable" and
selects the answer with the mouse; the second one is really unanswerable."""

import re
from decimal import Decimal

import pytest
from django.db import transaction
from playwright.sync_api import expect

from annotation.models import Answer, Question, QuestionRevision, Review
from annotation.services.campaigns import campaign_create
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from core.roles import Role
from tests.e2e.articles import one_article
from tests.e2e.reviewing import open_next_review
from tests.e2e.test_review import PASSWORD, TEXT, drag_select_span
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# (question, plausible span): the first one is answered by TEXT ("Pierre-Paul Riquet"), which
# comes after an emoji (offsets in code points, not UTF-16 units).
QUESTIONS = [
    ("Qui dirigea les travaux ?", "Toulouse"),
    ("Quand le canal fut-il agrandi ?", "1681"),
]


@pytest.fixture
def unanswerable(db):
    article = one_article("Canal du Midi", TEXT)
    campaign = campaign_create(
        name="Sans réponse", kind="unanswerable", splits=["dev"], review_rate=Decimal("1")
    )
    author = UserFactory(username="e2e-author", roles=[Role.ANNOTATOR])
    UserFactory(username="e2e-rev", roles=[Role.REVIEWER], password=PASSWORD)
    with transaction.atomic():
        questions = questions_store(
            campaign=campaign,
            questions=[
                NewQuestion(
                    paragraph=article.paragraphs.get(),
                    author_id=author.pk,
                    position=position,
                    text=text,
                    sampled_for_review=True,
                    is_impossible=True,
                    answers=[
                        NewAnswer(
                            author_id=author.pk,
                            answer_start=TEXT.index(span),
                            text=span,
                            kind=Answer.Kind.PLAUSIBLE,
                        )
                    ],
                )
                for position, (text, span) in enumerate(QUESTIONS)
            ],
        )
    return campaign, questions


def test_a_reviewer_marks_an_unanswerable_question_answerable_with_the_mouse(
    page, live_server, unanswerable
):
    campaign, questions = unanswerable
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()
    card = page.locator("#review-queue .campaign-card", has_text="Sans réponse")
    expect(card.locator("[data-kind=unanswerable]")).to_have_text("Unanswerable questions")
    card.locator(f"form[action='/review/campaigns/{campaign.pk}/next/'] button").click()
    expect(page).to_have_url(re.compile(r"/review/leases/\d+/$"))

    # Told what it is; the plausible span striped and labelled, never the answer's mark
    expect(page.locator("#review-question")).to_have_text("Qui dirigea les travaux ?")
    expect(page.locator("#unanswerable-notice")).to_be_visible()
    plausible = page.locator("#paragraph mark.plausible-mark")
    expect(plausible).to_have_text("Toulouse")  # the script ran
    expect(plausible).to_have_attribute("title", "Plausible answer (not the answer)")
    expect(page.locator("#paragraph mark.answer-mark")).to_have_count(0)
    expect(page.locator("#review-plausible")).to_have_text("Toulouse")
    expect(page.locator(".verdict-part[data-verdict=answerable]")).to_be_hidden()
    assert page.evaluate("document.getElementById('paragraph').textContent") == TEXT

    # "Actually answerable", then the answer selected with a real mouse drag
    page.get_by_label("Actually answerable").check()
    expect(page.locator(".verdict-part[data-verdict=answerable]")).to_be_visible()
    expect(page.locator(".verdict-part[data-verdict=correct]")).to_be_hidden()
    drag_select_span(page, TEXT, "Pierre-Paul Riquet", "#answerable-preview")
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_text("Pierre-Paul Riquet")
    expect(plausible).to_have_text("Toulouse")  # still shown, apart
    start = TEXT.index("Pierre-Paul Riquet")
    assert len(TEXT[:start].encode("utf-16-le")) // 2 == start + 1  # code points, not UTF-16
    expect(page.locator("#answerable-start")).to_have_value(str(start))
    expect(page.locator("#answerable-text")).to_have_value("Pierre-Paul Riquet")
    expect(page.locator("input[name=verdict][value=answerable]")).to_be_checked()
    page.locator("#send-review").click()

    # Saved; the next sampled question opens: this one is really unanswerable (key A)
    expect(page.locator("#review-question")).to_have_text("Quand le canal fut-il agrandi ?")
    expect(page.locator("#paragraph mark.plausible-mark")).to_have_text("1681")
    question = Question.objects.get(pk=questions[0].pk)
    assert (question.status, question.is_impossible) == ("corrected", False)
    answer = Answer.objects.get(question=question)
    assert (answer.kind, answer.author.username, answer.answer_start, answer.text) == (
        "original",
        "e2e-author",
        start,
        "Pierre-Paul Riquet",
    )
    assert TEXT[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text
    assert list(
        QuestionRevision.objects.filter(question=question)
        .order_by("number")
        .values_list("number", "editor__username", "is_impossible", "answer_start", "answer_text")
    ) == [
        (1, "e2e-author", True, TEXT.index("Toulouse"), "Toulouse"),
        (2, "e2e-rev", False, start, "Pierre-Paul Riquet"),
    ]
    page.keyboard.press("a")
    expect(page.locator("input[name=verdict][value=approve]")).to_be_checked()
    page.locator("#send-review").click()
    expect(page).to_have_url(f"{live_server.url}/review/")
    assert list(Review.objects.order_by("pk").values_list("verdict", flat=True)) == [
        "answerable",
        "approve",
    ]
    assert Question.objects.get(pk=questions[1].pk).is_impossible is True

    # The history shows both versions with their flag
    page.goto(f"{live_server.url}/questions/{question.uuid}/")
    expect(page.locator("#question-history li")).to_have_count(2)
    expect(page.locator("#question-history li[data-unanswerable=true]")).to_contain_text(
        "Unanswerable. Plausible answer: Toulouse"
    )
    expect(page.locator("#question-history li[data-unanswerable=false]")).to_contain_text(
        "Answer: Pierre-Paul Riquet"
    )
    assert page.console_problems == []


def test_a_mouse_selection_on_an_unanswerable_question_means_actually_answerable(
    page, live_server, unanswerable
):
    """Without choosing first: a selection while "Really unanswerable" is checked takes the
    verdict "Actually answerable" (a correction of the plausible span is chosen on purpose)."""
    campaign, _questions = unanswerable
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    open_next_review(page, campaign)
    expect(page.locator("#paragraph mark.plausible-mark")).to_have_text("Toulouse")
    expect(page.locator("input[name=verdict][value=approve]")).to_be_checked()
    drag_select_span(page, TEXT, "Pierre-Paul Riquet", "#answerable-preview")
    expect(page.locator("input[name=verdict][value=answerable]")).to_be_checked()
    # The correction of the plausible span is its own verdict: a selection then fills it.
    page.keyboard.press("Escape")
    page.locator("input[name=verdict][value=correct]").check()
    drag_select_span(page, TEXT, "Toulouse à la mer", "#corrected-preview")
    expect(page.locator("#answerable-text")).to_have_value("Pierre-Paul Riquet")
    expect(page.locator("#corrected-text")).to_have_value("Toulouse à la mer")
    page.locator("#send-review").click()
    expect(page.locator("#review-question")).to_have_text("Quand le canal fut-il agrandi ?")
    version = QuestionRevision.objects.get(question=_questions[0], number=2)
    assert (version.is_impossible, version.answer_text) == (True, "Toulouse à la mer")
    assert page.console_problems == []
