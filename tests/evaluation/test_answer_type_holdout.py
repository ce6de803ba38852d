"""The hold-out samples of answer types (issue 25, item 19) are the documented draws, well formed.

tests/data/answer_types/piaf_holdout_150.jsonl: 150 PIAF v1.0 answers labelled by hand while
the tagger's rules were being changed without them (tests/data/answer_types/README.md). These
tests check the files' shape only; the tagger is not run here. Its agreement on the first was
measured once on the first round's frozen rules (85.3 %); since the second round of rules, which
was written looking at it, test_answer_type_agreement.py asserts it with the other samples. The
second hold-out, piaf_holdout2_150.jsonl (seed 4242), disjoint from all four labelled files
before it, was measured once on the second round's frozen rules (docs/answer-types.md).
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from evaluation.agreement import cohen_kappa
from evaluation.services.analysis.answer_types import AnswerType
from tests.data.answer_types import draw_holdout
from tests.needs import PIAF, require_file

DATA = Path(__file__).resolve().parents[1] / "data" / "answer_types"
HOLDOUT = DATA / "piaf_holdout_150.jsonl"
NINE = {
    "date",
    "number",
    "person",
    "place",
    "other_entity",
    "common_noun",
    "verb",
    "adjective",
    "other",
}


def holdout_rows() -> list[dict]:
    return [json.loads(line) for line in HOLDOUT.read_text(encoding="utf-8").splitlines()]


def test_the_holdout_has_150_rows_each_with_one_of_the_nine_labels():
    rows = holdout_rows()

    assert len(rows) == 150
    assert len({row["id"] for row in rows}) == 150
    assert all(set(row) == {"id", "question", "answer", "answer_start", "label"} for row in rows)
    assert {kind.value for kind in AnswerType} == NINE
    assert {row["label"] for row in rows} <= NINE
    assert Counter(row["label"] for row in rows) == {
        "common_noun": 48,
        "verb": 24,
        "person": 19,
        "other_entity": 14,
        "date": 13,
        "place": 12,
        "number": 11,
        "adjective": 7,
        "other": 2,
    }


def test_each_answer_is_at_its_offset_in_its_piaf_paragraph():
    data = json.loads(require_file(PIAF).read_text(encoding="utf-8"))["data"]
    questions = {
        question["id"]: (paragraph["context"], question)
        for article in data
        for paragraph in article["paragraphs"]
        for question in paragraph["qas"]
    }

    for row in holdout_rows():
        context, question = questions[row["id"]]
        start, text = row["answer_start"], row["answer"]
        assert context[start : start + len(text)] == text, row["id"]
        assert question["question"] == row["question"]
        assert question["answers"][0] == {"text": text, "answer_start": start}


def test_the_holdout_is_the_seed_2611_draw_disjoint_from_the_other_samples():
    tuning, holdout = draw_holdout.tuning_and_holdout(require_file(PIAF))
    old = draw_holdout.piaf_200_ids()
    tuning_ids = {row["id"] for row in tuning}
    holdout_ids = [row["id"] for row in holdout_rows()]

    assert [row["id"] for row in holdout] == holdout_ids
    assert len(old) == 200
    assert len(tuning_ids) == 150
    assert not tuning_ids & old
    assert not set(holdout_ids) & old
    assert not set(holdout_ids) & tuning_ids


def test_a_draw_shuffles_with_its_seed_and_skips_the_excluded_ids():
    rows = [{"id": f"q{n}"} for n in range(10)]
    shuffled = [row["id"] for row in draw_holdout.draw(rows, 7, set(), size=10)]

    drawn = draw_holdout.draw(rows, 7, {shuffled[0], shuffled[2]}, size=3)

    assert sorted(shuffled) == [f"q{n}" for n in range(10)]
    assert [row["id"] for row in drawn] == [shuffled[1], shuffled[3], shuffled[4]]
    assert [row["id"] for row in draw_holdout.draw(rows, 7, set(), size=10)] == shuffled


SECOND = DATA / "piaf_holdout2_150.jsonl"


def test_the_second_holdout_is_the_seed_4242_draw_well_formed_and_disjoint():
    rows = [json.loads(line) for line in SECOND.read_text(encoding="utf-8").splitlines()]
    data = json.loads(require_file(PIAF).read_text(encoding="utf-8"))["data"]
    contexts = {
        question["id"]: paragraph["context"]
        for article in data
        for paragraph in article["paragraphs"]
        for question in paragraph["qas"]
    }
    others = {
        name: draw_holdout.ids_in(DATA / name)
        for name in (
            "piaf_200.jsonl",
            "piaf_tune_150.jsonl",
            "piaf_check_100.jsonl",
            "piaf_holdout_150.jsonl",
        )
    }
    ids = [row["id"] for row in rows]

    assert len(rows) == 150
    assert len(set(ids)) == 150
    assert all(set(row) == {"id", "question", "answer", "answer_start", "label"} for row in rows)
    assert Counter(row["label"] for row in rows) == {
        "common_noun": 51,
        "other_entity": 18,
        "verb": 17,
        "person": 15,
        "place": 14,
        "number": 12,
        "adjective": 12,
        "date": 10,
        "other": 1,
    }
    for row in rows:
        start, text = row["answer_start"], row["answer"]
        assert contexts[row["id"]][start : start + len(text)] == text, row["id"]
    assert {name: len(found) for name, found in others.items()} == {
        "piaf_200.jsonl": 200,
        "piaf_tune_150.jsonl": 150,
        "piaf_check_100.jsonl": 100,
        "piaf_holdout_150.jsonl": 150,
    }
    assert all(not set(ids) & found for found in others.values())
    drawn = draw_holdout.second_holdout(require_file(PIAF))
    assert [
        {key: row[key] for key in ("id", "question", "answer", "answer_start")} for row in drawn
    ] == [{key: row[key] for key in ("id", "question", "answer", "answer_start")} for row in rows]


def test_the_second_holdout_labelled_twice_independently_differs_on_two_answers():
    """Two agents labelled the second hold-out apart (the second saw only the unlabelled rows):
    148 of 150 alike, Cohen's κ 0.984, so the tagger's misses there are not the labels' noise."""
    first = [json.loads(line) for line in SECOND.read_text(encoding="utf-8").splitlines()]
    again = DATA / "piaf_holdout2_150_second.jsonl"
    second = [json.loads(line) for line in again.read_text(encoding="utf-8").splitlines()]
    strip = [{k: v for k, v in row.items() if k != "label"} for row in first]

    assert [{k: v for k, v in row.items() if k != "label"} for row in second] == strip
    assert [
        (a["answer"], a["label"], b["label"])
        for a, b in zip(first, second, strict=True)
        if a["label"] != b["label"]
    ] == [("Helsinborg", "other_entity", "place"), ("gachupines", "common_noun", "other")]
    kappa = cohen_kappa([row["label"] for row in first], [row["label"] for row in second])
    assert round(kappa, 3) == 0.984


