"""bench/answer_type_layer.py, the learned layer tried over the answer-type rules (issue 25,
item 19; not shipped: docs/answer-types.md). Its regression is deterministic, and its folds
keep every answer of a paragraph together, so that its cross-validated figures can be rebuilt
exactly from the labelled files.
"""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "answer_type_layer.py"

ROWS = [["bias", "rule=date"], ["bias", "rule=date", "digits"], ["bias", "rule=verb"]]
ROWS.append(["bias", "rule=verb", "digits"])
LABELS = ["date", "number", "verb", "verb"]


@pytest.fixture(scope="module")
def layer():
    spec = importlib.util.spec_from_file_location("answer_type_layer", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["answer_type_layer"] = module
    spec.loader.exec_module(module)
    return module


def test_the_regression_gives_the_same_exact_weights_on_a_tiny_dataset(layer):
    fitted = layer.train(ROWS, LABELS, steps=200, min_count=1)

    assert fitted == layer.train(ROWS, LABELS, steps=200, min_count=1)
    assert fitted["classes"] == list(layer.CLASSES)
    assert fitted["dense"] == 0
    assert fitted["features"] == ["bias", "digits", "rule=date", "rule=verb"]
    weights = dict(zip(fitted["features"], fitted["weights"], strict=True))
    assert weights["bias"][:2] == [0.397797, 0.265157]
    assert weights["digits"][:2] == [-0.247176, 0.553385]
    assert weights["rule=date"][0] == 0.569707
    assert weights["rule=verb"][6] == 1.014748  # verb's column
    assert weights["bias"][2:6] == [-0.22736] * 4  # classes never seen move alike


def test_the_fitted_layer_predicts_its_training_labels(layer):
    model = layer.Model(layer.train(ROWS, LABELS, steps=200, min_count=1))

    assert [model.predict(row) for row in ROWS] == LABELS
    assert model.predict(["bias", "rule=date", "unknown feature"]) == "date"


def test_rare_features_are_dropped_but_the_rules_type_kept(layer):
    rows = [["a", "rule=x", "b"], ["a", "b|c"], ["a"]]

    assert layer.vocabulary(rows, min_count=2) == ["a", "rule=x"]


def test_folds_keep_a_paragraphs_answers_together_and_are_seeded(layer):
    contexts = ["p", "q", "p", "r", "s", "q"]

    fold = layer.folds(contexts, k=2, seed=25)

    assert fold == [0, 0, 0, 1, 1, 0]
    assert fold == layer.folds(list(contexts), k=2, seed=25)


def test_dense_features_take_the_last_rows_of_the_weights(layer):
    dense = np.array([[1.0], [0.0], [0.0], [1.0]])
    fitted = layer.train(ROWS, LABELS, steps=200, min_count=1, dense=dense)
    model = layer.Model(fitted)

    assert fitted["dense"] == 1
    assert fitted["features"] == ["bias", "digits", "rule=date", "rule=verb", "dense[0]"]
    assert len(fitted["weights"]) == 5
    assert [model.predict(row, dense[i]) for i, row in enumerate(ROWS)] == LABELS
