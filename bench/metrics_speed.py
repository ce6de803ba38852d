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

Then SQuAD v2.0, at FQuAD 2.0's size: 79,000 questions, 17,000 of them unanswerable (gold
``[]``; 17 of every 79), every question predicted (the official v2.0 script fails on a missing
one): answerable questions as above (the tenth kind, "", says "no answer"), unanswerable ones
"" two times in three, else a wrong span; a no-answer probability for each (higher, on
average, for the unanswerable ones). Best of 3 runs each:

- ours: ``evaluation.metrics.score_v2(dataset, predictions, na_probs, SQUAD_EN)``;
- official: ``evaluation.official_squad_v20.evaluate(data, predictions, na_probs)`` (the
  transcription of ``evaluate-v2.0.py`` with an na_prob file: HasAns/NoAns and best_*);

checks every official key is identical (every bit), prints both times, the ratio and whether
the target is met: **ours at least as fast** (issue 14). ``no_answer_classification`` is timed
too, for information.

Run it alone from the project root: ``.venv/bin/python bench/metrics_speed.py`` (no Django, no
database; it reads ``../shared/data/piaf/piaf-v1.0.json``). Options: ``--questions``,
``--v2-questions``, ``--repeat``, ``--only v1|v2``.
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

from figures import beside_floor, figure, print_machine  # noqa: E402

from evaluation import official_squad_v11 as official  # noqa: E402  (needs ROOT on sys.path)
from evaluation import official_squad_v20 as official_v2  # noqa: E402  (same)
from evaluation.metrics import (  # noqa: E402  (same)
    FQUAD_FR,
    SQUAD_EN,
    WORD,
    no_answer_classification,
    score,
    score_v2,
)

PIAF_PATH = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
QUESTIONS = 62_003
REPEATS = 3
TARGET_RATIO = 2.0
MISSING_EVERY = 50  # one question in 50 has no prediction
V2_QUESTIONS = 79_000  # FQuAD 2.0: almost 80,000 questions
V2_TARGET_RATIO = 1.0
UNANSWERABLE, CYCLE = 17, 79  # 17 of every 79 questions unanswerable: 17,000 of 79,000


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


def build_v2(questions: int):
    """Return (SQuAD v2.0 "data" list, {id: truths}, {id: prediction}, {id: na_prob})."""
    piaf = load_piaf(PIAF_PATH)
    qas, dataset, predictions, na_probs = [], {}, {}, {}
    for index in range(questions):
        piaf_id, answer, context = piaf[index % len(piaf)]
        other = piaf[(index * 7 + 3) % len(piaf)][1]
        question_id = f"{piaf_id}-{index // len(piaf)}"
        noise = (index * 7919 % 1000) / 1000  # spread over [0, 1), deterministic
        if index % CYCLE < UNANSWERABLE:
            truths = []
            predictions[question_id] = "" if index % 3 else prediction_for(1, answer, context, "")
            na_probs[question_id] = 0.3 + 0.7 * noise
        else:
            truths = truths_for(index, answer, context)
            predictions[question_id] = prediction_for(index, answer, context, other)
            na_probs[question_id] = 0.7 * noise
        qas.append({"id": question_id, "answers": [{"text": text} for text in truths]})
        dataset[question_id] = truths
    paragraphs = [{"qas": qas[i : i + 5]} for i in range(0, len(qas), 5)]
    return [{"title": "bench", "paragraphs": paragraphs}], dataset, predictions, na_probs


def run_official_v2(data, predictions, na_probs) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return official_v2.evaluate(data, predictions, na_probs)


