"""The sliding-window baseline (evaluation/baselines/lexical.py).

Each hand-made prediction is worked out in the comment above it: C(w) is the count of w in
the context, a question word seen once weighs log 2, S = question content words ∪ candidate
words, and the candidate's windows have |S| tokens.
"""

import json
import time

from evaluation.baselines import lexical
from evaluation.baselines.lexical import predict, predict_all
from evaluation.metrics import FQUAD_FR, score
from tests.needs import PIAF, require_file

PIAF_PATH = PIAF

CHAMBORD = (
    "Le château de Chambord fut construit au XVIe siècle. Il compte 426 pièces et 282 cheminées."
)
LOIRE = (
    "La Loire est le plus long fleuve de France. Elle prend sa source au mont Gerbier-de-Jonc, "
    "en Ardèche, et se jette dans l'océan Atlantique."
)
HUGO = (
    "Victor Hugo publie Les Misérables en 1862, pendant son exil à Guernesey. "
    "Le roman connaît un succès immédiat."
)
EIFFEL = (
    "La tour Eiffel mesure 330 mètres. Elle a été construite par Gustave Eiffel pour "
    "l'Exposition universelle de 1889."
)


def test_the_number_between_the_question_words_wins():
    # Q content = {pièces, compte, château}; "426" makes |S| = 4, and the window
    # "il compte 426 pièces" holds compte and pièces: 2 log 2, which no other span reaches
    # ("426 pièces" holds pièces itself, which does not count: 1 log 2)
    assert predict(CHAMBORD, "Combien de pièces compte le château ?") == "426"


def test_the_distance_to_the_question_words_breaks_a_tie():
    # Q content = {océan, jette, loire}; "Atlantique" (|S| = 4, window "dans l océan
    # Atlantique") and "Ardèche" (window "Ardèche et se jette") both score log 2 (one match);
    # Atlantique is 1 token from océan, Ardèche 3 from jette, so Atlantique wins
    assert predict(LOIRE, "Dans quel océan se jette la Loire ?") == "Atlantique"


def test_the_shorter_span_wins_a_tie_at_equal_distance():
    # Q content = {année, victor, hugo, publie, misérables}; "1862" (|S| = 6, window
    # "hugo publie les misérables en 1862") and "Misérables en 1862" (|S| = 7, window
    # "victor hugo publie les" + itself) both score 3 log 2, both 2 tokens from a question
    # word outside them (misérables; publie): the shorter one wins
    assert predict(HUGO, "En quelle année Victor Hugo publie-t-il Les Misérables ?") == "1862"


def test_each_question_on_one_context_gets_its_own_span():
    # "330": window "tour eiffel mesure 330 mètres" = log 2 + log 1.5 + 2 log 2 (eiffel is
    # seen twice); "1889": window "l exposition universelle de 1889" = 2 log 2, tied with
    # "Eiffel" (window "eiffel pour l exposition universelle"), which is 3 tokens away, not 2
    assert predict(EIFFEL, "Combien de mètres mesure la tour Eiffel ?") == "330"
    assert predict(EIFFEL, "En quelle année a eu lieu l'Exposition universelle ?") == "1889"


def test_a_span_made_only_of_question_words_is_never_chosen():
    # every candidate is "Paris", which the question holds: there is nothing to answer
    assert predict("Paris. Paris.", "Paris ?") == ""


def test_spans_stay_inside_a_sentence_and_within_max_tokens():
    context = "Alpha beta gamma. Delta epsilon zeta eta theta iota."

    passage = lexical.Passage(context, max_tokens=3)

    texts = {passage.text(candidate) for candidate in passage.candidates}
    assert "gamma. Delta" not in texts  # crosses the full stop
    assert "Delta epsilon zeta" in texts
    assert "Delta epsilon zeta eta" not in texts  # four tokens
    assert all(len(text.split()) <= 3 for text in texts)


def test_spans_neither_start_nor_end_with_a_stop_word():
    passage = lexical.Passage("Le roi de France entre dans la ville.")

    texts = {passage.text(candidate) for candidate in passage.candidates}
    assert "roi de France" in texts
    assert not {"Le roi", "roi de", "de France", "dans la ville"} & texts


def test_an_empty_context_gives_an_empty_answer():
    assert predict("", "Qui ?") == ""
    assert predict("… !", "Qui ?") == ""


def test_predict_all_maps_ids_and_analyses_a_shared_context_once(monkeypatch):
    analysed = []
    original = lexical.Passage.__init__

    def counting_init(self, context, max_tokens=lexical.MAX_TOKENS):
        analysed.append(context)
        original(self, context, max_tokens)

    monkeypatch.setattr(lexical.Passage, "__init__", counting_init)
    examples = [
        {"id": "a", "context": EIFFEL, "question": "Combien de mètres mesure la tour Eiffel ?"},
        {
            "id": "b",
            "context": EIFFEL,
            "question": "En quelle année a eu lieu l'Exposition universelle ?",
        },
        {"id": "c", "context": LOIRE, "question": "Dans quel océan se jette la Loire ?"},
    ]

    predictions = predict_all(examples)

    assert predictions == {"a": "330", "b": "1889", "c": "Atlantique"}
    assert analysed == [EIFFEL, LOIRE]


def load_piaf() -> tuple[list[dict], dict[str, list[str]]]:
    require_file(PIAF_PATH)
    examples, answers = [], {}
    for article in json.loads(PIAF_PATH.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for question in paragraph["qas"]:
                examples.append(
                    {
                        "id": question["id"],
                        "context": paragraph["context"],
                        "question": question["question"],
                    }
                )
                answers[question["id"]] = [answer["text"] for answer in question["answers"]]
    return examples, answers


def test_piaf_predictions_are_substrings_and_score_above_zero():
    examples, answers = load_piaf()

    started = time.perf_counter()
    predictions = predict_all(examples)
    seconds = time.perf_counter() - started

    assert predictions.keys() == answers.keys()
    assert all(predictions[ex["id"]] in ex["context"] for ex in examples)
    result = score(answers, predictions, FQUAD_FR)
    print(
        f"\nsliding window on PIAF v1.0: EM {result['exact_match']:.2f}, F1 {result['f1']:.2f} "
        f"over {result['total']} questions in {seconds:.1f} s"
    )
    assert result["exact_match"] > 0
    assert result["f1"] > 0
    assert seconds < 60
