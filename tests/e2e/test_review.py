"""Journey: a reviewer claims a sampled question, corrects its span with the mouse and its text,
and saves; the new version's offsets are code points of the stored paragraph."""

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Lease, Question, QuestionRevision, Review
from tests.e2e.mouse import drag_phrase
from tests.e2e.reviewing import open_next_review, written_for_review
from tests.e2e.test_sign_in import sign_in

# `make test` runs it on SQLite too (the live server and the test share the SQLite file).
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.both_backends,
    pytest.mark.django_db(transaction=True),
]

# An emoji (outside the BMP: two UTF-16 units, one code point) before every answer.
TEXT = (
    "Le canal du Midi 🚤 relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea "
    "les travaux à partir de 1666 ; il fut inauguré en 1681, après sa mort."
)
PASSWORD = "a long e2e password"


def drag_select_span(page, text, phrase, preview):
    """Select `phrase` of `text` in #paragraph with a real mouse drag; wait for `preview`."""
    drag_phrase(page, text, phrase, scroll=True)
    expect(page.locator(preview)).to_have_text(phrase)


@pytest.fixture
def sampled(db):
    """Three questions by e2e-author on TEXT, every one sampled for review."""
    asked = [
        ("Que relie le canal ?", "Toulouse"),
        ("Qui dirigea les travaux ?", "Pierre-Paul Riquet"),
        ("Quand fut-il inauguré ?", "1681"),
    ]
    return written_for_review(TEXT, asked)


def test_reviewer_corrects_the_span_with_the_mouse_and_the_question(page, live_server, sampled):
    campaign, questions = sampled
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    expect(page).to_have_url(f"{live_server.url}/review/")
    open_next_review(page, campaign)
    first = Lease.objects.get(kind="review")
    assert first.question_id == questions[0].pk
    expect(page.locator("#review-question")).to_have_text("Que relie le canal ?")
    expect(page.locator("#paragraph mark.answer-mark")).to_have_text("Toulouse")  # script ran
    assert page.evaluate("document.getElementById('paragraph').textContent") == TEXT

    page.keyboard.press("c")
    expect(page.locator("input[name=verdict][value=correct]")).to_be_checked()
    expect(page.locator(".verdict-part[data-verdict=correct]")).to_be_visible()
    drag_select_span(page, TEXT, "la mer Méditerranée", "#corrected-preview")
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_text("la mer Méditerranée")
    start = TEXT.index("la mer Méditerranée")
    expect(page.locator("#corrected-start")).to_have_value(str(start))
    expect(page.locator("#corrected-text")).to_have_value("la mer Méditerranée")
    page.locator("#corrected-question").fill("Où le canal mène-t-il depuis Toulouse ?")
    page.locator("#send-review").click()

    # Saved, then the next sampled question opens
    expect(page).not_to_have_url(f"{live_server.url}/review/leases/{first.pk}/")
    expect(page.locator("#review-question")).to_have_text("Qui dirigea les travaux ?")
    version = QuestionRevision.objects.get(question=questions[0], number=2)
    assert (version.origin, version.editor.username, version.text) == (
        "corrected",
        "e2e-rev",
        "Où le canal mène-t-il depuis Toulouse ?",
    )
    assert (version.answer_start, version.answer_text) == (start, "la mer Méditerranée")
    assert len(TEXT[:start].encode("utf-16-le")) // 2 == start + 1  # code points, not UTF-16
    paragraph = questions[0].paragraph
    paragraph.refresh_from_db()
    assert paragraph.text[start : start + len(version.answer_text)] == version.answer_text
    question = Question.objects.get(pk=questions[0].pk)
    assert (question.status, question.text) == ("corrected", version.text)
    answer = Answer.objects.get(question=question)
    assert (answer.answer_start, answer.text) == (start, "la mer Méditerranée")
    review = Review.objects.get()
    assert (review.verdict, review.revision_id, review.lease_id) == (
        "correct",
        version.pk,
        first.pk,
    )
    assert review.seconds_spent >= 0
    assert page.console_problems == []


