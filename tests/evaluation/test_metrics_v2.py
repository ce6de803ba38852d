"""SQuAD v2.0 scores and the no-answer classification (evaluation/metrics/), by hand.

Every expected value is worked out in the comment above it: p and t are the numbers of
predicted and true tokens, c the tokens they share, P = c/p, R = c/t and F1 = 2PR / (P + R).
v2.0's rules: the gold answers are those that normalize to a non-empty text, else [""]; when
either side has no token, EM = F1 = 1 if both have none, else 0. The official script's own
figures on a whole PIAF-based v2.0 file, with and without no-answer probabilities, are asserted
to every digit in test_official_scores.py.
"""

import pytest

from evaluation.metrics import CHARS, FQUAD_FR, SQUAD_EN, no_answer_classification, score_v2


def exactly(value):
    """Compare a float with a hand-computed fraction, allowing only rounding error."""
    return pytest.approx(value, rel=1e-12, abs=0)


def test_an_empty_prediction_on_an_answerable_question_scores_zero():
    # gold [paris], prediction []: one side empty, not both → EM 0, F1 0
    result = score_v2({"q": ["Paris"]}, {"q": ""})
    assert result == {
        "exact": 0.0,
        "f1": 0.0,
        "total": 1,
        "HasAns_exact": 0.0,
        "HasAns_f1": 0.0,
        "HasAns_total": 1,
        "missing": 0,
    }


def test_an_answer_on_an_unanswerable_question_scores_zero():
    # gold [] → [""] (no token), prediction [london]: one side empty → EM 0, F1 0
    result = score_v2({"q": []}, {"q": "London"})
    assert result == {
        "exact": 0.0,
        "f1": 0.0,
        "total": 1,
        "NoAns_exact": 0.0,
        "NoAns_f1": 0.0,
        "NoAns_total": 1,
        "missing": 0,
    }


def test_no_answer_on_an_unanswerable_question_scores_one():
    # gold [""], prediction "": both without a token → EM 1, F1 1 (v1.1 gave F1 0)
    result = score_v2({"q": []}, {"q": ""})
    assert (result["exact"], result["f1"], result["NoAns_exact"], result["NoAns_f1"]) == (
        100.0,
        100.0,
        100.0,
        100.0,
    )
    # a prediction that normalizes to nothing ("The.") is no answer too, for EM and F1
    assert score_v2({"q": []}, {"q": "The."})["f1"] == 100.0


def test_answers_that_normalize_to_nothing_leave_only_the_empty_answer():
    # gold ["the"] → normalized "" → gold [""]: "" is right (EM 1, F1 1), "cat" is not;
    # the question counts in HasAns (its gold list is not empty), as the official script does
    result = score_v2({"q": ["the"]}, {"q": ""})
    assert (result["exact"], result["HasAns_total"], "NoAns_total" in result) == (100.0, 1, False)
    assert score_v2({"q": ["the"]}, {"q": "cat"})["f1"] == 0.0
    # gold ["la", "Paris"]: "la" normalizes to "" in French and is dropped → gold [paris]
    assert score_v2({"q": ["la", "Paris"]}, {"q": ""}, norm=FQUAD_FR)["exact"] == 0.0
    assert score_v2({"q": ["la"]}, {"q": ""}, norm=FQUAD_FR)["exact"] == 100.0
    # in English "la" is a word: gold [la], prediction "" → 0
    assert score_v2({"q": ["la"]}, {"q": ""}, norm=SQUAD_EN)["exact"] == 0.0


# The four questions of the threshold tests:
# q1 answerable, gold [paris], prediction [paris]: EM 1, F1 1; na_prob 0.1
# q2 answerable, gold "the big cat" → [big, cat], prediction [big, cat, dog]: c=2, p=3, t=2
#    → P=2/3, R=1, F1 = (4/3)/(5/3) = 0.8, EM 0; na_prob 0.6
# q3 unanswerable, prediction [london]: EM 0, F1 0; na_prob 0.7
# q4 unanswerable, prediction "": EM 1, F1 1; na_prob 0.8
FOUR = {"q1": ["Paris"], "q2": ["the big cat"], "q3": [], "q4": []}
FOUR_PREDICTIONS = {"q1": "Paris", "q2": "big cat dog", "q3": "London", "q4": ""}
FOUR_NA_PROBS = {"q1": 0.1, "q2": 0.6, "q3": 0.7, "q4": 0.8}


