"""Time the platform's SQuAD scoring against a floor measured in the same run, and optionally
against an official evaluation script given by path.

Data: 62,003 questions for SQuAD v1.1 (FQuAD 1.1's size) made by cycling PIAF v1.0's 3,835
questions: one to three ground truths each (dev/test style: the PIAF answer, then variants an
annotator could have selected) and a prediction made from the answer by a deterministic
perturbation (as is, upper-case, "The … .", a word added or removed, « … », another question's
answer, "l'" glued on, empty); one question in 50 has no prediction. For SQuAD v2.0, 79,000
questions (FQuAD 2.0's size), 17,000 of them unanswerable (gold ``[]``, 17 of every 79), every
question predicted, and a no-answer probability for each. Both are written as SQuAD files
(dataset, predictions, no-answer probabilities) in a temporary folder.

Timed in CPU seconds (this process's, or the subprocess's for an official script: on a busy
machine the wall time mostly measures the other processes), least of 3 runs each, from the
files on disk:

- ours: read the files, then ``evaluation.metrics.score`` (v1.1) or ``score_v2`` with the
  no-answer probabilities (v2.0), with squad-en; fquad-fr, chars (called word before issue
  27), mlqa-de and korquad-chars (F1 over characters, the Units path) are timed beside it;
- the floor: read the same files and normalize every ground truth and every prediction once
  with the same normalization, nothing compared: the least any scoring of these files costs.
  Floor and figure run in turns (floor, ours, floor, ours…), so that a change of the machine's
  load falls on both;
- with ``--official PATH`` (``--official-v2 PATH`` for v2.0): that script, run unmodified as a
  subprocess on the same files (``python PATH DATASET PREDICTIONS``, v2.0 with
  ``--na-prob-file``), its printed JSON compared with ours key by key; its floor adds the time
  to start Python and import json. Without it the benchmark says that no official script was
  timed. The official scripts are not part of this project: give the path of your copy.

Run it alone from the project root: ``.venv/bin/python bench/metrics_speed.py`` (no Django, no
database; it reads ``../shared/data/piaf/piaf-v1.0.json``). Options: ``--questions``,
``--v2-questions``, ``--repeat``, ``--only v1|v2``, ``--official``, ``--official-v2``.
The exit status is 1 when an official script's figures differ from ours.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from figures import beside_floor, print_machine  # noqa: E402

from evaluation.metrics import (  # noqa: E402  (needs ROOT on sys.path)
    CHARS,
    FQUAD_FR,
    KORQUAD_CHARS,
    MLQA,
    SQUAD_EN,
    Normalization,
    no_answer_classification,
    score,
    score_v2,
)

PIAF_PATH = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
QUESTIONS = 62_003
REPEATS = 3
MISSING_EVERY = 50  # one question in 50 has no prediction
V2_QUESTIONS = 79_000  # FQuAD 2.0: almost 80,000 questions
UNANSWERABLE, CYCLE = 17, 79  # 17 of every 79 questions unanswerable: 17,000 of 79,000
FLOOR_WHAT = "read the same files, normalize every answer and prediction once"


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
    # One article, one paragraph per 5 questions: a scorer only walks the structure.
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
        qas.append(
            {
                "id": question_id,
                "answers": [{"text": text} for text in truths],
                "is_impossible": not truths,
            }
        )
        dataset[question_id] = truths
    paragraphs = [{"qas": qas[i : i + 5]} for i in range(0, len(qas), 5)]
    return [{"title": "bench", "paragraphs": paragraphs}], dataset, predictions, na_probs


# Reading, the floor and ours: each starts from the files on disk


def read_truths(path: Path) -> dict[str, list[str]]:
    """{question id: gold answer texts} of a SQuAD file, in file order."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return {
        str(qa["id"]): [answer["text"] for answer in qa["answers"]]
        for article in document["data"]
        for paragraph in article["paragraphs"]
        for qa in paragraph["qas"]
    }


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def floor(files: dict[str, Path], norm: Normalization) -> int:
    """Read the files and normalize each answer and prediction once; return the token count."""
    truths, predictions = read_truths(files["dataset"]), read_json(files["predictions"])
    if "na_probs" in files:
        read_json(files["na_probs"])
    tokens = 0
    for answers in truths.values():
        for answer in answers:
            tokens += len(norm.tokens(answer))
    for prediction in predictions.values():
        tokens += len(norm.tokens(prediction))
    return tokens


