"""squad-en equals the official SQuAD v1.1 algorithm, to the last bit; French cases by hand.

The reference is ``evaluation.official_squad_v11``, a plain transcription of the official
``evaluate-v1.1.py``. Every comparison is exact (``==`` on floats, no tolerance): the platform's
English figures must be the official script's, digit for digit. Hand-computed values use p and t
for the numbers of predicted and true tokens, c for the tokens they share (a multiset), P = c/p,
R = c/t and F1 = 2PR / (P + R).
"""

import contextlib
import io
import json
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation import official_squad_v11 as official
from evaluation.metrics import FQUAD_FR, SQUAD_EN, best_over, exact_match, f1, score
from tests.needs import PIAF, require_file

PIAF_PATH = PIAF


def piaf_data() -> list[dict]:
    """Return PIAF v1.0's "data" list; fail in CI, skip elsewhere when the file is missing."""
    require_file(PIAF_PATH)
    return json.loads(PIAF_PATH.read_text(encoding="utf-8"))["data"]


def truths_of(data: list[dict]) -> dict[str, list[str]]:
    """Return {id: [answer texts]} of a SQuAD "data" list, in file order."""
    return {
        qa["id"]: [answer["text"] for answer in qa["answers"]]
        for article in data
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    }


def official_evaluate(data: list[dict], predictions: dict[str, str]) -> tuple[dict, list[str]]:
    """Return the official result and the lines it printed on stderr."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        result = official.evaluate(data, predictions)
    return result, stderr.getvalue().splitlines()


def assert_same_scores(data: list[dict], predictions: dict[str, str]) -> dict:
    """Score both ways and check both keys are equal floats, each question's too; return ours.

    Per question as well, since a last-bit difference in one question's F1 is lost in the sum.
    """
    truths = truths_of(data)
    for question_id, prediction in predictions.items():
        if question_id in truths:
            answers = truths[question_id]
            assert best_over(f1, prediction, answers) == official.metric_max_over_ground_truths(
                official.f1_score, prediction, answers
            )
            assert best_over(
                exact_match, prediction, answers
            ) == official.metric_max_over_ground_truths(
                official.exact_match_score, prediction, answers
            )
    ours = score(truths, predictions, SQUAD_EN)
    expected, unanswered = official_evaluate(data, predictions)
    assert ours["exact_match"] == expected["exact_match"]
    assert ours["f1"] == expected["f1"]
    assert ours["missing"] == len(unanswered)
    return ours


# Text that exercises every step of the official normalization: the articles in every case and
# glued to letters, digits, underscores, accents and punctuation (\b is Unicode-aware); ASCII and
# Unicode punctuation (only ASCII is removed); characters whose lower-case form differs in length
# or depends on context (İ, Σ); every kind of whitespace str.split knows.
PIECES = [
    "a", "A", "an", "An", "AN", "the", "The", "THE", "thE", "a.", "the-", "-the", "an'",
    "l'", "L’", "le", "cat", "Cat", "theory", "another", "ate", "Pays-Bas", "empereur",
    "é", "_", "3", "İ", "ΣΑΣ", "ß", "東京", "タワー", "«", "»", "’", "—", "…",
    *string.punctuation,
]  # fmt: skip
SPACES = ["", " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u2003", "\u3000", "\x1c", "\x85"]
WORDS = ["cat", "Cat.", "dog", "the", "a", "Paris", "1789", "l'empereur", "Pays-Bas", "東京"]
texts = st.one_of(
    st.text(max_size=40),
    # answers of up to 40 words from a small vocabulary: many shared tokens, varied counts
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.text(alphabet=string.printable + "éÉàΣİß’«» \u00a0", max_size=40),
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SPACES)), max_size=10).map(
        lambda parts: "".join(piece + space for piece, space in parts)
    ),
)


@settings(max_examples=500)
@given(texts)
def test_squad_en_normalizes_like_normalize_answer(text):
    assert SQUAD_EN.normalize(text) == official.normalize_answer(text)
    assert SQUAD_EN.tokens(text) == official.normalize_answer(text).split()


@settings(max_examples=500)
@given(texts, texts)
def test_squad_en_em_and_f1_equal_the_official_scores(prediction, truth):
    # == on floats: equal to the last bit (the official F1 is the int 0 without a shared token)
    assert f1(prediction, truth, SQUAD_EN) == official.f1_score(prediction, truth)
    assert exact_match(prediction, truth, SQUAD_EN) == official.exact_match_score(prediction, truth)


def test_f1_arithmetic_equals_the_official_for_every_small_count():
    # c shared tokens, p predicted, t true: the official 2PR / (P + R) differs from the
    # algebraically equal 2c / (p + t) in the last bit for many triples (c=1, p=1, t=5 first),
    # so every triple up to 24 tokens is checked exactly
    for predicted in range(1, 25):
        for true in range(1, 25):
            for common in range(min(predicted, true) + 1):
                shared = [f"w{i}" for i in range(common)]
                prediction = " ".join(shared + [f"p{i}" for i in range(predicted - common)])
                truth = " ".join(shared + [f"t{i}" for i in range(true - common)])
                ours = f1(prediction, truth, SQUAD_EN)
                assert ours == official.f1_score(prediction, truth), (common, predicted, true)


@given(texts, st.lists(texts, min_size=1, max_size=4))
def test_best_over_equals_metric_max_over_ground_truths(prediction, truths):
    assert best_over(f1, prediction, truths, SQUAD_EN) == official.metric_max_over_ground_truths(
        official.f1_score, prediction, truths
    )
    assert best_over(
        exact_match, prediction, truths, SQUAD_EN
    ) == official.metric_max_over_ground_truths(official.exact_match_score, prediction, truths)


@st.composite
def squad_cases(draw):
    """A small SQuAD "data" list (1–3 answers a question) and predictions, some missing."""
    sizes = draw(st.lists(st.lists(st.integers(1, 3), max_size=4), min_size=1, max_size=3))
    if not any(sizes):
        sizes[0].append(1)
    data, predictions, number = [], {}, 0
    for article, paragraphs in enumerate(sizes):
        qas = []
        for question_count in paragraphs:
            for _ in range(question_count):
                number += 1
                question_id = f"q{number}"
                truths = draw(st.lists(texts, min_size=1, max_size=3))
                qas.append({"id": question_id, "answers": [{"text": t} for t in truths]})
                if draw(st.booleans()) or draw(st.booleans()):  # 3 in 4 answered
                    predictions[question_id] = draw(st.sampled_from([*truths, draw(texts)]))
        data.append({"title": f"article {article}", "paragraphs": [{"qas": qas}]})
    predictions.update(draw(st.dictionaries(st.just("not-in-dataset"), texts, max_size=1)))
    return data, predictions


@settings(max_examples=200)
@given(squad_cases())
def test_score_equals_the_official_evaluate(case):
    data, predictions = case
    assert_same_scores(data, predictions)


# Whole PIAF v1.0 file


def perturb(index: int, answer: str, context: str) -> str | None:
    """A deterministic prediction made from the answer (None: no prediction)."""
    words = answer.split()
    start = context.find(answer)
    after = context[start + len(answer) :].split()[:1] if start >= 0 else []
    kinds = [
        answer,  # exact
        answer.upper(),  # case changed
        f"the {answer}",  # an English article added
        " ".join(words[:-1]),  # a word removed (empty for one-word answers)
        " ".join([answer, *after]),  # the next word of the context added
        f"{answer}.",  # punctuation added
        f"« {answer} »",  # French quotes: not ASCII punctuation, extra tokens
        " ".join(reversed(words)),  # same tokens, other order: F1 1, EM 0 unless one word
        "The",  # normalizes to ""
        None,  # no prediction
        f"L'{answer}",  # elided article glued on in English mode
    ]
    return kinds[index % len(kinds)]


def piaf_predictions(data: list[dict]) -> dict[str, str]:
    predictions = {}
    qas = [(qa, p["context"]) for a in data for p in a["paragraphs"] for qa in p["qas"]]
    for index, (qa, context) in enumerate(qas):
        prediction = perturb(index, qa["answers"][0]["text"], context)
        if prediction is not None:
            predictions[qa["id"]] = prediction
    return predictions


def test_piaf_with_perturbed_predictions_equals_the_official_evaluate():
    data = piaf_data()
    predictions = piaf_predictions(data)
    ours = assert_same_scores(data, predictions)
    # 3,835 questions; indices 9 + 11k (k = 0…347, the last 3,826) have no prediction: 348
    assert (ours["total"], ours["missing"]) == (3835, 348)
    assert 0 < ours["exact_match"] < ours["f1"] < 100


def test_piaf_with_three_answers_a_question_equals_the_official_evaluate():
    # Dev/test style: the PIAF answer, then the answer extended by a word, then cut by one
    data = piaf_data()
    for article in data:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                text = qa["answers"][0]["text"]
                words = text.split()
                extra = [f"{text} {article['title']}", " ".join(words[1:]) or f"an {text}"]
                qa["answers"] = qa["answers"] + [{"text": t} for t in extra]
    predictions = piaf_predictions(data)
    assert_same_scores(data, predictions)


# The transcription itself, on the official script's documented behaviour


def test_the_transcription_reports_unanswered_questions_and_ignores_extra_ones(capsys):
    data = [{"paragraphs": [{"qas": [{"id": "q1", "answers": [{"text": "the cat"}]}]}]}]
    data[0]["paragraphs"].append({"qas": [{"id": "q2", "answers": [{"text": "dog"}]}]})
    # q1: "cat" = "cat" → EM 1, F1 1; q2 unanswered → 0; "zz" ignored
    assert official.evaluate(data, {"q1": "A cat.", "zz": "x"}) == {
        "exact_match": 50.0,
        "f1": 50.0,
    }
    assert capsys.readouterr().err == "Unanswered question q2 will receive score 0.\n"
    assert official.f1_score("the", "a") == 0  # the int 0: no common token, even both empty
    assert official.exact_match_score("the", "a") is True


# French: the same pairs in French mode (by hand) and in English mode (= official)


@pytest.mark.parametrize(
    ("prediction", "truth", "fr", "en"),
    [
        # fr: both → "empereur": EM 1, F1 1
        # en: "lempereur" vs "empereur": no common token → EM 0, F1 0
        ("l'empereur", "empereur", (1.0, 1.0), (0.0, 0.0)),
        # fr: ’ folded to ', "l'" dropped: both "empereur" → EM 1, F1 1
        # en: ’ is not ASCII punctuation: "l’empereur" vs "lempereur" → EM 0, F1 0
        ("L’empereur", "L'empereur", (1.0, 1.0), (0.0, 0.0)),
        # fr: [14, juillet, 1789] vs [14, juillet]: c=2, p=3, t=2 → P=2/3, R=1,
        #     F1 = (4/3)/(5/3) = 0.8
        # en: [le, 14, juillet, 1789] vs [14, juillet]: c=2, p=4, t=2 → P=1/2, R=1,
        #     F1 = 1/(3/2) = 2/3
        ("Le 14 juillet 1789", "14 juillet", (0.0, 0.8), (0.0, 2 / 3)),
        # fr: "aux" and "les" dropped, hyphen removed: both "paysbas" → EM 1, F1 1
        # en: [aux, paysbas] vs [les, paysbas]: c=1, p=t=2 → P=R=1/2, F1 = 1/2
        ("aux Pays-Bas", "les Pays-Bas", (1.0, 1.0), (0.0, 0.5)),
        # fr: [paysbas] vs [royaume, paysbas]: c=1, p=1, t=2 → P=1, R=1/2, F1 = 2/3
        # en: [aux, paysbas] vs [royaume, des, paysbas]: c=1, p=2, t=3 → P=1/2, R=1/3,
        #     F1 = (1/3)/(5/6) = 0.4
        ("aux Pays-Bas", "royaume des Pays-Bas", (0.0, 2 / 3), (0.0, 0.4)),
    ],
)
def test_french_pairs_in_both_modes(prediction, truth, fr, en):
    assert (exact_match(prediction, truth, FQUAD_FR), f1(prediction, truth, FQUAD_FR)) == (
        pytest.approx(fr, rel=1e-12, abs=0)
    )
    ours_en = (exact_match(prediction, truth, SQUAD_EN), f1(prediction, truth, SQUAD_EN))
    assert ours_en == pytest.approx(en, rel=1e-12, abs=0)
    assert ours_en == (
        official.exact_match_score(prediction, truth),
        official.f1_score(prediction, truth),
    )


def test_a_french_dataset_scored_both_ways():
    data = [
        {
            "paragraphs": [
                {
                    "qas": [
                        {"id": "1", "answers": [{"text": "l'empereur"}, {"text": "Napoléon"}]},
                        {"id": "2", "answers": [{"text": "Le 14 juillet 1789"}]},
                        {"id": "3", "answers": [{"text": "aux Pays-Bas"}]},
                    ]
                }
            ]
        }
    ]
    predictions = {"1": "L’empereur", "2": "14 juillet"}
    # fr: 1 → "empereur" = "empereur": EM 1, F1 1
    #     2 → [14, juillet] vs [14, juillet, 1789]: c=2, p=2, t=3 → P=1, R=2/3, F1 0.8
    #     3 → no prediction: 0
    #     EM = 100·1/3, F1 = 100·1.8/3 = 60
    fr = score(truths_of(data), predictions, FQUAD_FR)
    assert fr["exact_match"] == pytest.approx(100 / 3, rel=1e-12, abs=0)
    assert fr["f1"] == pytest.approx(60.0, rel=1e-12, abs=0)
    # en: 1 → "l’empereur" vs "lempereur", "napoléon": EM 0, F1 0
    #     2 → [14, juillet] vs [le, 14, juillet, 1789]: c=2, p=2, t=4 → P=1, R=1/2, F1 2/3
    #     EM 0, F1 = 100·(2/3)/3 = 200/9; equal to the official evaluate
    en = assert_same_scores(data, predictions)
    assert en["exact_match"] == 0.0
    assert en["f1"] == pytest.approx(200 / 9, rel=1e-12, abs=0)


# SQuAD v2.0: score_v2 (squad-en) equals the official v2.0 algorithm, every key, to the last bit

from evaluation import official_squad_v20 as official_v2  # noqa: E402
from evaluation.metrics import score_v2  # noqa: E402

NO_ANSWERS = ["", " ", "the", "A.", "?"]  # empty, or nothing once normalized
probabilities = st.one_of(
    st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0, 0, 1]),  # ties, and JSON's ints
    st.floats(0.0, 1.0),
)


@st.composite
def squad_v2_cases(draw):
    """A SQuAD v2.0 "data" list (0–3 answers a question), every question predicted, and
    maybe na_probs (every question, perhaps one outside the dataset) and a threshold."""
    sizes = draw(st.lists(st.lists(st.integers(1, 3), max_size=4), min_size=1, max_size=3))
    if not any(sizes):
        sizes[0].append(1)
    data, predictions, number = [], {}, 0
    for article, paragraphs in enumerate(sizes):
        qas = []
        for question_count in paragraphs:
            for _ in range(question_count):
                number += 1
                question_id = f"q{number}"
                truths = draw(st.lists(texts, max_size=3))  # [] = unanswerable
                qas.append({"id": question_id, "answers": [{"text": t} for t in truths]})
                choices = [*truths, draw(st.sampled_from(NO_ANSWERS)), draw(texts)]
                predictions[question_id] = draw(st.sampled_from(choices))
        data.append({"title": f"article {article}", "paragraphs": [{"qas": qas}]})
    na_probs = None
    if draw(st.booleans()):
        na_probs = {question_id: draw(probabilities) for question_id in predictions}
        na_probs.update(draw(st.dictionaries(st.just("not-in-dataset"), probabilities)))
        keys = draw(st.permutations(list(na_probs)))  # the file's order decides ties
        na_probs = {key: na_probs[key] for key in keys}
    thresh = draw(st.one_of(st.just(1.0), probabilities, st.just(-0.5)))
    return data, predictions, na_probs, thresh


def official_v2_evaluate(data, predictions, na_probs, thresh) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return official_v2.evaluate(data, predictions, na_probs, thresh)


@settings(max_examples=500)
@given(squad_v2_cases())
def test_score_v2_equals_the_official_v2_evaluate(case):
    data, predictions, na_probs, thresh = case
    expected = official_v2_evaluate(data, predictions, na_probs, thresh)
    ours = score_v2(truths_of(data), predictions, na_probs, SQUAD_EN, thresh)
    assert ours.pop("missing") == 0
    assert list(ours) == list(expected)  # the same keys, in the official order
    for key, value in expected.items():
        assert ours[key] == value, key  # == on floats: to the last bit


@settings(max_examples=300)
@given(texts, st.lists(texts, max_size=3), texts)
def test_v2_per_question_scores_equal_compute_exact_and_compute_f1(prediction, truths, other):
    # one question through the whole algorithm: its EM and F1 (0 or 100 × the official max)
    data = [{"paragraphs": [{"qas": [{"id": "q", "answers": [{"text": t} for t in truths]}]}]}]
    gold = [t for t in truths if official_v2.normalize_answer(t)] or [""]
    ours = score_v2({"q": truths}, {"q": prediction})
    assert ours["exact"] == 100.0 * max(official_v2.compute_exact(a, prediction) for a in gold)
    assert ours["f1"] == 100.0 * max(official_v2.compute_f1(a, prediction) for a in gold)
    assert ours == {**official_v2_evaluate(data, {"q": prediction}, None, 1.0), "missing": 0}


def test_the_v2_transcription_on_the_documented_behaviour(capsys):
    # compute_f1: an empty side → int(both empty); both "the" → 1 (v1.1's f1_score gave 0)
    assert official_v2.compute_f1("the", "a") == 1
    assert official_v2.compute_f1("", "cat") == 0
    # a missing prediction is reported and left out of the total (3 scored: 2 right)
    data = [{"paragraphs": [{"qas": [{"id": i, "answers": []} for i in "abcd"]}]}]
    with pytest.raises(KeyError):  # then the NoAns group fails on the missing id
        official_v2.evaluate(data, {"a": "", "b": "", "c": "x"})
    assert capsys.readouterr().out == "Missing prediction for d\n"


def test_a_piaf_based_v2_dataset_equals_the_official_v2_evaluate():
    # PIAF with every 4th question made unanswerable; predictions perturbed, every 3rd ""
    data = piaf_data()
    na_probs, predictions, index = {}, {}, 0
    for article in data:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]["text"]
                if index % 4 == 0:
                    qa["answers"] = []
                prediction = perturb(index, answer, paragraph["context"])
                predictions[qa["id"]] = "" if prediction is None or index % 3 == 0 else prediction
                na_probs[qa["id"]] = (index * 7919 % 1000) / 1000
                index += 1
    expected = official_v2_evaluate(data, predictions, na_probs, 0.9)
    ours = score_v2(truths_of(data), predictions, na_probs, SQUAD_EN, 0.9)
    assert ours.pop("missing") == 0
    assert ours == expected
    assert (ours["total"], ours["NoAns_total"]) == (3835, 959)  # ceil(3835 / 4)
