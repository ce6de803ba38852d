"""Score the answer-type tagger on hand-labelled PIAF samples: agreement per category, Cohen's κ.

Each FILE is a sample in the format of tests/data/answer_types/ (one JSON object a line: `id`,
`answer`, `answer_start`, `label`; the paragraph is looked up in PIAF v1.0 by the question's
id). For each file, and for all the files together when there are several, it prints the
answers that agree, per category agree / labelled (predicted), and κ
(`evaluation.agreement.cohen_kappa`); `--misses` lists each disagreement with its label, the
tagger's type and the answer.

Run from the project root, no Django, no database:

    .venv/bin/python bench/answer_type_score.py tests/data/answer_types/piaf_holdout3_150.jsonl

(`--model fr_core_news_sm` for the other pipeline; `--piaf PATH` for another copy of PIAF.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.agreement import cohen_kappa  # noqa: E402
from evaluation.services.analysis.answer_types import (  # noqa: E402
    SPACY_MODEL,
    AnswerType,
    answer_types,
    load_french,
)

PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"


def contexts_by_question(piaf: Path) -> dict[str, str]:
    """Return {question id: its paragraph} for every question of PIAF v1.0."""
    data = json.loads(piaf.read_text(encoding="utf-8"))["data"]
    return {
        question["id"]: paragraph["context"]
        for article in data
        for paragraph in article["paragraphs"]
        for question in paragraph["qas"]
    }


def read_sample(path: Path, contexts: dict[str, str]) -> list[dict]:
    """Return the sample's rows, each with its paragraph under "context"."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [{**row, "context": contexts[row["id"]]} for row in rows]


def table(labels: list[str], predicted: list[str]) -> list[str]:
    """Return the lines of the agreement table: per category, then all, then κ."""
    labelled, given = Counter(labels), Counter(predicted)
    agree = Counter(label for label, kind in zip(labels, predicted, strict=True) if label == kind)
    lines = [f"  {'label':<13} agree/labelled (predicted)"]
    for kind in AnswerType:
        name = kind.value
        lines.append(f"  {name:<13} {agree[name]:>3}/{labelled[name]:<3} ({given[name]})")
    total = sum(agree.values())
    share = 100 * total / len(labels)
    kappa = cohen_kappa(labels, predicted)
    lines.append(f"  {'all':<13} {total}/{len(labels)} ({share:.1f} %), κ {kappa:.3f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--model", default=SPACY_MODEL)
    parser.add_argument("--piaf", type=Path, default=PIAF)
    parser.add_argument("--misses", action="store_true", help="list every disagreement")
    args = parser.parse_args()

    contexts = contexts_by_question(args.piaf)
    nlp = load_french(args.model)
    every_label: list[str] = []
    every_type: list[str] = []
    for path in args.files:
        rows = read_sample(path, contexts)
        items = [(row["context"], row["answer_start"], row["answer"]) for row in rows]
        predicted = [kind.value for kind in answer_types(items, nlp=nlp)]
        labels = [row["label"] for row in rows]
        print(f"{path.name} ({args.model}):")
        print("\n".join(table(labels, predicted)))
        if args.misses:
            for row, kind in zip(rows, predicted, strict=True):
                if row["label"] != kind:
                    print(f"    {row['id']} {row['label']:>12} → {kind:<12} {row['answer']!r}")
        every_label += labels
        every_type += predicted
    if len(args.files) > 1:
        print(f"all {len(args.files)} files:")
        print("\n".join(table(every_label, every_type)))


if __name__ == "__main__":
    main()
