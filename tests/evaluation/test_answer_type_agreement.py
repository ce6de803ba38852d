"""Answer types agree with PIAF answers labelled by hand in their paragraph (issues 16 and 25).

Five samples, labels and how they were made in tests/data/answer_types/README.md:
`piaf_200` (seed 16, issue 16's rules were written looking at it), `piaf_tune_150` (seed 7,
the 200 left out, labelled before the tagger was run on it; issue 25's rules were written
looking at it), `piaf_check_100` (seed 19, neither of those; labelled after issue 25's
first rules were frozen, measured on them once, then looked at too), `piaf_holdout_150`
(seed 2611, labelled by another engineer, measured once on the frozen rules of issue 25's
first round, then looked at by its second round: docs/answer-types.md has every figure), and
`piaf_holdout2_150` (seed 4242, labelled by another engineer, measured once on the second
round's frozen rules, 86.0 %, then looked at by the third round).
The hold-out's draw is checked by test_answer_type_holdout.py: it was drawn by shuffling,
not as the tuning sample was, so it shares 6 answers with `piaf_tune_150` (3) and
`piaf_check_100` (3), with the same labels on both sides (`SHARED`). The pipeline types each
answer inside its paragraph
(evaluation.services.analysis.answer_types.answer_types, fr_core_news_md); the test asserts at least 90 %
agreement on each sample and prints, per category, the answers that agree, the labelled and
the predicted counts, with Cohen's κ (run with -s to read it).
"""

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from evaluation.agreement import cohen_kappa
from evaluation.services.analysis.answer_types import (
    SPACY_MODEL,
    AnswerType,
    answer_types,
    load_french,
)
from tests.needs import PIAF, require_file

DATA = Path(__file__).resolve().parents[1] / "data" / "answer_types"
SAMPLES = {
    "piaf_200": {
        "common_noun": 59,
        "verb": 29,
        "person": 27,
        "place": 21,
        "number": 19,
        "date": 18,
        "other_entity": 17,
        "adjective": 7,
        "other": 3,
    },
    "piaf_tune_150": {
        "common_noun": 52,
        "verb": 27,
        "person": 16,
        "place": 15,
        "number": 15,
        "other_entity": 14,
        "date": 9,
        "adjective": 1,
        "other": 1,
    },
    "piaf_check_100": {
        "common_noun": 24,
        "verb": 18,
        "other_entity": 16,
        "person": 12,
        "number": 11,
        "place": 11,
        "date": 5,
        "adjective": 2,
        "other": 1,
    },
    "piaf_holdout_150": {
        "common_noun": 48,
        "verb": 24,
        "person": 19,
        "other_entity": 14,
        "date": 13,
        "place": 12,
        "number": 11,
        "adjective": 7,
        "other": 2,
    },
    "piaf_holdout2_150": {
        "common_noun": 51,
        "other_entity": 18,
        "verb": 17,
        "person": 15,
        "place": 14,
        "number": 12,
        "adjective": 12,
        "date": 10,
        "other": 1,
    },
    # spent since the lead scored it once (130 / 150 with round 3); round 4 read its misses
    "piaf_holdout3_150": {
        "common_noun": 41,
        "person": 22,
        "verb": 20,
        "place": 16,
        "date": 13,
        "number": 13,
        "other_entity": 13,
        "adjective": 10,
        "other": 2,
    },
    # drawn (seed 6262) and labelled by two people apart while round 4 changed the rules, then
    # scored once: 143 / 150 (the second labelling: 142 / 150)
    "piaf_holdout4_150": {
        "common_noun": 40,
        "verb": 29,
        "number": 23,
        "other_entity": 14,
        "person": 13,
        "place": 13,
        "date": 10,
        "adjective": 8,
    },
    "piaf_holdout4_150_second": {
        "common_noun": 39,
        "verb": 29,
        "number": 23,
        "other_entity": 14,
        "person": 13,
        "place": 13,
        "date": 10,
        "adjective": 8,
        "other": 1,
    },
}
# Answers of the hold-out that another sample holds too (test_answer_type_holdout.py's draw
# excludes the seed-7 draw of draw_holdout.py, a shuffle, not piaf_tune_150's sorted sample).
SHARED = {
    "piaf_tune_150": {"p140295203426168", "p140295223219832", "p140295223287384"},
    "piaf_check_100": {"p140295203010384", "p140295218981480", "p140295442513784"},
}
# Each later sample is drawn, with its seed, from the questions of no earlier sample.
DRAWS = [("piaf_tune_150", 7, ["piaf_200"]), ("piaf_check_100", 19, ["piaf_200", "piaf_tune_150"])]


def piaf_questions() -> list[tuple[str, str]]:
    """Return (question id, paragraph) of every PIAF v1.0 question, in file order."""
    data = json.loads(require_file(PIAF).read_text(encoding="utf-8"))["data"]
    return [
        (question["id"], paragraph["context"])
        for article in data
        for paragraph in article["paragraphs"]
        for question in paragraph["qas"]
    ]


def load_labelled(sample: str) -> tuple[list[dict], list[tuple[str, int, str]]]:
    """Return the sample's labelled rows and their (paragraph, answer_start, answer) items."""
    path = DATA / f"{sample}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    contexts = dict(piaf_questions())
    items = [(contexts[row["id"]], row["answer_start"], row["answer"]) for row in rows]
    return rows, items


