"""The official scripts' printed figures in ../shared/data/official-scores/, and which metric
mode of the platform must reproduce each of them.

Each file there names a dataset of ../shared/data/, holds predictions (and, for SQuAD v2.0,
no-answer probabilities) and ``outputs``: {the script and its options: the JSON it printed}.
The scripts themselves are not in this repository; their figures are the reference.

``MODES`` maps each output's name to the platform's way of computing it, and the parametrized
tests assert it on every file holding it. Since issue 27 every output is mapped: MLQA's seven
answer languages, KorQuAD v1.0's character F1 and M2QA's jieba words included. ``NOT_YET``
stays, empty, for an output a new file brings before a mode computes it: it says why, and
docs/metrics.md lists the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from evaluation.metrics import (
    KORQUAD_CHARS,
    M2QA_ZH,
    MLQA,
    MLQA_LANGUAGES,
    SQUAD_EN,
    Normalization,
    score,
    score_v2,
)
from tests.needs import SHARED_DATA

OFFICIAL_SCORES = SHARED_DATA / "official-scores"


@dataclass(frozen=True)
class Official:
    """One official-scores file, read: the dataset's truths and what was scored against it."""

    name: str  # the file's name, e.g. "xquad.zh.json"
    truths: dict[str, list[str]]  # {question id: gold answer texts}; [] = unanswerable
    predictions: dict[str, str]
    na_probs: dict[str, float] | None
    outputs: dict[str, dict]  # {script and options: the JSON it printed}


Scorer = Callable[[Official], dict]


def v1(norm: Normalization) -> Scorer:
    """The SQuAD v1.1 way (``score``) with the normalization given."""
    return lambda official: score(official.truths, official.predictions, norm)


def v2(norm: Normalization, *, with_na_probs: bool) -> Scorer:
    """The SQuAD v2.0 way (``score_v2``), with or without the file's no-answer probabilities."""

    def run(official: Official) -> dict:
        na_probs = official.na_probs if with_na_probs else None
        return score_v2(official.truths, official.predictions, na_probs, norm)

    return run


# An official output's name → the platform's mode that must print the same figures.
MODES: dict[str, Scorer] = {
    "SQuAD evaluate-v1.1.py": v1(SQUAD_EN),
    "SQuAD evaluate-v2.0.py": v2(SQUAD_EN, with_na_probs=False),
    "SQuAD evaluate-v2.0.py --na-prob-file na_probs": v2(SQUAD_EN, with_na_probs=True),
    **{
        f"mlqa_evaluation_v1.py, answer language {language}": v1(MLQA[language])
        for language in MLQA_LANGUAGES
    },
    "KorQuAD evaluate-v1.0.py (character F1)": v1(KORQUAD_CHARS),
    # M2QA's script is SQuAD v2.0's; on these files (every question answerable, no gold answer
    # that normalizes to nothing) v2.0 and v1.1 agree, and the output has v1.1's two keys
    "M2QA word-tokenized F1 (SQuAD v2.0 normalization, jieba 0.42.1 words)": v1(M2QA_ZH),
}

# An official output's name → why no platform mode reproduces it yet (none since issue 27).
NOT_YET: dict[str, str] = {}


def files() -> list[Path]:
    """The official-scores files, sorted by name ([] when the folder is missing)."""
    return sorted(OFFICIAL_SCORES.glob("*.json"))


def outputs_of(path: Path) -> list[str]:
    """The names of the outputs a file holds, in its order, without reading the dataset."""
    return list(json.loads(path.read_text(encoding="utf-8"))["outputs"])


@cache
def load(name: str) -> Official:
    """Read an official-scores file and its dataset (with its ``dataset_rule`` applied)."""
    document = json.loads((OFFICIAL_SCORES / name).read_text(encoding="utf-8"))
    dataset = json.loads((SHARED_DATA / document["dataset"]).read_text(encoding="utf-8"))
    truths = {
        str(qa["id"]): [answer["text"] for answer in qa["answers"]]
        for article in dataset["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    }
    if "dataset_rule" in document:
        truths = v2_rule(truths, document["dataset_rule"])
    return Official(
        name=name,
        truths=truths,
        predictions=document["predictions"],
        na_probs=document.get("na_probs"),
        outputs=document["outputs"],
    )


# The only rule the files use so far (piaf-v2.0.json): PIAF made into a SQuAD v2.0 file.
V2_RULE_START = "SQuAD v2.0 made from it: questions numbered 0, 1, 2, ... in file order; every "
V2_RULE_EVERY = "question whose number % 4 == 3 is unanswerable"


def v2_rule(truths: dict[str, list[str]], rule: str) -> dict[str, list[str]]:
    """Apply the dataset rule: every fourth question (numbers 3, 7, 11…) loses its answers.

    Any other wording is refused, so that a changed rule cannot pass unnoticed.
    """
    if not rule.startswith(V2_RULE_START + V2_RULE_EVERY):
        raise ValueError(
            f"unknown dataset_rule, update tests/evaluation/official_scores.py: {rule}"
        )
    return {
        question_id: [] if number % 4 == 3 else answers
        for number, (question_id, answers) in enumerate(truths.items())
    }
