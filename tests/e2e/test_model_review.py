"""Journey (issue 15): a reviewer opens a sampled question written with a model in the loop,
sees the model's answer marked in the paragraph and "not fooled", corrects the span with the
mouse and saves; the stored question now fools the model, with the exact F1.

The model's rows are built directly (how the writing page asks the model is tested with
evaluation/services/model_loop/attempts.py). The French normalization drops « la »: the model's answer
« Toulouse à la mer Méditerranée » has the words toulouse, à, mer, méditerranée.
"""

import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from annotation.models import (
    Campaign,
    Lease,
    ModelAttempt,
    ModelKind,
    ModelRound,
    Question,
)
from tests.e2e.reviewing import open_next_review, written_for_review
from tests.e2e.test_review import PASSWORD, TEXT, drag_select_span
from tests.e2e.test_sign_in import sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MODEL_ANSWER = "Toulouse à la mer Méditerranée"


@pytest.fixture
def written_with_model(db):
    """Three sampled questions by e2e-author; the first one, « Toulouse », has two attempts against the
    lexical model: the model answered « Toulouse à la mer Méditerranée » the second time
    (1 word of 4 right, all of the answer: F1 = 2 · 0.25 · 1 / 1.25 = 40 %, not under 40)."""
    texts = ["Que relie le canal ?", "Qui dirigea les travaux ?", "Quand fut-il inauguré ?"]
    answers = ["Toulouse", "Pierre-Paul Riquet", "1681"]
    campaign, (question, *_others) = written_for_review(
        TEXT, list(zip(texts, answers, strict=True))
    )
    lease = question.lease
    Campaign.objects.filter(pk=campaign.pk).update(model_kind=ModelKind.LEXICAL, model_round=1)
    model_round = ModelRound.objects.create(
        campaign=campaign,
        number=1,
        model_kind=ModelKind.LEXICAL,
        label="Lexical baseline",
        f1_threshold=Decimal("40"),
    )
    common = {
        "campaign": campaign,
        "lease": lease,
        "question": question,
        "round": model_round,
        "key": "q0",
        "answer_start": TEXT.index("Toulouse"),
        "answer_text": "Toulouse",
        "status": ModelAttempt.Status.ANSWERED,
        "milliseconds": 20,
    }
    ModelAttempt.objects.create(
        number=1,
        text="Que relie-t-il ?",
        model_answer="Pierre-Paul Riquet",
        model_answer_start=TEXT.index("Pierre-Paul Riquet"),
        exact_match=0.0,
        f1=0.0,
        fooled=True,
        **common,
    )
    last = ModelAttempt.objects.create(
        number=2,
        text=question.text,
        model_answer=MODEL_ANSWER,
        model_answer_start=TEXT.index(MODEL_ANSWER),
        exact_match=0.0,
        f1=40.0,
        fooled=False,
        **common,
    )
    Question.objects.filter(pk=question.pk).update(
        model_attempt=last, model_attempts=2, model_exact=0.0, model_f1=40.0, model_fooled=False
    )
    return campaign, question


def open_review(page, live_server, campaign):
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()
    open_next_review(page, campaign)


def test_a_reviewer_corrects_the_span_and_the_question_now_fools_the_model(
    page, live_server, written_with_model
):
    campaign, question = written_with_model
    open_review(page, live_server, campaign)
    expect(page.locator("#review-question")).to_have_text("Que relie le canal ?")

    # The model: its answer, marked in its own colour; where it covers the author's answer,
    # that part carries both marks
    expect(page.locator("#review-model-label")).to_have_text("Lexical baseline · round 1")
    expect(page.locator("#review-model-answer")).to_have_text(MODEL_ANSWER)
    expect(page.locator("#review-model-fooled")).to_have_text("not fooled")
    expect(page.locator("#review-model-scores")).to_have_text("EM 0% · F1 40%")
    expect(page.locator("#review-model-count")).to_have_text("2")
    expect(page.locator("#paragraph mark.review-model-mark")).to_have_text(
        ["Toulouse", " à la mer Méditerranée"]
    )
    both = page.locator("#paragraph mark.answer-mark.review-model-mark")
    expect(both).to_have_text("Toulouse")
    expect(both).to_have_attribute("title", "Answer · The model's answer")
    expect(page.locator("#paragraph mark.answer-mark")).to_have_count(1)
    assert page.evaluate("document.getElementById('paragraph').textContent") == TEXT
    colours = page.evaluate(
        """() => ['mark.answer-mark.review-model-mark', 'mark.review-model-mark:not(.answer-mark)'].map(
            (s) => getComputedStyle(document.querySelector('#paragraph ' + s)).backgroundColor)"""
    )
    assert colours[0] != colours[1]  # the author's answer keeps its colour under the model's

    # The attempts, in order, behind M
    attempts = page.locator("#review-attempts")
    expect(attempts.locator("li").first).not_to_be_visible()
    page.keyboard.press("m")
    expect(attempts.locator("li")).to_have_text(
        [
            re.compile(r"^\s*Que relie-t-il \?\s*→ Pierre-Paul Riquet · F1 0% · fooled\s*$"),
            re.compile(
                r"^\s*Que relie le canal \?\s*→ " + MODEL_ANSWER + r" · F1 40% · not fooled\s*$"
            ),
        ]
    )
    page.keyboard.press("m")
    expect(attempts.locator("li").first).not_to_be_visible()

    # Correct the span with the mouse: « relie Toulouse »
    page.keyboard.press("c")
    expect(page.locator("input[name=verdict][value=correct]")).to_be_checked()
    drag_select_span(page, TEXT, "relie Toulouse", "#corrected-preview")
    expect(page.locator("#corrected-start")).to_have_value(str(TEXT.index("relie Toulouse")))
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_text(["relie ", "Toulouse"])
    expect(page.locator("#paragraph mark.review-model-mark")).to_have_text(
        ["Toulouse", " à la mer Méditerranée"]
    )
    page.locator("#send-review").click()
    expect(page.locator("#review-question")).to_have_text("Qui dirigea les travaux ?")
    expect(page.locator("#review-model")).to_have_count(0)  # written without the model

    # « relie toulouse » against « toulouse à mer méditerranée »: 1 word in common,
    # precision 1/4, recall 1/2: F1 = 2 · 1/8 / (3/4) = 33.33 % < 40: fooled
    stored = Question.objects.get(pk=question.pk)
    assert (stored.status, stored.model_exact, stored.model_f1, stored.model_fooled) == (
        "corrected",
        0.0,
        33.33,
        True,
    )
    last = ModelAttempt.objects.get(number=2)  # what the author saw stays
    assert (last.answer_text, last.f1, last.fooled) == ("Toulouse", 40.0, False)
    assert Lease.objects.get(kind="review", question=question).status == "submitted"
    assert page.console_problems == []
