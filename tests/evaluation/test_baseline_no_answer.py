"""Baselines that can say "no answer" (SQuAD v2.0): the no-answer threshold learnt on dev
(evaluation/baselines/no_answer.py) and the lexical window score it thresholds."""

import math

import pytest

from evaluation.baselines.lexical import Passage, predict_all_scored, predict_passage_scored
from evaluation.baselines.no_answer import apply_threshold, best_threshold
from evaluation.metrics import FQUAD_FR, f1_v2, score_v2

LOG2 = math.log(2)
CHAMBORD = (
    "Le château de Chambord fut construit au XVIe siècle. Il compte 426 pièces et 282 cheminées."
)


def test_the_lexical_span_comes_with_its_window_score():
    passage = Passage(CHAMBORD)
    # window "il compte 426 pièces": compte and pièces, each seen once: 2 log 2
    assert predict_passage_scored(passage, "Combien de pièces compte le château ?") == (
        "426",
        round(2 * LOG2, 9),
    )
    # no question content word (nom, peintre) in the context: every window scores 0, and
    # the first candidate of the shortest length wins the ties
    assert predict_passage_scored(passage, "Quel est le nom du peintre ?") == ("château", 0.0)
    assert predict_passage_scored(Passage("… !"), "Qui ?") == ("", 0.0)


def test_predict_all_scored_keeps_every_id_with_its_score():
    examples = [
        {"id": "a", "context": CHAMBORD, "question": "Combien de pièces compte le château ?"},
        {"id": "b", "context": CHAMBORD, "question": "Combien de cheminées a le château ?"},
    ]
    # "b": window "et 282 cheminées" (|S| = 3) holds cheminées only: log 2
    assert predict_all_scored(examples) == {
        "a": ("426", round(2 * LOG2, 9)),
        "b": ("282", round(LOG2, 9)),
    }


def test_v2_f1_scores_an_empty_answer_right_only_on_an_unanswerable_question():
    assert f1_v2("", [], FQUAD_FR) == 1.0
    assert f1_v2("la", [], FQUAD_FR) == 1.0  # an article alone normalizes to no token
    assert f1_v2("Paris", [], FQUAD_FR) == 0.0
    assert f1_v2("", ["Paris"], FQUAD_FR) == 0.0
    # "océan atlantique" against "atlantique": precision 1/2, recall 1, F1 2/3
    assert f1_v2("océan Atlantique", ["Atlantique", "Pacifique"], FQUAD_FR) == pytest.approx(2 / 3)


# Four questions: a and c answerable, b and d not. Abstaining everywhere scores 2 of 4.
GOLD = {"a": ["426"], "b": [], "c": ["Atlantique"], "d": []}
ANSWERS = {"a": "426", "b": "Paris", "c": "océan Atlantique", "d": "Ardèche"}


def test_the_threshold_is_the_bar_with_the_best_dev_f1():
    no_answer = {"a": -2.0, "b": -1.5, "c": -1.0, "d": -0.5}
    # Lowest no-answer score first: answering a gains 1 (3 of 4); b loses its "" (2);
    # c gains 2/3 (2.67); d loses 1 (1.67). The best is after a: threshold -2.0, F1 75 %.
    threshold, f1 = best_threshold(GOLD, ANSWERS, no_answer, FQUAD_FR)
    assert (threshold, f1) == (-2.0, 75.0)
    predictions = apply_threshold(ANSWERS, no_answer, threshold)
    assert predictions == {"a": "426", "b": "", "c": "", "d": ""}
    figures = score_v2(GOLD, predictions, norm=FQUAD_FR)
    assert figures["f1"] == f1


def test_a_partial_answer_can_be_worth_an_unanswerable_question_lost():
    no_answer = {"a": -2.0, "c": -1.5, "b": -1.0, "d": -0.5}
    # a: 3; c: 3 + 2/3; b: 2 + 2/3; d: 1 + 2/3. Best after c: threshold -1.5, F1 91.67 %.
    threshold, f1 = best_threshold(GOLD, ANSWERS, no_answer, FQUAD_FR)
    assert threshold == -1.5
    assert f1 == pytest.approx(100 * (3 + 2 / 3) / 4)


def test_tied_scores_move_together_and_abstaining_everywhere_can_win():
    # a (+1) and b (-1) tie at -2.0: once applied, a bar at -2.0 answers both, so together
    # they gain nothing; c and d tie too (+2/3 - 1). Nothing beats abstaining: None, 50 %.
    no_answer = {"a": -2.0, "b": -2.0, "c": -1.0, "d": -1.0}
    assert best_threshold(GOLD, ANSWERS, no_answer, FQUAD_FR) == (None, 50.0)
    assert apply_threshold(ANSWERS, no_answer, None) == dict.fromkeys(ANSWERS, "")


def test_a_question_without_a_finite_score_always_abstains():
    # "c" has no valid span (an infinite no-answer score): it is never answered.
    no_answer = {"a": -2.0, "b": 5.0, "c": math.inf, "d": 6.0}
    threshold, f1 = best_threshold(GOLD, ANSWERS, no_answer, FQUAD_FR)
    assert (threshold, f1) == (-2.0, 75.0)
    assert apply_threshold(ANSWERS, no_answer, 100.0)["c"] == ""


def test_an_empty_dev_set_has_no_threshold():
    with pytest.raises(ValueError, match="no question"):
        best_threshold({}, {}, {}, FQUAD_FR)
