"""The platform's figures equal what the official scripts printed, to every digit; the rest by hand.

The reference is ../shared/data/official-scores/: the JSON printed by the official evaluation
scripts, run unmodified on files of ../shared/data/ (see its README and
tests/evaluation/official_scores.py, which maps each output to a platform mode). Every
comparison is exact (``==`` on floats, no tolerance) over every key the script printed.

Every output of every file is asserted since issue 27: SQuAD v1.1 and v2.0, MLQA's seven
answer languages, KorQuAD v1.0's character F1 (all 13 files) and M2QA's jieba F1 (zh).
``official_scores.NOT_YET`` would list, with why, an output that a new file brings first.

Hand-computed values use p and t for the numbers of predicted and true tokens, c for the tokens
they share (a multiset), P = c/p, R = c/t and F1 = 2PR / (P + R).
"""

import string
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluation.metrics import FQUAD_FR, M2QA_ZH, SQUAD_EN, exact_match, f1, score, score_v2
from tests.evaluation import official_scores
from tests.evaluation.official_scores import MODES, NOT_YET, OFFICIAL_SCORES
from tests.needs import require_file

DOCS_METRICS = Path(__file__).resolve().parents[2] / "docs" / "metrics.md"


def official_cases() -> list:
    """(file, output) for every output of every file that a platform mode must reproduce."""
    cases = [
        pytest.param(path.name, output, id=f"{path.name}:{output}")
        for path in official_scores.files()
        for output in official_scores.outputs_of(path)
        if output in MODES
    ]
    # The folder missing: one case, which fails in CI and skips elsewhere, saying so
    return cases or [pytest.param(None, None, id="official-scores-missing")]


def require_official_scores() -> None:
    require_file(OFFICIAL_SCORES / "piaf-v1.1.json", "the official scripts' printed figures")


@pytest.mark.parametrize(("name", "output"), official_cases())
def test_the_platform_prints_the_official_figures(name, output):
    require_official_scores()
    official = official_scores.load(name)
    expected = official.outputs[output]
    ours = MODES[output](official)
    # every prediction is for a question of the dataset: none missing
    assert ours["missing"] == 0
    # the official keys first, in the official order, then only ours ("total", "missing")
    assert list(ours)[: len(expected)] == list(expected)
    for key, value in expected.items():
        assert ours[key] == value, key  # == on floats: every digit


def test_every_official_output_is_asserted_or_listed_as_not_yet():
    require_official_scores()
    assert not set(MODES) & set(NOT_YET)
    held = {
        output for path in official_scores.files() for output in official_scores.outputs_of(path)
    }
    assert held == set(MODES) | set(NOT_YET)


def test_the_docs_list_the_outputs_not_asserted_yet():
    docs = DOCS_METRICS.read_text(encoding="utf-8")
    for output in NOT_YET:
        assert f"`{output}`" in docs, output


KORQUAD = "KorQuAD evaluate-v1.0.py (character F1)"
M2QA = "M2QA word-tokenized F1 (SQuAD v2.0 normalization, jieba 0.42.1 words)"


def test_every_output_is_asserted_none_is_left_for_later():
    assert NOT_YET == {}


def test_the_m2qa_figures_are_also_score_v2s():
    # M2QA's script is SQuAD v2.0's: its figures are score_v2's exact and f1 as well
    require_official_scores()
    official = official_scores.load("xquad.zh.json")
    expected = official.outputs[M2QA]
    ours = score_v2(official.truths, official.predictions, None, M2QA_ZH)
    assert (ours["exact"], ours["f1"]) == (expected["exact_match"], expected["f1"])


def test_the_asserted_files_and_outputs():
    # what the parametrized test covers, so that a file dropped from the folder is noticed
    require_official_scores()
    covered = sorted(
        (path.name, output)
        for path in official_scores.files()
        for output in official_scores.outputs_of(path)
        if output in MODES
    )
    xquad = ["ar", "de", "el", "en", "es", "hi", "ro", "ru", "th", "tr", "vi", "zh"]
    assert covered == sorted(
        [
            ("piaf-v1.1.json", "SQuAD evaluate-v1.1.py"),
            ("piaf-v2.0.json", "SQuAD evaluate-v2.0.py"),
            ("piaf-v2.0.json", "SQuAD evaluate-v2.0.py --na-prob-file na_probs"),
            ("piaf-v1.1.json", KORQUAD),
            *(
                (f"xquad.{language}.json", f"mlqa_evaluation_v1.py, answer language {language}")
                for language in ["ar", "de", "en", "es", "hi", "vi", "zh"]
            ),
            ("xquad.zh.json", M2QA),
            *((f"xquad.{language}.json", "SQuAD evaluate-v1.1.py") for language in xquad),
            *((f"xquad.{language}.json", KORQUAD) for language in xquad),
        ]
    )


def test_the_v2_rule_makes_every_fourth_question_unanswerable():
    require_official_scores()
    official = official_scores.load("piaf-v2.0.json")
    # 3,835 questions: numbers 3, 7, …, 3,831 are unanswerable, 958 of them
    assert len(official.truths) == 3835
    assert sum(1 for answers in official.truths.values() if not answers) == 958
    assert [bool(answers) for answers in list(official.truths.values())[:8]] == [
        True, True, True, False, True, True, True, False,
    ]  # fmt: skip
    with pytest.raises(ValueError, match="unknown dataset_rule"):
        official_scores.v2_rule({}, "every third question is unanswerable")


