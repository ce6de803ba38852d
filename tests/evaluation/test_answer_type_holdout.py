"""The hold-out sample of answer types (issue 25, item 19) is the documented draw, well formed.

tests/data/answer_types/piaf_holdout_150.jsonl: 150 PIAF v1.0 answers labelled by hand while
the tagger's rules were being changed without them (tests/data/answer_types/README.md). These
tests check the file's shape only; the tagger is not run here. Its agreement was measured once
on the first round's frozen rules (85.3 %); since the second round of rules, which was written
looking at it, test_answer_type_agreement.py asserts it with the other samples.
"""

import json
from collections import Counter
from pathlib import Path

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
