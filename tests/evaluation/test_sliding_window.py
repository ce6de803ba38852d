"""The SQuAD paper's sliding-window baseline (evaluation/baselines/sliding_window.py), issue 25
item 15: what a baseline run of kind `lexical` reports.

Hand-made cases first, each worked out in its comment: C(w) is the count of w in the context,
a word seen once weighs log 2 and one seen twice log 1.5; S is the set of the question's and
the candidate's words, and the windows have |S| tokens. Then the exact EM/F1 of the first 200
questions of XQuAD's English file (SQuAD v1.1 dev) and of PIAF v1.0; bench/sliding_window.py
prints the whole files' figures, docs/baselines.md has them.
"""

import json
import math

import pytest

from evaluation.baselines import sliding_window
from evaluation.baselines.sliding_window import (
    Passage,
    guess_language,
    predict,
    predict_all,
    predict_passage_scored,
)
from evaluation.metrics import FQUAD_FR, SQUAD_EN, score
from tests.needs import PIAF, SHARED_DATA, require_file

XQUAD_EN = SHARED_DATA / "xquad" / "xquad.en.json"

LOG2, LOG15 = math.log(2), math.log(1.5)
BRONCOS = "The Broncos won the final game in Santa Clara. Their quarterback was Manning."


def test_the_sentence_with_the_most_question_words_and_the_heaviest_window_win():
    # First sentence: the, broncos, final, game and the bigrams "the broncos", "the final",
    # "final game": 7 (the second holds none). Cutting out a candidate must keep all 7:
    # "won", "Santa", "Clara", "Santa Clara". S for "Santa Clara" has 9 words, as many as
    # the sentence: its window is the sentence, the ×2 + broncos, final, game + santa, clara
    # = 2 log 1.5 + 5 log 2; "won" (|S| = 8) reaches 2 log 1.5 + 4 log 2. d: "Santa" is 2
    # tokens from "game" in a sentence of 9 (2/8), "won" 1 from "broncos" (1/8), which does
    # not make up for log 2.
    assert predict(BRONCOS, "Where did the Broncos win the final game?") == "Santa Clara"


def test_stop_words_count_in_the_overlap_and_the_window_favours_long_spans():
    # the, broncos, "the broncos" (3) in the first sentence outweigh quarterback, was (2) in
    # the second (the paper leaves no word out). There, S for "final game in Santa" has 10
    # words: the window is the whole sentence, the ×2, broncos and the span's four words
    # (2 log 1.5 + 5 log 2), one log 2 more than "won the final game" ("the" is the
    # question's already); "game in Santa Clara" ties but is 4 tokens from "broncos", not 3.
    assert predict(BRONCOS, "Who was the quarterback of the Broncos?") == "final game in Santa"


def test_the_distance_breaks_a_tie_of_window_scores():
    passage = Passage("Alice met Bob in Paris.")
    scorer = sliding_window._Scorer(passage, "Who met Bob?")
    by_text = {passage.text(c): c for c in passage.candidates}
    alice, paris = by_text["Alice"], by_text["Paris"]
    # met, bob and "met bob" stay when either is cut out: 3; each window of |S| = 4 tokens
    # holds the candidate, met and bob: 3 log 2 (2 log 2 of it the question's), a tie
    assert scorer.overlap(alice) == scorer.overlap(paris) == 3
    tie = (round(3 * LOG2, 9), round(2 * LOG2, 9))
    assert scorer.window_score(alice) == scorer.window_score(paris) == tie
    # Alice is next to met (1 of the sentence's 4 gaps), Paris 2 tokens from bob
    assert (scorer.distance(alice), scorer.distance(paris)) == (0.25, 0.5)
    assert predict("Paris, where Bob met Alice.", "Who met Bob?") == "Alice"


def test_candidates_stay_in_a_sentence_cross_no_comma_and_have_no_stop_word_edge():
    passage = Passage("Berlin, a large city, is big. The Rhine flows into the North Sea.")

    texts = {passage.text(candidate) for candidate in passage.candidates}

    assert {"Berlin", "large city", "big", "Rhine flows", "North Sea"} <= texts
    assert not {"Berlin, a large city", "city, is big", "big. The Rhine"} & texts
    assert not {"a large city", "is big", "Rhine flows into", "The Rhine"} & texts
    assert all(len(text.split()) <= sliding_window.MAX_TOKENS for text in texts)


def test_the_language_decides_the_stop_words():
    assert guess_language(["the", "broncos", "won", "the", "game", "in", "santa", "clara"]) == "en"
    assert guess_language(["le", "château", "de", "chambord", "compte", "426", "pièces"]) == "fr"
    assert guess_language(["北京", "是", "首都"]) == ""
    assert Passage(BRONCOS).stop_words == sliding_window.ENGLISH_STOP_WORDS
    assert Passage(BRONCOS, language="").stop_words == frozenset()
    assert Passage(BRONCOS, language="fr-CA").stop_words == sliding_window.FRENCH_STOP_WORDS
    # French: "une chapelle" starts with a stop word, no candidate; "426"'s window of 8
    # tokens holds le, château, de, chambord, compte, 426, pièces (7 log 2); "chapelle"'s
    # best holds six of the question's words (6 log 2)
    context = "Le château de Chambord compte 426 pièces et une chapelle."
    assert predict(context, "Combien de pièces compte le château de Chambord ?") == "426"


def test_the_no_answer_score_is_the_weight_of_the_questions_words_in_the_window():
    passage = Passage(BRONCOS)
    # "Santa Clara"'s window: the ×2, broncos, final, game (its own words left out)
    assert predict_passage_scored(passage, "Where did the Broncos win the final game?") == (
        "Santa Clara",
        round(2 * LOG15 + 3 * LOG2, 9),
    )
    # an off-topic question: no question word anywhere, a score of 0
    assert predict_passage_scored(passage, "How old is Peyton?")[1] == 0.0
    assert predict_passage_scored(Passage("… !"), "Qui ?") == ("", 0.0)
    assert predict("Paris. Paris.", "Paris ?") == ""  # a span of question words only


def first_questions(path, limit: int) -> tuple[list[dict], dict[str, list[str]]]:
    require_file(path)
    examples, answers = [], {}
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for question in paragraph["qas"]:
                qid = str(question["id"])
                examples.append(
                    {"id": qid, "context": paragraph["context"], "question": question["question"]}
                )
                answers[qid] = [answer["text"] for answer in question["answers"]]
    examples = examples[:limit]
    return examples, {e["id"]: answers[e["id"]] for e in examples}


@pytest.mark.parametrize(
    ("path", "language", "norm", "exact_match", "f1"),
    [
        # 200 questions of SQuAD v1.1 dev (35 paragraphs): 7 exact, F1 17.72
        pytest.param(XQUAD_EN, "en", SQUAD_EN, 3.5, 17.715873, id="xquad-en"),
        # 200 questions of PIAF (40 paragraphs): 8 exact, F1 14.40
        pytest.param(PIAF, "fr", FQUAD_FR, 4.0, 14.402863, id="piaf"),
    ],
)
def test_the_first_200_questions_score_exactly(path, language, norm, exact_match, f1):
    examples, answers = first_questions(path, 200)

    predictions = predict_all(examples, language=language)

    result = score(answers, predictions, norm)
    assert (result["exact_match"], round(result["f1"], 6)) == (exact_match, f1)
    assert predict_all(examples) == predictions  # the language guessed from each context
    assert all(predictions[e["id"]] in e["context"] for e in examples)