# squad-en's normalization, by hand: each step of the official recipe and its order (lower-case,
# delete ASCII punctuation, replace the words a, an, the by a space, collapse whitespace)


@pytest.mark.parametrize(
    ("text", "normalized"),
    [
        ("The Cat", "cat"),
        ("A cat.", "cat"),
        ("the-cat", "thecat"),  # punctuation goes first: the article is glued on and stays
        ("an'", ""),  # "an" once the apostrophe is gone, then dropped
        ("theory, another", "theory another"),  # whole words only
        ("THE the tHe", ""),
        ("the3 éthe", "the3 éthe"),  # digits and accented letters are word characters
        ("_the_", ""),  # the underscore is ASCII punctuation: deleted before the articles
        ("«the»", "« »"),  # « » are not ASCII punctuation; they end the word "the"
        ("l'empereur", "lempereur"),
        ("L’empereur", "l’empereur"),  # ’ is not ASCII punctuation
        ("ΣΑΣ", "σας"),  # Python's lower() knows the final sigma
        ("a\u00a0cat", "cat"),  # no-break space: a word boundary and whitespace to split
        ("a\x1cb\x85c\u3000d", "b c d"),  # every separator str.split knows
        ("東京 the タワー", "東京 タワー"),
        ("", ""),
    ],
)
def test_squad_en_normalization_by_hand(text, normalized):
    assert SQUAD_EN.normalize(text) == normalized
    assert SQUAD_EN.tokens(text) == normalized.split()


# F1's arithmetic: the official one (P, R, then 2PR / (P + R)), to the last binary digit


def official_arithmetic(common: int, predicted: int, true: int) -> float:
    precision = common / predicted
    recall = common / true
    return (2 * precision * recall) / (precision + recall)


def test_f1_arithmetic_for_every_small_count():
    # c shared tokens, p predicted, t true: 2PR / (P + R) differs from the algebraically equal
    # 2c / (p + t) in the last bit for many triples (c=1, p=1, t=5 first), so every triple up to
    # 24 tokens is checked exactly
    assert official_arithmetic(1, 1, 5) != 2 * 1 / (1 + 5)
    for predicted in range(1, 25):
        for true in range(1, 25):
            for common in range(min(predicted, true) + 1):
                shared = [f"w{i}" for i in range(common)]
                prediction = " ".join(shared + [f"p{i}" for i in range(predicted - common)])
                truth = " ".join(shared + [f"t{i}" for i in range(true - common)])
                expected = official_arithmetic(common, predicted, true) if common else 0.0
                assert f1(prediction, truth, SQUAD_EN) == expected, (common, predicted, true)


PIECES = [
    "a", "A", "an", "the", "The", "a.", "the-", "-the", "l'", "L’", "le", "cat", "Cat",
    "theory", "é", "_", "3", "İ", "ΣΑΣ", "東京", "«", "»", "’", "—", *string.punctuation,
]  # fmt: skip
SPACES = ["", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c"]
WORDS = ["cat", "Cat.", "dog", "the", "a", "Paris", "1789", "l'empereur", "Pays-Bas", "東京"]
texts = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SPACES)), max_size=10).map(
        lambda parts: "".join(piece + space for piece, space in parts)
    ),
)


# too_slow off: on a shared 2-core machine generating the texts can take over a second
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(texts, texts)
def test_f1_is_the_multiset_overlap_with_the_official_arithmetic(prediction, truth):
    # the counting (a multiset intersection) and the arithmetic, from the tokens
    predicted, expected = SQUAD_EN.tokens(prediction), SQUAD_EN.tokens(truth)
    common = sum((Counter(predicted) & Counter(expected)).values())
    value = official_arithmetic(common, len(predicted), len(expected)) if common else 0.0
    assert f1(prediction, truth, SQUAD_EN) == value
    assert exact_match(prediction, truth, SQUAD_EN) == float(predicted == expected)


# French: the same pairs in French mode and in English mode, by hand. No official-scores file
# holds FQuAD's figures (FQuAD's evaluation script is not public), so fquad-fr is asserted here
# and in test_metrics.py by hand only.


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


def test_a_french_dataset_scored_both_ways():
    truths = {"1": ["l'empereur", "Napoléon"], "2": ["Le 14 juillet 1789"], "3": ["aux Pays-Bas"]}
    predictions = {"1": "L’empereur", "2": "14 juillet"}
    # fr: 1 → "empereur" = "empereur": EM 1, F1 1
    #     2 → [14, juillet] vs [14, juillet, 1789]: c=2, p=2, t=3 → P=1, R=2/3, F1 0.8
    #     3 → no prediction: 0
    #     EM = 100·1/3, F1 = 100·1.8/3 = 60
    fr = score(truths, predictions, FQUAD_FR)
    assert fr["exact_match"] == pytest.approx(100 / 3, rel=1e-12, abs=0)
    assert fr["f1"] == pytest.approx(60.0, rel=1e-12, abs=0)
    assert (fr["total"], fr["missing"]) == (3, 1)
    # en: 1 → "l’empereur" vs "lempereur", "napoléon": EM 0, F1 0
    #     2 → [14, juillet] vs [le, 14, juillet, 1789]: c=2, p=2, t=4 → P=1, R=1/2, F1 2/3
    #     EM 0, F1 = 100·(2/3)/3 = 200/9
    en = score(truths, predictions, SQUAD_EN)
    assert en["exact_match"] == 0.0
    assert en["f1"] == pytest.approx(200 / 9, rel=1e-12, abs=0)
