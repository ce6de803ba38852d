"""Time our SQuAD v1.1 scoring against a plain transcription of the official script.

Builds 62,003 questions (FQuAD 1.1's size) by cycling PIAF v1.0's 3,835 questions: every
question gets one to three ground truths (dev/test style: the PIAF answer, then variants of it
an annotator could have selected) and a prediction made from its answer by a deterministic
perturbation (kept as is, case changed, "the" added, a word added or removed, punctuation
added, another question's answer, empty…); one question in 50 has no prediction. Then, best
of 3 runs each, on the same data:

- ours: ``evaluation.metrics.score(dataset, predictions, SQUAD_EN)``;
- official: ``evaluation.official_squad_v11.evaluate(data, predictions)`` (the transcription of
  ``evaluate-v1.1.py``; its "Unanswered question" lines to stderr are discarded);

checks that exact_match and f1 are identical (every bit), prints both times, the ratio and
whether the target is met: **ours at least 2× faster**. FQUAD_FR and WORD are timed too, for
information (the official script has no French mode to compare with).

Run it alone from the project root: ``.venv/bin/python bench/metrics_speed.py`` (no Django, no
database; it reads ``../shared/data/piaf/piaf-v1.0.json``). Options: ``--questions``,
``--repeat``.
"""

import argparse
import contextlib
import io
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from evaluation import official_squad_v11 as official  # noqa: E402  (needs ROOT on sys.path)
from evaluation.metrics import FQUAD_FR, SQUAD_EN, WORD, score  # noqa: E402  (same)

PIAF_PATH = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
QUESTIONS = 62_003
REPEATS = 3
TARGET_RATIO = 2.0
MISSING_EVERY = 50  # one question in 50 has no prediction


def load_piaf(path: Path) -> list[tuple[str, str, str]]:
    """Return PIAF's (id, answer, context) triples in file order."""
    if not path.exists():
        sys.exit(f"{path} is missing: this benchmark reads the PIAF data from ../shared/data")
    document = json.loads(path.read_text(encoding="utf-8"))
    return [
        (qa["id"], qa["answers"][0]["text"], paragraph["context"])
        for article in document["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    ]


def next_word(context: str, answer: str) -> str:
    """Return the word after the answer in its context ("" at the end or when not found)."""
    start = context.find(answer)
    if start < 0:
        return ""
    following = context[start + len(answer) :].split()
    return following[0] if following else ""


def truths_for(index: int, answer: str, context: str) -> list[str]:
    """Return one to three ground truths (index % 3 + 1), the PIAF answer first."""
    words = answer.split()
    extended = f"{answer} {next_word(context, answer)}".strip()
    shorter = " ".join(words[1:]) if len(words) > 1 else f"the {answer}"
    return [answer, extended, shorter][: index % 3 + 1]


def prediction_for(index: int, answer: str, context: str, other: str) -> str:
    """Return a deterministic perturbation of the answer (cycle of 10 kinds)."""
    words = answer.split()
    kind = index % 10
    if kind == 0:
        return answer
    if kind == 1:
        return answer.upper()
    if kind == 2:
        return f"The {answer}."
    if kind == 3:
        return " ".join(words[:-1]) if len(words) > 1 else f"a {answer}"
    if kind == 4:
        return f"{answer} {next_word(context, answer)}"
    if kind == 5:
        return " ".join(words[1:] + words[:1])
    if kind == 6:
        return f"« {answer} », {next_word(context, answer)} !"
    if kind == 7:
        return other
    if kind == 8:
        return f"l'{answer.lower()}"
    return ""


def build(questions: int) -> tuple[list[dict], dict[str, list[str]], dict[str, str]]:
    """Return (SQuAD "data" list, {id: truths}, {id: prediction}) for `questions` questions."""
    piaf = load_piaf(PIAF_PATH)
    qas, dataset, predictions = [], {}, {}
    for index in range(questions):
        piaf_id, answer, context = piaf[index % len(piaf)]
        other = piaf[(index * 7 + 3) % len(piaf)][1]
        question_id = f"{piaf_id}-{index // len(piaf)}"
        truths = truths_for(index, answer, context)
        qas.append({"id": question_id, "answers": [{"text": text} for text in truths]})
        dataset[question_id] = truths
        if index % MISSING_EVERY != MISSING_EVERY - 1:
            predictions[question_id] = prediction_for(index, answer, context, other)
    # One article, one paragraph per 5 questions: evaluate() only walks the structure.
    paragraphs = [{"qas": qas[i : i + 5]} for i in range(0, len(qas), 5)]
    return [{"title": "bench", "paragraphs": paragraphs}], dataset, predictions


def best_time(function, repeat: int):
    """Return (best wall time in seconds, last result) over `repeat` runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def run_official(data: list[dict], predictions: dict[str, str]) -> dict:
    with contextlib.redirect_stderr(io.StringIO()):
        return official.evaluate(data, predictions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=QUESTIONS)
    parser.add_argument("--repeat", type=int, default=REPEATS)
    args = parser.parse_args(argv)

    data, dataset, predictions = build(args.questions)
    truths = sum(len(answers) for answers in dataset.values())
    print(
        f"Python {platform.python_version()} on {platform.machine()}; {len(dataset):,} "
        f"questions, {truths:,} ground truths, {len(predictions):,} predictions "
        f"({len(dataset) - len(predictions):,} missing); best of {args.repeat} runs"
    )

    official_seconds, expected = best_time(lambda: run_official(data, predictions), args.repeat)
    ours_seconds, ours = best_time(lambda: score(dataset, predictions, SQUAD_EN), args.repeat)
    same = (ours["exact_match"], ours["f1"]) == (expected["exact_match"], expected["f1"])
    ratio = official_seconds / ours_seconds
    print(f"official transcription: {official_seconds:.3f} s  {json.dumps(expected)}")
    print(
        f"ours (squad-en):        {ours_seconds:.3f} s  "
        f"{json.dumps({'exact_match': ours['exact_match'], 'f1': ours['f1']})}"
    )
    print(f"same numbers (exact float equality): {'yes' if same else 'NO'}")
    print(f"ratio: ours {ratio:.2f}× faster")
    verdict = "met" if ratio >= TARGET_RATIO and same else "not met"
    print(f"target ≥ {TARGET_RATIO:g}× faster: {verdict}")

    for norm in (FQUAD_FR, WORD):
        seconds, result = best_time(
            lambda norm=norm: score(dataset, predictions, norm), args.repeat
        )
        print(
            f"for information, {norm.name}: {seconds:.3f} s "
            f"({official_seconds / seconds:.2f}× the official's time), EM "
            f"{result['exact_match']:.2f}, F1 {result['f1']:.2f}"
        )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
