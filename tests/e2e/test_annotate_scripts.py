"""The annotation page in any script (issue 27), in the real Chromium: XQuAD's paragraphs in
Chinese, Thai and Arabic loaded as the corpus of a campaign in that language.

- Chinese and Thai write no space between words: a mouse selection snaps to the words of the
  server's tokenizer (jieba, PyThaiNLP), not to the whole run of letters between two spaces.
- Arabic reads right to left: the paragraph, the question and the answers say so, and a
  mouse drag from the answer's first letter (on the right) to its last stores the exact
  offsets of the text selected.
- The hints speak the language: its question mark (Thai: none) and its words for the copy.

With $SCREENSHOTS_DIR set, the pages are saved there for a person to look at.
"""

import os
import re

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Question
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory
from tests.languages import campaign_in, store_paragraphs, xquad_paragraphs
from tests.needs import require_module

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"
SHOTS = os.environ.get("SCREENSHOTS_DIR", "")


def shot(page, name):
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def open_paragraph(page, live_server, code, size=(1366, 768)):
    """A campaign in the language on XQuAD's first paragraph, opened by its annotator."""
    paragraph = xquad_paragraphs(code)[0]
    store_paragraphs(code, [paragraph])
    campaign_in(code, name=f"XQuAD {code}", questions_min=1, questions_max=3)
    UserFactory(username="e2e-ann", roles=["annotator"], password=PASSWORD)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    sign_in(page, live_server, "e2e-ann", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    expect(page.locator("#question-counter")).to_contain_text("/")  # the page script ran
    return paragraph["context"]


def char_box(page, index):
    """The viewport box of the paragraph's character at code-point `index`."""
    return page.evaluate(
        """(index) => {
            const p = document.getElementById('paragraph');
            const text = p.textContent;
            let unit = 0;
            for (let n = 0; n < index; n++) unit += text.codePointAt(unit) > 0xffff ? 2 : 1;
            const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
            let seen = 0;
            for (let t = walker.nextNode(); t; t = walker.nextNode()) {
                if (unit < seen + t.length) {
                    const range = document.createRange();
                    range.setStart(t, unit - seen);
                    range.setEnd(t, unit - seen + (text.codePointAt(unit) > 0xffff ? 2 : 1));
                    const box = range.getBoundingClientRect();
                    return {left: box.left, right: box.right, y: (box.top + box.bottom) / 2};
                }
                seen += t.length;
            }
        }""",
        index,
    )


def drag(page, start, end, *, rtl=False):
    """Press at the leading edge of character `start` and release at the trailing edge of
    character `end - 1` (code points): the right edges first in a right-to-left paragraph."""
    first, last = char_box(page, start), char_box(page, end - 1)
    begin = first["right"] - 1 if rtl else first["left"] + 1
    finish = last["left"] + 1 if rtl else last["right"] - 1
    page.mouse.move(begin, first["y"])
    page.mouse.down()
    page.mouse.move(finish, last["y"], steps=8)
    page.mouse.up()


def add_and_send(page, question):
    page.get_by_label("Question", exact=True).fill(question)
    page.get_by_role("button", name="Ajouter la question").click()
    expect(page.locator("#question-list li")).to_have_count(1)
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()


def stored_answer():
    question = Question.objects.get()
    answer = Answer.objects.get(question=question)
    return question.text, answer.answer_start, answer.text


def test_chinese_selection_snaps_to_jiebas_words(page, live_server):
    require_module("jieba", "Chinese words (the languages extra)")
    text = open_paragraph(page, live_server, "zh")
    preview = page.locator("#answer-preview")
    # "榄球" of 国家|橄榄球|联盟: the word, not the run 次拦截领先国家橄榄球联盟 up to the space.
    inside = text.index("橄榄球") + 1
    drag(page, inside, inside + 2)
    expect(preview).to_have_text("橄榄球")
    # "守只丢" of 防守|只|丢|了: the three words it touches.
    inside = text.index("防守只丢") + 1
    drag(page, inside, inside + 3)
    expect(preview).to_have_text("防守只丢")
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_text("防守只丢")
    hints = page.locator("#question-hints li")
    # A copied run of the paragraph, counted in its words (7 of 10 are one run), no mark.
    page.get_by_label("Question", exact=True).fill("黑豹队的防守只丢了多少分")
    expect(hints).to_have_text(
        [
            "Une question se termine par «\u202f？\u202f».",
            "Cette question recopie un long passage du paragraphe\u00a0: reformulez-la.",
        ]
    )
    drag(page, text.index("308"), text.index("308") + 3)
    expect(preview).to_have_text("308")
    page.get_by_label("Question", exact=True).fill("黑豹队的防守丢了多少分？")
    expect(hints).to_have_count(0)
    shot(page, "annotate-zh-1366")
    add_and_send(page, "黑豹队的防守丢了多少分？")
    assert stored_answer() == ("黑豹队的防守丢了多少分？", 10, "308")
    assert text[10:13] == "308"
    assert page.console_problems == []


def test_thai_selection_snaps_to_pythainlps_words_and_asks_for_no_mark(page, live_server):
    require_module("pythainlp", "Thai words (the languages extra)")
    text = open_paragraph(page, live_server, "th")
    preview = page.locator("#answer-preview")
    # "ธอร์สถอด" of แพน|เธอร์ส|ถอดใจ: both words whole, not the run from ทีม to คะแนน.
    inside = text.index("เธอร์สถอดใจ") + 1
    drag(page, inside, inside + len("ธอร์สถอด"))
    expect(preview).to_have_text("เธอร์สถอดใจ")
    start = text.index("308")
    drag(page, start, start + 3)
    expect(preview).to_have_text("308")
    # A Thai question ends with a particle: no question-mark hint.
    page.get_by_label("Question", exact=True).fill("ทีมรับของแพนเธอร์สยอมแพ้ที่คะแนนเท่าไร")
    expect(page.locator("#question-hints li")).to_have_count(0)
    shot(page, "annotate-th-1366")
    add_and_send(page, "ทีมรับของแพนเธอร์สยอมแพ้ที่คะแนนเท่าไร")
    assert stored_answer() == ("ทีมรับของแพนเธอร์สยอมแพ้ที่คะแนนเท่าไร", start, "308")
    assert text[start : start + 3] == "308"
    assert page.console_problems == []


@pytest.mark.parametrize("size", [(1366, 768), (390, 844)])
def test_arabic_reads_right_to_left_and_a_drag_stores_the_exact_offsets(page, live_server, size):
    text = open_paragraph(page, live_server, "ar", size)
    paragraph = page.locator("#paragraph")
    expect(paragraph).to_have_attribute("dir", "rtl")
    expect(paragraph).to_have_attribute("lang", "ar")
    field = page.get_by_label("Question", exact=True)
    expect(field).to_have_attribute("dir", "rtl")
    # Aligned right: the first line starts at the paragraph's right edge.
    edges = page.evaluate(
        """() => { const p = document.getElementById('paragraph');
                   const box = p.getBoundingClientRect(), style = getComputedStyle(p);
                   const range = document.createRange();
                   range.setStart(p.firstChild, 1); range.setEnd(p.firstChild, 3);
                   return {right: box.right - parseFloat(style.paddingRight),
                           first: range.getBoundingClientRect().right,
                           direction: style.direction}; }"""
    )
    assert edges["direction"] == "rtl"
    assert abs(edges["right"] - edges["first"]) < 12, edges
    # From the right of "المركز" to the left of "السادس": two words, offsets exact.
    phrase = "المركز السادس"
    start = text.index(phrase)
    drag(page, start, start + len(phrase), rtl=True)
    expect(page.locator("#answer-preview")).to_have_text(phrase)
    expect(page.locator("#answer-preview bdi")).to_have_attribute("dir", "rtl")
    # Part of a word is grown to the word, as in French.
    inside = text.index("الدوري") + 2
    drag(page, inside, inside + 2, rtl=True)
    expect(page.locator("#answer-preview")).to_have_text("الدوري")
    drag(page, start, start + len(phrase), rtl=True)
    expect(page.locator("#answer-preview")).to_have_text(phrase)
    hints = page.locator("#question-hints li")
    field.fill("ما المركز الذي احتله الفريق في الدوري")
    expect(hints).to_have_text(["Une question se termine par «\u202f؟\u202f»."])
    field.fill("ما المركز الذي احتله الفريق في الدوري؟")
    expect(hints).to_have_count(0)
    shot(page, f"annotate-ar-{size[0]}")
    add_and_send(page, "ما المركز الذي احتله الفريق في الدوري؟")
    expect(page.locator("#question-list .question-answer q bdi")).to_have_attribute("dir", "rtl")
    expect(page.locator("#question-list .question-text")).to_have_attribute("dir", "rtl")
    shot(page, f"annotate-ar-{size[0]}-sent")
    question, answer_start, answer = stored_answer()
    assert (answer_start, answer) == (start, phrase)
    assert text[answer_start : answer_start + len(answer)] == answer
    assert page.console_problems == []