def ours(files: dict[str, Path], norm: Normalization) -> dict:
    """Read the files and score them the platform's way (v2.0 when there are na_probs)."""
    truths, predictions = read_truths(files["dataset"]), read_json(files["predictions"])
    if "na_probs" in files:
        return score_v2(truths, predictions, read_json(files["na_probs"]), norm)
    return score(truths, predictions, norm)


def best_time(function, repeat: int, clock=time.process_time):
    """Return (least CPU time in seconds, last result) over `repeat` runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = clock()
        result = function()
        best = min(best, clock() - start)
    return best, result


def children_cpu() -> float:
    """CPU seconds used so far by this process's finished children (user + system)."""
    times = os.times()
    return times.children_user + times.children_system


def best_alternating(first, second, repeat: int):
    """Time two functions in turns (first, second, first, …) so that a change of the machine's
    load falls on both; return (best time of first, best time of second, second's result)."""
    best_first = best_second = float("inf")
    result = None
    for _ in range(repeat):
        start = time.process_time()
        first()
        best_first = min(best_first, time.process_time() - start)
        start = time.process_time()
        result = second()
        best_second = min(best_second, time.process_time() - start)
    return best_first, best_second, result


def run_script(command: list[str]) -> dict:
    """Run a command; return the JSON object it printed last on stdout ({} when none)."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{command[1]} failed (status {done.returncode}): {done.stderr.strip()[-500:]}")
    for line in reversed(done.stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            return json.loads(line)
    return {}


def write_files(folder: Path, name: str, data: list[dict], version: str, **parts) -> dict:
    """Write the SQuAD document and each of parts as JSON; return {part: path}."""
    files = {"dataset": folder / f"{name}-dataset.json"}
    files["dataset"].write_text(json.dumps({"version": version, "data": data}), "utf-8")
    for part, content in parts.items():
        files[part] = folder / f"{name}-{part}.json"
        files[part].write_text(json.dumps(content), "utf-8")
    return files


def time_ours(label: str, files: dict[str, Path], repeat: int) -> tuple[float, float, dict]:
    """Time ours beside its floor in each mode; return squad-en's (floor, ours, result)."""
    floor_seconds, ours_seconds, result = best_alternating(
        lambda: floor(files, SQUAD_EN), lambda: ours(files, SQUAD_EN), repeat
    )
    shown = {key: value for key, value in result.items() if key in ("exact_match", "exact", "f1")}
    print(f"ours (squad-en): {ours_seconds:.3f} s  {json.dumps(shown)}")
    beside_floor(
        f"metrics.{label}_ours",
        ours_seconds,
        floor_seconds,
        "s",
        what=f"ours, {label} (read the files, score with squad-en)",
        floor_what=FLOOR_WHAT,
    )
    for norm in (FQUAD_FR, CHARS, MLQA["de"], KORQUAD_CHARS):
        norm_floor, seconds, _ = best_alternating(
            lambda norm=norm: floor(files, norm), lambda norm=norm: ours(files, norm), repeat
        )
        beside_floor(
            f"metrics.{label}_{norm.name.replace('-', '_')}",
            seconds,
            norm_floor,
            "s",
            what=f"ours, {label}, {norm.name}",
            floor_what=f"the same with {norm.name}",
        )
    return floor_seconds, ours_seconds, result