def test_four_questions_without_probabilities():
    # exact (1+0+0+1)/4 = 50, f1 (1+0.8+0+1)/4 = 70; HasAns q1,q2: EM 50, F1 1.8/2 = 90;
    # NoAns q3,q4: EM 50, F1 50
    result = score_v2(FOUR, FOUR_PREDICTIONS)
    assert list(result) == [
        "exact", "f1", "total", "HasAns_exact", "HasAns_f1", "HasAns_total",
        "NoAns_exact", "NoAns_f1", "NoAns_total", "missing",
    ]  # fmt: skip
    assert result == {
        "exact": 50.0,
        "f1": exactly(70.0),
        "total": 4,
        "HasAns_exact": 50.0,
        "HasAns_f1": exactly(90.0),
        "HasAns_total": 2,
        "NoAns_exact": 50.0,
        "NoAns_f1": 50.0,
        "NoAns_total": 2,
        "missing": 0,
    }


def test_best_thresholds_of_four_questions():
    # The sweep starts with every question answered "": the 2 unanswerable ones right → 2,
    # threshold 0.0. Then by increasing na_prob, each question answered:
    #   EM: q1 (0.1) +1 → 3 (best, 0.1); q2 (0.6) +0 → 3 (not better); q3 (0.7) −1 (a
    #       non-empty answer to an unanswerable question) → 2; q4 (0.8) "" → +0 → 2.
    #       best_exact = 100·3/4 = 75 at 0.1
    #   F1: q1 +1 → 3 (0.1); q2 +0.8 → 3.8 (best, 0.6); q3 −1 → 2.8; q4 +0 → 2.8.
    #       best_f1 = 100·3.8/4 = 95 at 0.6
    # With the default na_prob_thresh 1.0 no probability is above it: the plain figures.
    result = score_v2(FOUR, FOUR_PREDICTIONS, na_probs=FOUR_NA_PROBS)
    assert (result["exact"], result["f1"]) == (50.0, exactly(70.0))
    assert result["best_exact"] == 75.0
    assert result["best_exact_thresh"] == 0.1
    assert result["best_f1"] == exactly(95.0)
    assert result["best_f1_thresh"] == 0.6
    assert list(result)[-5:] == [
        "best_exact", "best_exact_thresh", "best_f1", "best_f1_thresh", "missing",
    ]  # fmt: skip


def test_a_no_answer_threshold_turns_likely_unanswerable_predictions_into_no_answer():
    # na_prob_thresh 0.5: q2 (0.6), q3 (0.7), q4 (0.8) are above it → taken as "":
    # q2 answerable → 0; q3, q4 unanswerable → 1; q1 keeps 1.
    # exact = f1 = 3/4 = 75; HasAns (q1 1, q2 0) 50; NoAns (1, 1) 100
    result = score_v2(FOUR, FOUR_PREDICTIONS, na_probs=FOUR_NA_PROBS, na_prob_thresh=0.5)
    assert (result["exact"], result["f1"]) == (75.0, 75.0)
    assert (result["HasAns_exact"], result["HasAns_f1"]) == (50.0, 50.0)
    assert (result["NoAns_exact"], result["NoAns_f1"]) == (100.0, 100.0)
    # best_* sweep the raw scores, whatever the threshold: the same as above
    assert (result["best_exact"], result["best_exact_thresh"]) == (75.0, 0.1)


def test_answering_nothing_can_be_best_at_threshold_zero():
    # q answerable, prediction wrong (EM 0); u unanswerable, answered "x":
    # start 1 (u right when answered "") at 0.0; q +0 → 1; u −1 → 0: best 100·1/2 = 50 at 0.0
    result = score_v2(
        {"q": ["cat"], "u": []}, {"q": "dog", "u": "x"}, na_probs={"q": 0.2, "u": 0.4}
    )
    assert (result["best_exact"], result["best_exact_thresh"]) == (50.0, 0.0)
    assert (result["best_f1"], result["best_f1_thresh"]) == (50.0, 0.0)