def test_verdict_keys_work_after_a_click_in_the_paragraph(page, live_server, sampled):
    """A reviewer clicks in the paragraph to read it, then presses R: the verdict is reject.

    The keys were ignored while the paragraph had the focus, so R then Ctrl+Enter saved the
    default verdict, approve, with the reviewer's comment."""
    campaign, questions = sampled
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    open_next_review(page, campaign)
    expect(page.locator("#review-question")).to_have_text("Que relie le canal ?")
    page.locator("#paragraph").click()
    expect(page.locator("#paragraph")).to_be_focused()
    page.keyboard.press("r")
    expect(page.locator("input[name=verdict][value=reject]")).to_be_checked()
    expect(page.locator("#reject-reason")).to_be_visible()
    page.locator("#paragraph").click()
    page.keyboard.press("c")
    expect(page.locator("input[name=verdict][value=correct]")).to_be_checked()
    page.locator("#paragraph").click()
    page.keyboard.press("a")
    expect(page.locator("input[name=verdict][value=approve]")).to_be_checked()
    assert Review.objects.count() == 0
    assert page.console_problems == []


# Issue 12: an answer cut inside a word is flagged to the reviewer, and a correction made with
# the mouse takes whole words.


def test_a_cut_answer_is_flagged_and_the_correction_takes_whole_words(page, live_server, db):
    texts = ["Qui dirigea les travaux ?", "Que relie le canal ?", "Quand fut-il inauguré ?"]
    answers = ["Pierre-Paul Riq", "Toulouse", "1681"]  # the first one cut inside "Riquet"
    campaign, questions = written_for_review(TEXT, list(zip(texts, answers, strict=True)))
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.reload()
    open_next_review(page, campaign)
    expect(page.locator("#review-question")).to_have_text("Qui dirigea les travaux ?")
    expect(page.locator("#answer-hints li")).to_have_text(
        ["The answer ends inside the word “Riquet”."]
    )

    page.keyboard.press("c")
    expect(
        page.locator(".verdict-part[data-verdict=correct] .selected-answer > span")
    ).to_have_text("Corrected answer:")
    page.evaluate("getSelection().removeAllRanges()")
    box = page.evaluate(
        """([s, e]) => { const p = document.getElementById('paragraph');
            const w = document.createTreeWalker(p, NodeFilter.SHOW_TEXT); let n, seen = 0, a, b;
            while ((n = w.nextNode())) { if (!a && seen + n.length >= s) a = [n, s - seen];
              if (!b && seen + n.length >= e) b = [n, e - seen]; seen += n.length; }
            const r = document.createRange(); r.setStart(...a); r.setEnd(...b);
            const rs = r.getClientRects(), f = rs[0], l = rs[rs.length - 1];
            return [f.left + 1, (f.top + f.bottom) / 2, l.right - 1, (l.top + l.bottom) / 2]; }""",
        [utf16(TEXT, TEXT.index("Paul Riq")), utf16(TEXT, TEXT.index("Paul Riq") + 8)],
    )
    page.mouse.move(box[0], box[1])
    page.mouse.down()
    page.mouse.move(box[2], box[3], steps=8)
    page.mouse.up()
    expect(page.locator("#corrected-preview")).to_have_text("Paul Riquet")  # "Pierre-" stays out
    expect(page.locator("#correction-hints li")).to_have_count(0)
    page.locator("#send-review").click()

    expect(page.locator("#review-question")).to_have_text("Que relie le canal ?")
    version = QuestionRevision.objects.get(question=questions[0], number=2)
    assert (version.answer_start, version.answer_text) == (TEXT.index("Paul Riquet"), "Paul Riquet")
    assert page.console_problems == []


def utf16(text, index):
    return len(text[:index].encode("utf-16-le")) // 2