def time_official(label: str, files: dict[str, Path], official: Path, repeat: int, ours_run):
    """Run the official script on the files, time it beside ours' floor plus Python's start,
    and return whether every figure it printed equals ours. ours_run: (floor, ours, result)."""
    floor_seconds, ours_seconds, result = ours_run
    command = [sys.executable, str(official), str(files["dataset"]), str(files["predictions"])]
    if "na_probs" in files:
        command += ["--na-prob-file", str(files["na_probs"])]
    startup, _ = best_time(
        lambda: run_script([sys.executable, "-c", "import json"]), repeat, children_cpu
    )
    official_seconds, printed = best_time(lambda: run_script(command), repeat, children_cpu)
    same = bool(printed) and all(result.get(key) == value for key, value in printed.items())
    print(f"official script {official}: {official_seconds:.3f} s  printed {json.dumps(printed)}")
    print(f"same figures as ours, every key it printed (exact float equality): {same}")
    beside_floor(
        f"metrics.{label}_official",
        official_seconds,
        floor_seconds + startup,
        "s",
        what=f"the official script, {label} (a subprocess: start, read, score, print)",
        floor_what=f"{FLOOR_WHAT}, plus starting Python ({startup:.3f} s)",
    )
    print(f"ours is {official_seconds / ours_seconds:.2f}x faster than the official script")
    return same


def time_part(label: str, files: dict[str, Path], official: Path | None, repeat: int) -> bool:
    """Time ours and the floor (and the official script when given); return whether the
    official figures, when there are any, equal ours."""
    ours_run = time_ours(label, files, repeat)
    if official is None:
        flag = "--official" if label == "v1" else "--official-v2"
        print(f"no official script given ({flag} PATH): none timed, none compared")
        return True
    return time_official(label, files, official, repeat, ours_run)


def part_v1(folder: Path, args) -> bool:
    data, dataset, predictions = build(args.questions)
    truths = sum(len(answers) for answers in dataset.values())
    print(
        f"SQuAD v1.1: {len(dataset):,} questions, {truths:,} ground truths, "
        f"{len(predictions):,} predictions ({len(dataset) - len(predictions):,} "
        f"missing); least CPU time of {args.repeat} runs"
    )
    files = write_files(folder, "v1", data, "1.1", predictions=predictions)
    return time_part("v1", files, args.official, args.repeat)


def part_v2(folder: Path, args) -> bool:
    data, dataset, predictions, na_probs = build_v2(args.v2_questions)
    unanswerable = sum(1 for truths in dataset.values() if not truths)
    print(
        f"SQuAD v2.0: {len(dataset):,} questions ({unanswerable:,} unanswerable), "
        f"{len(predictions):,} predictions "
        f'({sum(1 for p in predictions.values() if not p):,} ""), with no-answer '
        f"probabilities; least CPU time of {args.repeat} runs"
    )
    files = write_files(folder, "v2", data, "v2.0", predictions=predictions, na_probs=na_probs)
    same = time_part("v2", files, args.official_v2, args.repeat)
    seconds, result = best_time(
        lambda: no_answer_classification(dataset, predictions, SQUAD_EN), args.repeat
    )
    print(
        f"for information, no_answer_classification in memory: {seconds:.3f} s "
        f"(F1 {result['f1']:.2f})"
    )
    return same


def parse_args(argv: list[str] | None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=QUESTIONS)
    parser.add_argument("--v2-questions", type=int, default=V2_QUESTIONS)
    parser.add_argument("--repeat", type=int, default=REPEATS)
    parser.add_argument("--only", choices=["v1", "v2"], default=None)
    parser.add_argument(
        "--official", type=Path, help="path of the official evaluate-v1.1.py, to time it too"
    )
    parser.add_argument(
        "--official-v2", type=Path, help="path of the official evaluate-v2.0.py, to time it too"
    )
    args = parser.parse_args(argv)
    for script in (args.official, args.official_v2):
        if script is not None and not script.is_file():
            parser.error(f"{script}: no such file")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print_machine()
    same = True
    with tempfile.TemporaryDirectory(prefix="metrics-speed-") as folder:
        if args.only != "v2":
            same &= part_v1(Path(folder), args)
        if args.only != "v1":
            same &= part_v2(Path(folder), args)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
