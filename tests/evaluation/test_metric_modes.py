"""Issue 27's metric modes by hand: MLQA's languages, KorQuAD's characters, M2QA's words, the
names the language registry points at, the old name "word", and refusals for missing packages.

Their figures on whole files equal the official scripts' (test_official_scores.py); here each
rule is shown on small answers. p and t are the numbers of predicted and true tokens, c the
tokens they share, P = c/p, R = c/t and F1 = 2PR / (P + R).
"""

import sys

import pytest

from core import metric_modes
from evaluation.metrics import (
    ALIASES,
    CHARS,
    DEFAULT_NORMALIZATION,
    FQUAD_FR,
    KORQUAD_CHARS,
    LANGUAGE_NORMALIZATIONS,
    M2QA_TH,
    M2QA_ZH,
    MLQA,
    NORMALIZATIONS,
    SQUAD_EN,
    WORD,
    MissingTokenizer,
    Units,
    canonical_name,
    community,
    exact_match,
    f1,
    language_normalization,
    normalization,
    score,
    score_v2,
)

# MLQA


@pytest.mark.parametrize(
    ("language", "text", "normalized"),
    [
        # every Unicode punctuation mark and the ASCII symbols go, then the articles
        ("en", "The $5 «cat»", "5 cat"),
        ("es", "Las Islas «Canarias»", "islas canarias"),
        ("es", "unos, una, el-la", "ella"),  # the hyphen goes first: "ella" is no article
        ("de", "Der Rhein, des Flusses", "rhein flusses"),
        ("de", "Einer der Einen", ""),
        ("vi", "Những cái bàn của tôi", "bàn tôi"),
        # Arabic: every "ال", even inside a word (the script's pattern), leaves a space
        ("ar", "الكتاب، والقلم", "كتاب و قلم"),
        ("hi", "भारत का इतिहास।", "भारत का इतिहास"),  # no article list; । is punctuation
        ("zh", "北京大学。", "北 京 大 学"),
    ],
)
def test_mlqa_normalization(language, text, normalized):
    assert MLQA[language].normalize(text) == normalized


def test_mlqa_english_differs_from_squad_on_unicode_punctuation_and_symbols():
    # squad-en deletes ASCII punctuation only, and keeps nothing else out
    assert SQUAD_EN.normalize("The $5 «cat»") == "5 «cat»"
    # "5 «cat»" vs "5 cat": squad-en c=1, p=t=2 → 1/2; mlqa-en: the same tokens → 1
    assert f1("The $5 «cat»", "5 cat", SQUAD_EN) == 0.5
    assert f1("The $5 «cat»", "5 cat", MLQA["en"]) == 1.0


def test_mlqa_zh_mixed_segmentation_and_its_range():
    # each character of U+4E00–U+9FA5 alone; a run of anything else split on spaces
    assert MLQA["zh"].tokens("北京2008年 Olympics") == ["北", "京", "2008", "年", "olympics"]
    # U+9FA5 is in the range, U+9FA6 (a later ideograph) is not: it joins its neighbours' run
    assert MLQA["zh"].tokens("\u9fa5a") == ["\u9fa5", "a"]
    assert MLQA["zh"].tokens("\u9fa6a\u4e00") == ["\u9fa6a", "\u4e00"]
    # kana is not in the range either: a run of its own ("の", or "タワー" whole)
    assert MLQA["zh"].tokens("東京タワー") == ["東", "京", "タワー"]
    assert CHARS.tokens("東京タワー") == ["東", "京", "タ", "ワ", "ー"]


def test_mlqa_hindi_is_on_whitespace_as_the_script_lists_it():
    assert MLQA["hi"].tokens("भारत का इतिहास") == ["भारत", "का", "इतिहास"]


# KorQuAD v1.0


def test_korquad_replaces_its_symbols_by_spaces_and_deletes_ascii_punctuation():
    # 《 》 ( ) become spaces; the ASCII comma is deleted; 首尔 stays (no CJK rule)
    assert KORQUAD_CHARS.normalize("《서울》 특별시(首尔),") == "서울 특별시 首尔"
    # « » are not in its list and not ASCII: they stay
    assert KORQUAD_CHARS.normalize("«서울»") == "«서울»"
    # the apostrophe is a space, not deleted: "l'empereur" is two words
    assert KORQUAD_CHARS.normalize("L'Empereur") == "l empereur"


