"""The words of languages written without spaces (corpus.words) and the paragraph's word
bounds the annotation page snaps to (corpus.selectors.paragraph_words, cached)."""

import hashlib
import sys

import pytest
from django.core.cache import cache

from corpus import words
from corpus.selectors import paragraph_words
from tests.needs import require_module

ZH = "黑豹队的防守只丢了 308分，在联赛中排名第六"
TH = "ทีมรับของแพนเธอร์สถอดใจที่คะแนน 308 ได้อันดับที่หกของลีก"


@pytest.fixture
def jieba():
    return require_module("jieba", "Chinese words (the languages extra)")


@pytest.fixture
def pythainlp():
    return require_module("pythainlp", "Thai words (the languages extra)")


def test_chinese_words_are_jiebas_and_the_bounds_lie_between_two_letters(jieba):
    assert words.tokenizer_words(ZH, "zh") == [
        "黑豹", "队", "的", "防守", "只", "丢", "了", " ", "308", "分", "，",
        "在", "联赛", "中", "排名", "第六",
    ]  # fmt: skip
    bounds = words.inner_bounds(ZH, "zh")
    # Not 9 (了|space), 10 (space|308) nor 14 (分|，): spaces and marks are bounds already.
    assert bounds == [2, 3, 4, 6, 7, 8, 13, 16, 18, 19, 21]
    assert [ZH[a:b] for a, b in zip([0, *bounds], bounds, strict=False)][:4] == [
        "黑豹", "队", "的", "防守",
    ]  # fmt: skip


def test_thai_words_are_pythainlps(pythainlp):
    assert words.tokenizer_words(TH, "th")[:8] == [
        "ทีม", "รับ", "ของ", "แพน", "เธอร์ส", "ถอดใจ", "ที่", "คะแนน",
    ]  # fmt: skip
    assert words.inner_bounds(TH, "th") == [3, 6, 9, 12, 18, 23, 26, 39, 45, 50, 53]
    assert TH[12:18] == "เธอร์ส"  # combining vowels and marks stay inside their word


def test_words_join_back_into_the_text_and_regional_codes_find_their_tokenizer(jieba):
    text = "北京是中国的首都。\n上海 2024"
    assert "".join(words.tokenizer_words(text, "zh-hans")) == text
    assert words.tokenizer_words("", "zh") == []
    assert words.tokenizer_of("zh") == "jieba"
    assert words.tokenizer_of("th") == "pythainlp"
    assert words.tokenizer_of("fr") is None
    assert words.tokenizer_of("ar") is None
    assert words.tokenizer_of("xx") is None
    with pytest.raises(ValueError, match="separates words with spaces"):
        words.tokenizer_words("Bonjour", "fr")


def test_pieces_a_tokenizer_changed_are_found_again_in_the_text():
    assert words._rejoined("ab cd", ["ab", "cd"]) == ["ab", " ", "cd"]
    assert words._rejoined("ab cd", ["ab", " ", "cd"]) == ["ab", " ", "cd"]
    assert words._rejoined("abcde", ["ab", "X", "d"]) == ["ab", "c", "d", "e"]


def test_character_bounds_make_each_letter_a_word():
    assert words.character_bounds("北京，上海a") == [1, 4, 5]


@pytest.mark.django_db
def test_a_paragraphs_bounds_are_cut_once_then_read_from_the_cache(jieba):
    assert paragraph_words(ZH, "zh") == {
        "tokenizer": "jieba",
        "bounds": [2, 3, 4, 6, 7, 8, 13, 16, 18, 19, 21],
    }
    key = "corpus:words:jieba:0.42.1:" + hashlib.sha256(ZH.encode()).hexdigest()
    assert cache.get(key) == [2, 3, 4, 6, 7, 8, 13, 16, 18, 19, 21]
    cache.set(key, [5])  # what the cache holds is what the page gets: no second cut
    assert paragraph_words(ZH, "zh") == {"tokenizer": "jieba", "bounds": [5]}
    assert paragraph_words("Bonjour à tous", "fr") is None
    assert paragraph_words("مرحبا بالعالم", "ar") is None


@pytest.mark.django_db
def test_a_missing_tokenizer_is_said_and_each_character_is_a_word(monkeypatch):
    monkeypatch.setitem(sys.modules, "jieba", None)  # the optional package not installed
    words._cut.cache_clear()
    try:
        with pytest.raises(words.WordsUnavailable, match=r"install jieba==0\.42\.1"):
            words.inner_bounds(ZH, "zh")
        assert paragraph_words("北京，上海", "zh") == {
            "tokenizer": None,
            "missing": "jieba",
            "bounds": [1, 4],
        }
    finally:
        words._cut.cache_clear()