def test_a_missing_prediction_scores_zero_and_counts():
    # q1 right (1), q2 unanswerable without a prediction: 0 (not the 1 of an empty answer);
    # total 2 → 50; NoAns 0/1. best: start 0 (q2 is not swept), q1 +1 → 1: 50 at 0.3
    result = score_v2({"q1": ["a cat"], "q2": []}, {"q1": "cat"}, na_probs={"q1": 0.3})
    assert (result["exact"], result["total"], result["missing"]) == (50.0, 2, 1)
    assert (result["NoAns_exact"], result["NoAns_total"]) == (0.0, 1)
    assert (result["best_exact"], result["best_exact_thresh"]) == (50.0, 0.3)


def test_predictions_and_probabilities_outside_the_dataset_are_ignored():
    result = score_v2({"q": []}, {"q": "", "zz": "x"}, na_probs={"q": 0.5, "zz": 0.0})
    assert (result["exact"], result["best_exact"], result["best_exact_thresh"]) == (
        100.0,
        100.0,
        0.0,
    )


def test_refusals():
    with pytest.raises(ValueError, match="no questions"):
        score_v2({}, {})
    with pytest.raises(ValueError, match="'q2'"):
        score_v2({"q1": [], "q2": ["x"]}, {"q1": "", "q2": "x"}, na_probs={"q1": 0.5})


def test_v2_with_the_other_normalizations():
    # fquad-fr: "L’empereur" and "l'empereur" → [empereur]: EM 1; "" on it → 0
    assert score_v2({"q": ["l'empereur"]}, {"q": "L’empereur"}, norm=FQUAD_FR)["exact"] == 100.0
    # word: "東京タワー" → [東, 京, タ, ワ, ー], prediction "東京" → [東, 京]: c=2, p=2, t=5
    #   → P=1, R=2/5, F1 = (4/5)/(7/5) = 4/7
    result = score_v2({"q": ["東京タワー"], "u": []}, {"q": "東京", "u": "。"}, norm=CHARS)
    assert result["HasAns_f1"] == exactly(100 * 4 / 7)
    # "。" is punctuation: no token, so it says "no answer" → NoAns 100
    assert result["NoAns_exact"] == 100.0


# No-answer classification: positive = unanswerable


def test_no_answer_classification_counts():
    # a answerable, "Paris" → true negative; b unanswerable, "" → true positive;
    # c unanswerable, "The" (no token) → true positive; d answerable, "" → false positive;
    # e unanswerable, "London" → false negative; f without a prediction → missing
    # P = 2/3, R = 2/3; F1 = 2·2 / (2·2 + 1 + 1) = 2/3
    dataset = {"a": ["Paris"], "b": [], "c": [], "d": ["x"], "e": [], "f": []}
    predictions = {"a": "Paris", "b": "", "c": "The", "d": "", "e": "London"}
    result = no_answer_classification(dataset, predictions)
    assert result == {
        "precision": exactly(200 / 3),
        "recall": exactly(200 / 3),
        "f1": exactly(200 / 3),
        "true_positives": 2,
        "false_positives": 1,
        "false_negatives": 1,
        "true_negatives": 1,
        "missing": 1,
    }


def test_no_answer_classification_asymmetric_and_undefined():
    # TP 2 (b, c), FP 1 (d), FN 0: P = 2/3, R = 1, F1 = 4 / (4 + 1) = 0.8
    dataset = {"a": ["Paris"], "b": [], "c": [], "d": ["x"]}
    result = no_answer_classification(dataset, {"a": "Paris", "b": "", "c": "", "d": ""})
    assert (result["precision"], result["recall"], result["f1"]) == (
        exactly(200 / 3),
        100.0,
        exactly(80.0),
    )
    # only answerable questions, all answered: nothing to find, nothing found → None
    result = no_answer_classification({"a": ["x"]}, {"a": "x"})
    assert (result["precision"], result["recall"], result["f1"]) == (None, None, None)
    # unanswerable ones, none found: recall 0, precision undefined, F1 0
    result = no_answer_classification({"u": []}, {"u": "x"})
    assert (result["precision"], result["recall"], result["f1"]) == (None, 0.0, 0.0)
