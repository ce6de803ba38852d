"""bench/answer_type_score.py and bench/answer_type_loso.py (issue 25, item 19, round 3): the
table a fresh hold-out is scored with, and the switch that types a sample with the rules
written without it (docs/answer-types.md, "Round 3")."""

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from evaluation.services.analysis.answer_types import classify, classify_answer, load_french

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench.{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[f"bench.{name}"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def score():
    return _bench("answer_type_score")


@pytest.fixture(scope="module")
def loso(score):
    return _bench("answer_type_loso")


def test_the_table_counts_agreement_per_category_and_kappa(score):
    labels = ["date", "date", "verb", "other"]
    predicted = ["date", "number", "verb", "verb"]

    lines = score.table(labels, predicted)

    assert lines[1] == "  date            1/2   (1)"
    assert lines[2] == "  number          0/0   (1)"
    assert lines[7] == "  verb            1/1   (2)"
    assert lines[9] == "  other           0/1   (0)"
    # κ = (4·2 − (2·1 + 1·2)) / (16 − 4) = 4 / 12
    assert lines[-1] == "  all           2/4 (50.0 %), κ 0.333"


def test_a_sample_is_read_with_its_paragraphs(score, tmp_path):
    path = tmp_path / "sample.jsonl"
    row = {"id": "q1", "question": "Où ?", "answer": "Paris", "answer_start": 8, "label": "place"}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")

    rows = score.read_sample(path, {"q1": "Il vit à Paris."})

    assert rows == [{**row, "context": "Il vit à Paris."}]


def test_a_rule_switched_off_decides_nothing_and_comes_back(loso):
    nlp = load_french()
    context = "Il joue ensuite The kelt is my delight au violon."
    start = context.index("The kelt")
    end = start + len("The kelt is my delight")
    rule = classify._foreign_title

    with loso.switched_off([(classify, "_foreign_title", loso._never)]):
        off = classify_answer(nlp(context), start, end)

    assert off == "other"  # round 2's type: "The" read as X, the head unknown
    assert classify._foreign_title is rule
    assert classify_answer(nlp(context), start, end) == "other_entity"