def main_v2(questions: int, repeat: int) -> bool:
    """Time SQuAD v2.0's scoring both ways; return whether every figure is the same."""
    data, dataset, predictions, na_probs = build_v2(questions)
    unanswerable = sum(1 for truths in dataset.values() if not truths)
    print(
        f"SQuAD v2.0: {len(dataset):,} questions ({unanswerable:,} unanswerable), "
        f"{len(predictions):,} predictions ({sum(1 for p in predictions.values() if not p):,} "
        f'""), with no-answer probabilities; best of {repeat} runs'
    )
    official_seconds, expected = best_time(
        lambda: run_official_v2(data, predictions, na_probs), repeat
    )
    ours_seconds, ours = best_time(
        lambda: score_v2(dataset, predictions, na_probs, SQUAD_EN), repeat
    )
    same = all(ours.get(key) == value for key, value in expected.items())
    ratio = official_seconds / ours_seconds
    shown = {key: expected[key] for key in ("exact", "f1", "best_exact", "best_f1")}
    print(f"official v2.0 transcription: {official_seconds:.3f} s  {json.dumps(shown)}")
    print(f"ours (score_v2, squad-en):   {ours_seconds:.3f} s")
    print(f"same numbers, every official key (exact float equality): {'yes' if same else 'NO'}")
    print(f"ratio: ours {ratio:.2f}× faster")
    verdict = "met" if ratio >= V2_TARGET_RATIO and same else "not met"
    print(f"target ≥ {V2_TARGET_RATIO:g}× (at least as fast): {verdict}")
    floor, _common = best_time(lambda: floor_scoring(dataset, predictions), repeat)
    beside_floor(
        "metrics.v2_ours",
        ours_seconds,
        floor,
        "s",
        what="ours (score_v2, squad-en)",
        floor_what="the same texts lowercased, split and intersected, standard library",
    )
    figure("metrics.v2_official", official_seconds, "s")
    seconds, result = best_time(
        lambda: no_answer_classification(dataset, predictions, SQUAD_EN), repeat
    )
    print(
        f"for information, no_answer_classification: {seconds:.3f} s (F1 {result['f1']:.2f}); "
        f"score_v2 with fquad-fr: "
        f"{best_time(lambda: score_v2(dataset, predictions, na_probs, FQUAD_FR), repeat)[0]:.3f} s"
    )
    return same


def best_time(function, repeat: int):
    """Return (best wall time in seconds, last result) over `repeat` runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def floor_scoring(dataset: dict, predictions: dict[str, str]) -> int:
    """The floor of any SQuAD-style scoring, with the standard library alone: every prediction
    and ground truth lowercased and split into words, the common words counted."""
    common = 0
    for qid, truths in dataset.items():
        predicted = set(predictions.get(qid, "").lower().split())
        for truth in truths:
            common += len(predicted & set(truth.lower().split()))
    return common


def run_official(data: list[dict], predictions: dict[str, str]) -> dict:
    with contextlib.redirect_stderr(io.StringIO()):
        return official.evaluate(data, predictions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=QUESTIONS)
    parser.add_argument("--v2-questions", type=int, default=V2_QUESTIONS)
    parser.add_argument("--repeat", type=int, default=REPEATS)
    parser.add_argument("--only", choices=["v1", "v2"], default=None)
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}")
    print_machine()
    if args.only == "v2":
        return 0 if main_v2(args.v2_questions, args.repeat) else 1

    data, dataset, predictions = build(args.questions)
    truths = sum(len(answers) for answers in dataset.values())
    print(
        f"SQuAD v1.1: {len(dataset):,} questions, {truths:,} ground truths, "
        f"{len(predictions):,} predictions ({len(dataset) - len(predictions):,} missing); "
        f"best of {args.repeat} runs"
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
    floor, _common = best_time(lambda: floor_scoring(dataset, predictions), args.repeat)
    beside_floor(
        "metrics.v1_ours",
        ours_seconds,
        floor,
        "s",
        what="ours (squad-en)",
        floor_what="the same texts lowercased, split and intersected, standard library",
    )
    figure("metrics.v1_official", official_seconds, "s")

    for norm in (FQUAD_FR, WORD):
        seconds, result = best_time(
            lambda norm=norm: score(dataset, predictions, norm), args.repeat
        )
        print(
            f"for information, {norm.name}: {seconds:.3f} s "
            f"({official_seconds / seconds:.2f}× the official's time), EM "
            f"{result['exact_match']:.2f}, F1 {result['f1']:.2f}"
        )
    if args.only == "v1":
        return 0 if same else 1
    same_v2 = main_v2(args.v2_questions, args.repeat)
    return 0 if same and same_v2 else 1


if __name__ == "__main__":
    sys.exit(main())