def test_korquad_exact_match_keeps_spaces_f1_counts_characters():
    # EM compares the words: "서울특별시" ≠ "서울 특별시"; F1 counts the 5 characters of each
    assert exact_match("서울특별시", "서울 특별시", KORQUAD_CHARS) == 0.0
    assert f1("서울특별시", "서울 특별시", KORQUAD_CHARS) == 1.0
    # 서울 vs 서울특별시: c=2, p=2, t=5 → P=1, R=2/5, F1 = (4/5)/(7/5) = 4/7
    assert f1("서울", "서울특별시", KORQUAD_CHARS) == pytest.approx(4 / 7, rel=1e-15)
    tokens = KORQUAD_CHARS.tokens("서울 시")
    assert (list(tokens), tokens.words) == (["서", "울", "시"], ["서울", "시"])


def test_korquad_scores_a_dataset():
    truths = {"1": ["서울 특별시"], "2": ["1950년"]}
    predictions = {"1": "서울특별시", "2": "1950년 6월"}
    # 1: EM 0, F1 1; 2: "1950년" (5 chars) vs "1950년6월" (7): c=5, p=7, t=5 → P=5/7, R=1,
    #    F1 = (10/7)/(12/7) = 5/6. EM 0, F1 = 100·(1 + 5/6)/2 = 275/3
    result = score(truths, predictions, KORQUAD_CHARS)
    assert result["exact_match"] == 0.0
    assert result["f1"] == pytest.approx(275 / 3, rel=1e-15)


# M2QA


def test_m2qa_zh_counts_jiebas_words_and_its_spaces():
    # SQuAD's normalization ("the" and "," out), then jieba 0.42.1's words, spaces included
    assert list(M2QA_ZH.tokens("The 北京大学, history")) == ["北京大学", " ", "history"]
    # 北京大学的历史 → [北京大学, 的, 历史] vs [北京大学]: c=1, p=3, t=1 → P=1/3, R=1, F1 1/2
    assert f1("北京大学的历史", "北京大学", M2QA_ZH) == 0.5
    # MLQA's characters are kinder: c=4, p=7, t=4 → P=4/7, R=1, F1 = (8/7)/(11/7) = 8/11
    assert f1("北京大学的历史", "北京大学", MLQA["zh"]) == pytest.approx(8 / 11, rel=1e-15)
    # EM is SQuAD's: 。 is not ASCII punctuation, so it stays and the answers differ
    assert exact_match("北京大学。", "北京大学", M2QA_ZH) == 0.0


def test_m2qa_zh_follows_squad_v2_for_empty_answers():
    # a prediction with no token against an unanswerable question: EM 1, F1 1
    result = score_v2({"u": [], "a": ["北京"]}, {"u": "", "a": "北京大学"}, None, M2QA_ZH)
    # a: [北京大学] vs [北京]: no shared word → 0
    assert (result["exact"], result["f1"]) == (50.0, 50.0)


def test_m2qa_th_counts_pythainlps_words_without_spaces():
    assert list(M2QA_TH.tokens("ภาษาไทยง่าย นิดเดียว")) == ["ภาษาไทย", "ง่าย", "นิดเดียว"]
    # [ภาษาไทย, ง่าย] vs [ภาษาไทย]: c=1, p=2, t=1 → P=1/2, R=1, F1 2/3
    assert f1("ภาษาไทยง่าย", "ภาษาไทย", M2QA_TH) == pytest.approx(2 / 3, rel=1e-15)
    # in characters (ง่าย is 4 of them, its tone mark one): c=7, p=11, t=7 → F1 14/18 = 7/9
    assert f1("ภาษาไทยง่าย", "ภาษาไทย", CHARS) == pytest.approx(7 / 9, rel=1e-15)


def test_units_are_equal_when_their_words_are():
    assert Units(["a", "b"], ["ab"]) == Units(["a", "b"], ["ab"])
    assert Units(["a", "b"], ["ab"]) != Units(["a", "b"], ["a", "b"])
    assert list(Units(["a", "b"], ["ab"])) == ["a", "b"]


# missing packages: a clear refusal by name, never another mode


@pytest.mark.parametrize(
    ("norm", "module", "cached", "package"),
    [
        (M2QA_ZH, "jieba", community._jieba_cut, "jieba==0.42.1"),
        (M2QA_TH, "pythainlp", community._thai_words, "pythainlp==5.4.0"),
    ],
)
def test_a_mode_refuses_when_its_package_is_missing(monkeypatch, norm, module, cached, package):
    monkeypatch.setitem(sys.modules, module, None)  # as in an install without the extra
    cached.cache_clear()
    try:
        message = (
            f"the normalization '{norm.name}' needs {package}, which is not installed here "
            "(pip install '.[languages]'); it does not fall back to another mode"
        )
        with pytest.raises(MissingTokenizer) as refused:
            norm.require()
        assert str(refused.value) == message
        with pytest.raises(MissingTokenizer):
            norm.tokens("ภาษาไทย 北京")
    finally:
        cached.cache_clear()
    assert norm.requires == package