def agreement_table(labels: list[str], predicted: list[AnswerType]) -> dict[str, tuple]:
    """Return {category: (agreeing, labelled, predicted)} over the nine categories."""
    labelled = Counter(labels)
    given = Counter(kind.value for kind in predicted)
    agreeing = Counter(
        label for label, kind in zip(labels, predicted, strict=True) if label == kind
    )
    return {
        kind.value: (agreeing[kind.value], labelled[kind.value], given[kind.value])
        for kind in AnswerType
    }


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_sample_is_the_documented_one(sample):
    rows, items = load_labelled(sample)

    size = sum(SAMPLES[sample].values())
    assert len(rows) == size
    assert len({row["id"] for row in rows}) == size
    assert all(context[s : s + len(text)] == text for context, s, text in items)
    assert Counter(row["label"] for row in rows) == SAMPLES[sample]


@pytest.mark.parametrize(("sample", "seed", "earlier"), DRAWS)
def test_a_later_sample_is_the_seeded_draw_outside_the_earlier(sample, seed, earlier):
    questions = piaf_questions()
    taken = {row["id"] for name in earlier for row in load_labelled(name)[0]}
    rows, _items = load_labelled(sample)

    candidates = [index for index, (qid, _context) in enumerate(questions) if qid not in taken]
    drawn = sorted(random.Random(seed).sample(candidates, len(rows)))  # noqa: S311 (a sample)

    assert len(questions) == 3835
    assert [row["id"] for row in rows] == [questions[index][0] for index in drawn]
    assert not taken & {row["id"] for row in rows}


@pytest.mark.parametrize("sample", SAMPLES)
@pytest.mark.parametrize("model", [SPACY_MODEL])
def test_the_pipeline_agrees_with_the_hand_labels(model, sample):
    rows, items = load_labelled(sample)
    labels = [row["label"] for row in rows]

    predicted = answer_types(items, nlp=load_french(model))

    table = agreement_table(labels, predicted)
    agreeing = sum(n for n, _labelled, _given in table.values())
    kappa = cohen_kappa(labels, [kind.value for kind in predicted])
    share = 100 * agreeing / len(rows)
    print(f"\n{model} on {sample}: {agreeing}/{len(rows)} agree ({share:.1f} %), κ {kappa:.3f}")
    print(f"  {'label':<13} agree/labelled  share  predicted")
    for kind, (n, total, given) in table.items():
        cell = f"{100 * n / total:5.1f} %" if total else "    -  "
        print(f"  {kind:<13} {n:>5}/{total:<3}   {cell}  {given:>5}")
    assert agreeing / len(rows) >= 0.90


@pytest.mark.parametrize("other", ["piaf_200", "piaf_tune_150", "piaf_check_100"])
def test_the_holdout_shares_six_answers_labelled_alike(other):
    holdout = {row["id"]: row for row in load_labelled("piaf_holdout_150")[0]}
    rows = {row["id"]: row for row in load_labelled(other)[0]}

    shared = set(holdout) & set(rows)

    assert shared == SHARED.get(other, set())
    assert all(holdout[qid]["label"] == rows[qid]["label"] for qid in shared)
    assert all(holdout[qid]["answer"] == rows[qid]["answer"] for qid in shared)


def test_the_agreement_table_counts_per_category():
    labels = ["date", "date", "verb", "other"]
    predicted = [AnswerType.DATE, AnswerType.NUMBER, AnswerType.VERB, AnswerType.VERB]

    table = agreement_table(labels, predicted)

    assert table["date"] == (1, 2, 1)
    assert table["verb"] == (1, 1, 2)
    assert table["number"] == (0, 0, 1)
    assert table["other"] == (0, 1, 0)
    assert table["person"] == (0, 0, 0)


# Scored once, with round 4 (issue 25, item 19): 268 / 300 and 266 / 300, below the 90 % asked,
# so not in SAMPLES (whose test asserts 90 %); its exact figures are asserted here, as round 5
# types it (four answers made right by rules written on it and another sample: docs, "Round 5").
HOLDOUT5 = {
    "piaf_holdout5_300": (
        {
            "common_noun": 98,
            "person": 39,
            "number": 37,
            "place": 32,
            "verb": 29,
            "date": 26,
            "other_entity": 25,
            "adjective": 9,
            "other": 5,
        },
        272,
        0.887,
    ),
    "piaf_holdout5_300_second": (
        {
            "common_noun": 97,
            "person": 39,
            "number": 39,
            "place": 32,
            "verb": 29,
            "date": 26,
            "other_entity": 25,
            "adjective": 9,
            "other": 4,
        },
        270,
        0.878,
    ),
    # scored once, with round 5 (270 / 300): with round 5's leave-one-out on holdout2–5
    # (670 / 750), 940 / 1,050 = 89.5 %, under the 90 % decided in advance
    "piaf_holdout6_300": (
        {
            "common_noun": 98,
            "verb": 53,
            "number": 31,
            "other_entity": 30,
            "person": 30,
            "date": 23,
            "place": 21,
            "adjective": 14,
        },
        270,
        0.877,
    ),
    "piaf_holdout6_300_second": (
        {
            "common_noun": 98,
            "verb": 53,
            "number": 32,
            "person": 31,
            "other_entity": 27,
            "date": 24,
            "place": 21,
            "adjective": 14,
        },
        269,
        0.873,
    ),
}


@pytest.mark.parametrize("sample", HOLDOUT5)
def test_the_fifth_and_sixth_holdouts_score_what_the_docs_say(sample):
    counts, agreeing, kappa = HOLDOUT5[sample]
    rows, items = load_labelled(sample)
    labels = [row["label"] for row in rows]

    predicted = answer_types(items, nlp=load_french(SPACY_MODEL))

    assert Counter(labels) == counts
    assert all(context[s : s + len(text)] == text for context, s, text in items)
    assert sum(label == kind for label, kind in zip(labels, predicted, strict=True)) == agreeing
    assert round(cohen_kappa(labels, [kind.value for kind in predicted]), 3) == kappa
