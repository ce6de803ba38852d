"""Exact match, F1, dataset scores and human performance (evaluation/metrics/).

Every expected value is worked out by hand in the comment above it: p and t are the numbers of
predicted and true tokens, c the tokens they share (as a multiset), P = c/p, R = c/t and
F1 = 2PR / (P + R).
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.metrics import (
    CHARS,
    FQUAD_FR,
    NORMALIZATIONS,
    SQUAD_EN,
    best_over,
    exact_match,
    f1,
    human_performance,
    normalization,
    score,
)


def exactly(value):
    """Compare a float with a hand-computed fraction, allowing only rounding error."""
    return pytest.approx(value, rel=1e-12, abs=0)


# squad-en


def test_squad_en_normalizes_like_the_official_script():
    # lower-case, punctuation out, then "a"/"the" replaced by spaces, whitespace collapsed
    assert SQUAD_EN.normalize("The  Cat, sat on a MAT!") == "cat sat on mat"
    assert SQUAD_EN.tokens("The  Cat, sat on a MAT!") == ["cat", "sat", "on", "mat"]


def test_squad_en_removes_punctuation_before_articles():
    # "the-cat" → "thecat": the hyphen goes first, so no whole word "the" is left to drop
    assert SQUAD_EN.normalize("the-cat") == "thecat"
    # articles only as whole words: "theory", "another" keep their letters
    assert SQUAD_EN.normalize("another theory") == "another theory"


def test_squad_en_f1_of_a_partial_overlap_is_exactly_0_8():
    # "cat sat" vs "cat sat down": c=2, p=2, t=3 → P=1, R=2/3
    # F1 = 2·1·(2/3) / (1 + 2/3) = (4/3) / (5/3) = 0.8
    assert f1("the cat sat", "a cat sat down") == 0.8
    assert exact_match("the cat sat", "a cat sat down") == 0.0


def test_f1_counts_repeated_tokens_as_a_multiset():
    # {cat:2, dog:1} ∩ {cat:1, dog:2} = {cat:1, dog:1}: c=2, p=3, t=3 → P=R=2/3, F1=2/3
    assert f1("cat cat dog", "cat dog dog") == exactly(2 / 3)


def test_f1_is_zero_without_a_common_token():
    assert f1("cat", "dog") == 0.0


def test_both_empty_after_normalization_is_em_1_but_f1_0():
    # "the" and "a." both normalize to "": equal strings (EM 1), no common token (F1 0)
    assert SQUAD_EN.normalize("the") == SQUAD_EN.normalize("a.") == ""
    assert exact_match("the", "a.") == 1.0
    assert f1("the", "a.") == 0.0


def test_one_side_empty_scores_zero():
    assert exact_match("the", "cat") == 0.0
    assert f1("the", "cat") == 0.0


def test_squad_en_keeps_french_articles():
    # "le chat" vs "chat": c=1, p=2, t=1 → P=1/2, R=1, F1 = 2·(1/2)·1 / (3/2) = 2/3
    assert SQUAD_EN.normalize("Le chat") == "le chat"
    assert exact_match("le chat", "chat", SQUAD_EN) == 0.0
    assert f1("le chat", "chat", SQUAD_EN) == exactly(2 / 3)


def test_squad_en_glues_an_elided_article():
    assert SQUAD_EN.normalize("l'empereur") == "lempereur"


# fquad-fr


@pytest.mark.parametrize(
    ("prediction", "truth", "normalized"),
    [
        ("l'empereur", "empereur", "empereur"),
        ("L’empereur Napoléon", "empereur napoléon", "empereur napoléon"),
        ("Le 14 juillet 1789", "14 juillet 1789", "14 juillet 1789"),
        ("aux Pays-Bas", "Pays-Bas", "paysbas"),  # the hyphen is punctuation on both sides
        ("du pain", "pain", "pain"),
        ("les une des la", "", ""),
        ("« Napoléon »", "Napoléon", "napoléon"),
        ("aujourd’hui", "aujourd'hui", "aujourdhui"),
        ("de l’État", "de État", "de état"),
    ],
)
def test_fquad_fr_drops_french_articles(prediction, truth, normalized):
    assert FQUAD_FR.normalize(prediction) == normalized
    assert FQUAD_FR.normalize(truth) == normalized
    assert exact_match(prediction, truth, FQUAD_FR) == 1.0


def test_fquad_fr_drops_only_the_listed_articles():
    # d' and de are not in FQuAD's list: "d'Artagnan" → "dartagnan", "de" stays
    assert FQUAD_FR.normalize("d'Artagnan") == "dartagnan"
    assert exact_match("d'Artagnan", "Artagnan", FQUAD_FR) == 0.0
    assert FQUAD_FR.normalize("de Gaulle") == "de gaulle"
    # English articles are ordinary words in French mode
    assert FQUAD_FR.normalize("the a") == "the a"


def test_fquad_fr_drops_l_apostrophe_only_at_the_start_of_a_word():
    # "avril'" is not an article; the apostrophe is then plain punctuation
    assert FQUAD_FR.normalize("Avril' l'aube") == "avril aube"


def test_fquad_fr_f1():
    # "napoléon bonaparte" vs "empereur napoléon": c=1, p=2, t=2 → P=R=1/2, F1=1/2
    assert f1("Napoléon Bonaparte", "l'empereur Napoléon", FQUAD_FR) == exactly(1 / 2)


# chars (the mode called "word" before issue 27)


def test_chars_mode_splits_chinese_into_characters():
    # "北京大学。" → 北 京 大 学 (the ideographic full stop is punctuation, category Po)
    assert CHARS.tokens("北京大学。") == ["北", "京", "大", "学"]
    assert exact_match("北京大学。", "北京大学", CHARS) == 1.0
    # 北京大学 vs 北京: c=2, p=4, t=2 → P=1/2, R=1, F1 = 2·(1/2)·1 / (3/2) = 2/3
    assert f1("北京大学", "北京", CHARS) == exactly(2 / 3)


def test_chars_mode_on_mixed_japanese():
    # kana and kanji one by one (ー is a letter, category Lm), "333m" one token, ！ removed
    assert CHARS.tokens("東京タワーは333M！") == ["東", "京", "タ", "ワ", "ー", "は", "333m"]
    # vs 東京タワー: c=5, p=7, t=5 → P=5/7, R=1, F1 = 2·(5/7) / (12/7) = 10/12 = 5/6
    assert f1("東京タワーは333M！", "東京タワー", CHARS) == exactly(5 / 6)


def test_chars_mode_keeps_space_separated_words_whole():
    assert CHARS.tokens("Tokyo Tower, 東京") == ["tokyo", "tower", "東", "京"]
    assert CHARS.tokens("서울 특별시") == ["서", "울", "특", "별", "시"]


def test_chars_mode_normalizes_to_tokens_joined_by_spaces():
    # so spaces between ideographs do not change exact match
    assert CHARS.normalize("東京タワー") == "東 京 タ ワ ー"
    assert exact_match("東京 タワー", "東京タワー", CHARS) == 1.0


def test_chars_mode_has_no_article_list_and_keeps_symbols():
    assert CHARS.normalize("The «cat» — $5") == "the cat $5"


# normalization()


def test_normalization_by_name():
    assert normalization("squad-en") is SQUAD_EN
    assert normalization("fquad-fr") is FQUAD_FR
    assert normalization("chars") is CHARS
    assert normalization("word") is CHARS  # the name stored before issue 27
    assert sorted(NORMALIZATIONS) == [
        "chars", "fquad-fr", "korquad-chars", "m2qa-th", "m2qa-zh", "mlqa-ar", "mlqa-de",
        "mlqa-en", "mlqa-es", "mlqa-hi", "mlqa-vi", "mlqa-zh", "squad-en",
    ]  # fmt: skip
    assert (FQUAD_FR.name, FQUAD_FR.version) == ("fquad-fr", "1")


def test_unknown_normalization_names_the_known_ones():
    with pytest.raises(ValueError) as error:
        normalization("xx")
    assert str(error.value) == (
        "unknown normalization 'xx'; known: chars, fquad-fr, korquad-chars, m2qa-th, m2qa-zh, "
        "mlqa-ar, mlqa-de, mlqa-en, mlqa-es, mlqa-hi, mlqa-vi, mlqa-zh, squad-en"
    )


# best_over


def test_best_over_takes_the_best_ground_truth():
    truths = ["Bonaparte", "Napoléon Ier", "l'empereur Napoléon Bonaparte"]
    # "napoléon bonaparte" (p=2) vs
    #   "bonaparte": c=1, t=1 → P=1/2, R=1 → 2/3
    #   "napoléon ier": c=1, t=2 → P=R=1/2 → 1/2
    #   "empereur napoléon bonaparte": c=2, t=3 → P=1, R=2/3 → 0.8
    assert best_over(f1, "Napoléon Bonaparte", truths, FQUAD_FR) == 0.8
    assert best_over(exact_match, "Napoléon Bonaparte", truths, FQUAD_FR) == 0.0
    assert best_over(exact_match, "Napoléon", ["Bonaparte", "le Napoléon"], FQUAD_FR) == 1.0


def test_best_over_refuses_no_ground_truth():
    with pytest.raises(ValueError, match="no ground-truth answer"):
        best_over(f1, "cat", [], SQUAD_EN)


# score


def test_score_counts_a_missing_prediction_as_zero():
    dataset = {
        "q1": ["the cat"],
        "q2": ["Paris", "in Paris"],
        "q3": ["1789"],
        "q4": ["blue sky"],
    }
    predictions = {"q1": "Cat.", "q2": "Paris France", "q4": "the sky", "elsewhere": "x"}
    # q1: "cat" = "cat" → EM 1, F1 1
    # q2: "paris france" vs "paris": c=1, p=2, t=1 → 2/3; vs "in paris": P=R=1/2 → 1/2;
    #     best F1 2/3, EM 0
    # q3: no prediction → EM 0, F1 0
    # q4: "sky" vs "blue sky": c=1, p=1, t=2 → P=1, R=1/2 → 2/3, EM 0
    # EM = 100·1/4 = 25; F1 = 100·(1 + 2/3 + 0 + 2/3)/4 = 100·7/12; "elsewhere" is ignored
    assert score(dataset, predictions) == {
        "exact_match": 25.0,
        "f1": exactly(100 * 7 / 12),
        "total": 4,
        "missing": 1,
    }


def test_score_uses_the_normalization_given():
    dataset = {"q1": ["l'empereur"]}
    assert score(dataset, {"q1": "empereur"}, FQUAD_FR)["exact_match"] == 100.0
    assert score(dataset, {"q1": "empereur"}, SQUAD_EN)["exact_match"] == 0.0


def test_score_refuses_an_empty_dataset_or_a_question_without_answers():
    with pytest.raises(ValueError, match="no questions"):
        score({}, {})
    with pytest.raises(ValueError, match="'q2' has no ground-truth answer"):
        score({"q1": ["cat"], "q2": []}, {"q1": "cat", "q2": "dog"})


# human_performance


def test_human_performance_scores_each_answer_against_the_two_others():
    napoleon = ["Napoléon Bonaparte", "Napoléon", "l'empereur Napoléon"]
    louis = ["Louis XIV", "le roi Louis XIV", "Louis XIV"]
    paris = ["Paris", "à Paris"]
    # napoleon, normalized "napoléon bonaparte", "napoléon", "empereur napoléon":
    #   run 1 "napoléon bonaparte" vs {"napoléon": P=1/2, R=1 → 2/3, "empereur napoléon": 1/2}
    #         → EM 0, F1 2/3
    #   run 2 "napoléon" vs {"napoléon bonaparte": P=1, R=1/2 → 2/3, "empereur napoléon": 2/3}
    #         → EM 0, F1 2/3
    #   run 3 "empereur napoléon" vs {"napoléon bonaparte": 1/2, "napoléon": 2/3}
    #         → EM 0, F1 2/3
    #   question: EM 0, F1 2/3
    # louis, normalized "louis xiv", "roi louis xiv", "louis xiv":
    #   run 4 "louis xiv" vs {"roi louis xiv", "louis xiv"} → EM 1, F1 1
    #   run 5 "roi louis xiv" vs {"louis xiv", "louis xiv"}: c=2, p=3, t=2 → P=2/3, R=1,
    #         F1 = 2·(2/3) / (5/3) = 0.8 → EM 0, F1 0.8
    #   run 6 "louis xiv" vs {"louis xiv", "roi louis xiv"} → EM 1, F1 1
    #   question: EM 2/3, F1 (1 + 0.8 + 1)/3 = 14/15
    # paris has two answers: skipped
    # EM = 100·(0 + 2/3)/2 = 100/3; F1 = 100·(2/3 + 14/15)/2 = 100·(24/15)/2 = 80
    assert human_performance([napoleon, louis, paris]) == {
        "exact_match": exactly(100 / 3),
        "f1": exactly(80.0),
        "questions": 2,
        "skipped": 1,
    }


def test_human_performance_skips_questions_without_exactly_three_answers():
    four = ["a", "b", "c", "d"]
    assert human_performance([["Paris"], four, []]) == {
        "exact_match": None,
        "f1": None,
        "questions": 0,
        "skipped": 3,
    }


def test_human_performance_of_three_identical_answers_is_100():
    result = human_performance([["Lyon", "lyon", "Lyon."]], SQUAD_EN)
    assert result == {"exact_match": 100.0, "f1": 100.0, "questions": 1, "skipped": 0}


# Properties

PIECES = [
    "the", "a", "An", "le", "La", "les", "l'", "L’", "du", "aux", "un", "cat", "chat",
    "empereur", "Pays-Bas", "d'", "«", "»", ".", ",", "-", "'", "’", "東京", "タワー", "서울",
    "ไทย", "É", "Ω", "333", "$",
]  # fmt: skip
SEPARATORS = ["", " ", "  ", "\u00a0", "\t"]
answers = st.one_of(
    st.text(max_size=30),
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPARATORS)), max_size=8).map(
        lambda parts: "".join(piece + separator for piece, separator in parts)
    ),
)
norms = st.sampled_from(list(NORMALIZATIONS.values()))
for _norm in NORMALIZATIONS.values():
    _norm.require()  # jieba's and PyThaiNLP's dictionaries load here, not in a timed example


@given(answers, norms)
def test_an_answer_matches_itself_exactly(text, norm):
    assert exact_match(text, text, norm) == 1.0


@given(answers, answers, norms)
def test_f1_is_symmetric_and_between_0_and_1(prediction, truth, norm):
    assert f1(prediction, truth, norm) == f1(truth, prediction, norm)
    assert 0.0 <= f1(prediction, truth, norm) <= 1.0


@settings(max_examples=300)
@given(answers, answers, norms)
def test_exact_match_implies_f1_1_unless_both_normalize_to_empty(prediction, truth, norm):
    # Precisely: EM 1 ⇒ F1 1 when the common normalized text is non-empty, F1 0 when it is
    # empty; so EM ≤ F1 holds for every pair except two answers that both normalize to "".
    if exact_match(prediction, truth, norm) == 1.0:
        both_empty = norm.normalize(prediction) == ""
        assert f1(prediction, truth, norm) == (0.0 if both_empty else 1.0)
    else:
        assert exact_match(prediction, truth, norm) <= f1(prediction, truth, norm)


@given(answers, answers, norms)
def test_f1_is_1_only_for_the_same_tokens(prediction, truth, norm):
    if f1(prediction, truth, norm) == 1.0:
        assert Counter(norm.tokens(prediction)) == Counter(norm.tokens(truth))


@given(answers, norms)
def test_normalized_text_is_the_words_joined_and_is_stable(text, norm):
    normalized = norm.normalize(text)
    assert normalized == " ".join(norm.words(text))
    assert norm.normalize(normalized) == normalized
    # the tokens are the words, or Units equal to each other exactly when the words are
    tokens = norm.tokens(text)
    assert tokens == norm.tokens(normalized)
    if norm.units is None:
        assert tokens == norm.words(text)


@given(answers, st.lists(answers, min_size=1, max_size=4), norms)
def test_score_agrees_with_best_over(prediction, truths, norm):
    # score() normalizes each answer once; it must give what the public metrics give
    result = score({"q": truths}, {"q": prediction}, norm)
    assert result["exact_match"] == 100.0 * best_over(exact_match, prediction, truths, norm)
    assert result["f1"] == 100.0 * best_over(f1, prediction, truths, norm)


@given(st.lists(answers, min_size=3, max_size=3), norms)
def test_human_performance_agrees_with_best_over(three, norm):
    runs = [(three[i], three[:i] + three[i + 1 :]) for i in range(3)]
    exact = sum(best_over(exact_match, p, others, norm) for p, others in runs) / 3
    overlap = sum(best_over(f1, p, others, norm) for p, others in runs) / 3
    result = human_performance([three], norm)
    assert result["exact_match"] == 100.0 * exact
    assert result["f1"] == 100.0 * overlap