def test_a_mode_refuses_another_version_of_its_package(monkeypatch):
    import jieba

    monkeypatch.setattr(jieba, "__version__", "0.39")
    community._jieba_cut.cache_clear()
    try:
        with pytest.raises(
            MissingTokenizer, match=r"needs jieba==0\.42\.1, which is version 0\.39"
        ):
            M2QA_ZH.require()
    finally:
        community._jieba_cut.cache_clear()


# names and languages


def test_the_stable_names():
    assert sorted(NORMALIZATIONS) == [
        "chars", "fquad-fr", "korquad-chars", "m2qa-th", "m2qa-zh", "mlqa-ar", "mlqa-de",
        "mlqa-en", "mlqa-es", "mlqa-hi", "mlqa-vi", "mlqa-zh", "squad-en",
    ]  # fmt: skip
    assert all(norm.version == "1" for norm in NORMALIZATIONS.values())
    for name, norm in NORMALIZATIONS.items():
        assert normalization(name) is norm and norm.name == name


def test_the_old_name_word_is_read_as_chars():
    # rows and files stored before issue 27 say "word" (version 1): the same rules
    assert ALIASES == {"word": "chars"}
    assert normalization("word") is CHARS is WORD
    assert canonical_name("word") == "chars"
    assert canonical_name("mlqa-de") == "mlqa-de"


@pytest.mark.parametrize(
    ("language", "name"),
    [
        ("en", "squad-en"),
        ("fr", "fquad-fr"),
        ("fr-CA", "fquad-fr"),
        ("es", "mlqa-es"),
        ("de", "mlqa-de"),
        ("vi", "mlqa-vi"),
        ("ar", "mlqa-ar"),
        ("hi", "mlqa-hi"),
        ("zh", "mlqa-zh"),
        ("zh-hans", "mlqa-zh"),
        ("th", "chars"),
        ("ko", "korquad-chars"),
        ("ro", "chars"),
        ("tr", "chars"),
        ("ru", "chars"),
        ("el", "chars"),
        ("ja", "chars"),
        ("", "chars"),
    ],
)
def test_each_language_has_its_communitys_mode(language, name):
    assert language_normalization(language).name == name


def test_the_language_table_needs_no_optional_package():
    # a language's default mode works on any install; m2qa-* are asked for by name
    assert all(not norm.requires for norm in LANGUAGE_NORMALIZATIONS.values())
    assert DEFAULT_NORMALIZATION is CHARS
    assert LANGUAGE_NORMALIZATIONS["fr"] is FQUAD_FR


def test_the_plain_table_of_core_agrees_with_the_modes():
    # core.metric_modes is what the datasheet and a language registry read (no evaluation
    # import there): the same names, versions and languages as the modes themselves
    assert {name: version for name, (version, _) in metric_modes.MODES.items()} == {
        name: norm.version for name, norm in NORMALIZATIONS.items()
    }
    assert metric_modes.ALIASES == ALIASES
    assert {
        language: norm.name for language, norm in LANGUAGE_NORMALIZATIONS.items()
    } == {language: metric_modes.language_mode(language) for language in LANGUAGE_NORMALIZATIONS}
    assert metric_modes.mode_description("word") == metric_modes.mode_description("chars")


@pytest.mark.parametrize(
    ("language", "first_words"),
    [("de", "Answers are scored with `mlqa-de` (version 1), the metric of the release's "
             "language (de): MLQA's official evaluation (mlqa_evaluation_v1.py), answer "
             "language de"),
     ("ko", "Answers are scored with `korquad-chars` (version 1), the metric of the "
            "release's language (ko): KorQuAD v1.0's")],
)  # fmt: skip
def test_the_datasheet_names_the_metric_of_the_language(language, first_words):
    from types import SimpleNamespace

    from exports.datasheet.markdown import metric_section

    # two articles of the language and one French: the language with the most decides
    articles = [SimpleNamespace(language=code) for code in (language, language, "fr")]
    lines = metric_section(articles)
    assert lines[0] == "## Metric"
    assert lines[2].startswith(first_words)
    assert metric_section([]) == []
