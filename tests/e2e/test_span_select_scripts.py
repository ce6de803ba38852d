"""The span tool in scripts other than French's (issue 27), on a blank page in the real
Chromium: the word bounds of a tokenizer (Chinese, Thai) and the arrows right to left (Arabic).
Expected offsets are Python's (code points)."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "annotation/static/annotation/span-select.js"
PAGE = """<!doctype html><html lang="fr"><head><meta charset="utf-8">
<style>body { font: 24px/1.6 sans-serif; margin: 40px; width: 900px; }</style></head>
<body><p id="para" tabindex="0"></p></body></html>"""
ZH = "黑豹队的防守只丢了 308分"
ZH_BOUNDS = [
    2,
    3,
    4,
    6,
    7,
    8,
]  # jieba: 黑豹|队|的|防守|只|丢|了 308|分 (tests/corpus/test_words.py)
ATTACH = """([text, bounds, dir]) => {
    const para = document.getElementById('para');
    para.textContent = text;
    para.dir = dir;
    window.picked = [];
    SpanSelect.attach(para, {bounds, onSelect: span => window.picked.push(span)});
}"""


@pytest.fixture
def blank(page):
    page.set_content(PAGE)
    page.add_script_tag(path=str(SCRIPT))
    return page


def test_snapping_and_cut_words_stop_at_the_tokenizers_bounds(blank):
    got = blank.evaluate(
        """([text, bounds]) => ({
            inside: SpanSelect.snapToWords(text, 1, 2, bounds),
            across: SpanSelect.snapToWords(text, 5, 7, bounds),
            spaced: SpanSelect.snapToWords(text, 1, 2),
            cut: SpanSelect.cutWords(text, 1, 5, bounds),
            whole: SpanSelect.cutWords(text, 2, 6, bounds),
        })""",
        [ZH, ZH_BOUNDS],
    )
    assert got == {
        "inside": {"start": 0, "end": 2},  # 黑豹
        "across": {"start": 4, "end": 7},  # 防守只
        "spaced": {"start": 0, "end": 9},  # no bounds: the whole run up to the space
        "cut": {"start": "黑豹", "end": "防守"},
        "whole": {"start": "", "end": ""},
    }
    assert ZH[4:7] == "防守只"
    assert blank.console_problems == []


def test_ctrl_arrows_go_word_by_word_in_chinese(blank):
    blank.evaluate(ATTACH, [ZH, ZH_BOUNDS, "ltr"])
    blank.locator("#para").focus()
    for _ in range(4):
        blank.keyboard.press("Control+Shift+ArrowRight")
    blank.keyboard.press("Control+Shift+ArrowLeft")
    assert [span["text"] for span in blank.evaluate("window.picked")] == [
        "黑豹", "黑豹队", "黑豹队的", "黑豹队的防守", "黑豹队的",
    ]  # fmt: skip
    assert blank.console_problems == []


def test_arrows_follow_the_eye_right_to_left(blank):
    text = "في الدوري الأميركي"
    blank.evaluate(ATTACH, [text, [], "rtl"])
    blank.locator("#para").focus()
    blank.keyboard.press("Control+Shift+ArrowLeft")  # leftwards: towards the text's end
    blank.keyboard.press("Control+Shift+ArrowLeft")
    blank.keyboard.press("Shift+ArrowRight")  # rightwards: one character back
    assert blank.evaluate("window.picked") == [
        {"start": 0, "end": 2, "text": "في"},
        {"start": 0, "end": 9, "text": "في الدوري"},
        {"start": 0, "end": 8, "text": "في الدور"},
    ]
    assert blank.console_problems == []