THIRD = DATA / "piaf_holdout3_150.jsonl"


def test_the_third_holdout_is_the_seed_9191_draw_well_formed_and_disjoint_from_all_five():
    rows = [json.loads(line) for line in THIRD.read_text(encoding="utf-8").splitlines()]
    earlier = (
        "piaf_200.jsonl",
        "piaf_tune_150.jsonl",
        "piaf_check_100.jsonl",
        "piaf_holdout_150.jsonl",
        "piaf_holdout2_150.jsonl",
    )
    ids = [row["id"] for row in rows]

    assert len(rows) == len(set(ids)) == 150
    assert all(set(row) == {"id", "question", "answer", "answer_start", "label"} for row in rows)
    assert Counter(row["label"] for row in rows) == {
        "common_noun": 41,
        "person": 22,
        "verb": 20,
        "place": 16,
        "date": 13,
        "number": 13,
        "other_entity": 13,
        "adjective": 10,
        "other": 2,
    }
    assert all(not set(ids) & draw_holdout.ids_in(DATA / name) for name in earlier)
    drawn = draw_holdout.third_holdout(require_file(PIAF))
    keys = ("id", "question", "answer", "answer_start")
    assert [{k: row[k] for k in keys} for row in drawn] == [
        {k: row[k] for k in keys} for row in rows
    ]


def read_rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines()]


# The later hold-outs: file, its draw, its size and the files it must share no answer with.
LATER = [
    ("piaf_holdout4_150.jsonl", draw_holdout.fourth_holdout, 150, draw_holdout.BEFORE_FOURTH),
    ("piaf_holdout5_300.jsonl", draw_holdout.fifth_holdout, 300, draw_holdout.BEFORE_FIFTH),
    ("piaf_holdout6_300.jsonl", draw_holdout.sixth_holdout, 300, draw_holdout.BEFORE_SIXTH),
]


@pytest.mark.parametrize(("name", "drawn_by", "size", "before"), LATER)
def test_a_later_holdout_is_its_seeded_draw_disjoint_from_every_sample_before(
    name, drawn_by, size, before
):
    rows = read_rows(name)
    ids = [row["id"] for row in rows]

    assert len(rows) == len(set(ids)) == size
    assert all(set(row) == {"id", "question", "answer", "answer_start", "label"} for row in rows)
    assert all(not set(ids) & draw_holdout.ids_in(DATA / earlier) for earlier in before)
    keys = ("id", "question", "answer", "answer_start")
    assert [{k: row[k] for k in keys} for row in drawn_by(require_file(PIAF))] == [
        {k: row[k] for k in keys} for row in rows
    ]


# Each sample labelled twice apart: the answers whose labels differ (first, second) and κ.
TWICE = [
    (
        "piaf_holdout3_150",
        [("la doctrine du hakkō ichi'u", "other_entity", "common_noun")],
        0.992,
    ),
    ("piaf_holdout4_150", [("terre", "common_noun", "other")], 0.992),
    (
        "piaf_holdout5_300",
        [("vingt-troisième année", "common_noun", "number"), ("aucun", "other", "number")],
        0.992,
    ),
    (
        "piaf_holdout6_300",
        [
            ("Moyen Âge", "other_entity", "date"),
            ("au 35° d'artillerie", "other_entity", "number"),
            ("Darling", "other_entity", "person"),
        ],
        0.988,
    ),
]


@pytest.mark.parametrize(("name", "differ", "kappa"), TWICE)
def test_two_labellings_made_apart_differ_only_on_the_documented_answers(name, differ, kappa):
    first, second = read_rows(f"{name}.jsonl"), read_rows(f"{name}_second.jsonl")
    keys = ("id", "question", "answer", "answer_start")

    assert [{k: r[k] for k in keys} for r in first] == [{k: r[k] for k in keys} for r in second]
    assert [
        (a["answer"], a["label"], b["label"])
        for a, b in zip(first, second, strict=True)
        if a["label"] != b["label"]
    ] == differ
    labels = [row["label"] for row in first], [row["label"] for row in second]
    assert round(cohen_kappa(*labels), 3) == kappa
