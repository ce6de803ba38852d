"""The sliding-window baseline's EM/F1 on XQuAD's English file (SQuAD v1.1 dev) and on PIAF.

Issue 25, item 15: Rajpurkar et al. (SQuAD, EMNLP 2016) report 13.3 EM / 20.2 F1 on SQuAD
v1.1's English dev set for their sliding window (20.0 F1 with the distance-based variant).
`../shared/data/xquad/xquad.en.json` holds 1,190 of those dev questions (240 paragraphs);
PIAF v1.0 holds 3,835 French ones. For each file, this prints:

- the EM/F1 of `evaluation.baselines.sliding_window` (the SQuAD paper's method, what a
  baseline run of kind `lexical` reports), with the file's language (English: the official
  script's normalization; French: FQuAD's), and without the distance-based variant;
- the EM/F1 of `evaluation.baselines.lexical` (the model that answers annotators in the loop,
  which baseline runs used before issue 25);
- why the figures differ from the paper's: the share of answers that are one of the
  candidates (the paper: 77.3 % of its dev answers are constituents), the share of predictions
  in the answer's sentence, and the share of predictions partly right (F1 > 0, EM 0);
- the time of the whole file beside a floor measured in the same run (the same contexts and
  questions lower-cased and cut into tokens by the same regular expression, and the question's
  tokens looked up in the context's: what any lexical method must do), and the ratio.

Run it from the project root: `.venv/bin/python bench/sliding_window.py` (no Django, no
database). Options: `--repeat` (timing runs, best of; 3).
"""

from __future__ import annotations

import argparse
import bisect
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from figures import beside_floor, best_of, figure, print_machine  # noqa: E402

from evaluation.baselines import lexical, sliding_window  # noqa: E402 (needs ROOT on sys.path)
from evaluation.metrics import FQUAD_FR, SQUAD_EN, exact_match, f1, score  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
FILES = [
    ("xquad-en", DATA / "xquad" / "xquad.en.json", "en", SQUAD_EN),
    ("piaf", DATA / "piaf" / "piaf-v1.0.json", "fr", FQUAD_FR),
]


def load(path: Path) -> tuple[list[dict], dict[str, list[str]], dict[str, int]]:
    """Return the examples, {id: answer texts} and {id: the first answer's offset}."""
    examples, answers, starts = [], {}, {}
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            for question in paragraph["qas"]:
                qid = str(question["id"])
                examples.append(
                    {"id": qid, "context": paragraph["context"], "question": question["question"]}
                )
                answers[qid] = [answer["text"] for answer in question["answers"]]
                starts[qid] = question["answers"][0]["answer_start"]
    return examples, answers, starts


def floor_pass(examples: list[dict]) -> None:
    """Tokenize each context once and each question, and look the question's words up."""
    context, words = None, set()
    for example in examples:
        if example["context"] != context:
            context = example["context"]
            words = {m.group().lower() for m in sliding_window._TOKEN.finditer(context)}
        question = [m.group().lower() for m in sliding_window._TOKEN.finditer(example["question"])]
        sum(word in words for word in question)


def predict_without_distance(examples, language):
    """The basic sliding window alone (the paper's first row), for comparison."""
    original = sliding_window._Scorer.distance
    sliding_window._Scorer.distance = lambda self, candidate: 0.0
    try:
        return sliding_window.predict_all(examples, language=language)
    finally:
        sliding_window._Scorer.distance = original


def diagnose(examples, answers, starts, language, norm) -> dict[str, float]:
    """Return the candidate ceiling, the answer's-sentence share and the partly-right share."""
    ceiling = same_sentence = partly = 0
    passage = None
    for example in examples:
        if passage is None or passage.context != example["context"]:
            passage = sliding_window.Passage(example["context"], language=language)
            texts = {tuple(norm.tokens(passage.text(c))) for c in passage.candidates}
            firsts = [passage.starts[begin] for begin, _end in passage.sentences]
        truths = answers[example["id"]]
        ceiling += any(tuple(norm.tokens(truth)) in texts for truth in truths)
        text, start = sliding_window.predict_passage_span(passage, example["question"])
        if start is not None and firsts:
            gold = bisect.bisect_right(firsts, starts[example["id"]])
            same_sentence += bisect.bisect_right(firsts, start) == gold
        exact = max(exact_match(text, truth, norm) for truth in truths)
        partly += not exact and max(f1(text, truth, norm) for truth in truths) > 0
    n = len(examples)
    return {
        "ceiling": 100 * ceiling / n,
        "sentence": 100 * same_sentence / n,
        "partly": 100 * partly / n,
    }


def bench_file(name: str, path: Path, language: str, norm, repeat: int) -> None:
    """Print one file's figures, its diagnosis and its time beside the floor."""
    if not path.is_file():
        sys.exit(f"{path} is missing (../shared/data beside the checkout)")
    examples, answers, starts = load(path)
    print(f"\n{name}: {len(examples)} questions, {path.name}, {norm.name} normalization")

    def run() -> dict[str, str]:
        return sliding_window.predict_all(examples, language=language)

    runs = [
        ("sliding_window", run),
        ("sliding_window.no_distance", lambda: predict_without_distance(examples, language)),
        ("lexical_in_the_loop", lambda: lexical.predict_all(examples)),
    ]
    for label, predict in runs:
        result = score(answers, predict(), norm)
        em, f = result["exact_match"], result["f1"]
        print(f"  {label}: EM {em:.2f} / F1 {f:.2f}")
        figure(f"{name}.{label}.em", em, "%")
        figure(f"{name}.{label}.f1", f, "%")
    shares = diagnose(examples, answers, starts, language, norm)
    print(
        f"  answers that are a candidate {shares['ceiling']:.1f} %; predictions in the "
        f"answer's sentence {shares['sentence']:.1f} %; partly right (F1 > 0, EM 0) "
        f"{shares['partly']:.1f} %"
    )
    for key, value in shares.items():
        figure(f"{name}.{key}", value, "%")
    seconds = best_of(run, repeat)
    floor = best_of(lambda: floor_pass(examples), repeat)
    beside_floor(
        f"{name}.time",
        seconds,
        floor,
        "s",
        what=f"  the sliding window over {len(examples)} questions (best of {repeat})",
        floor_what="the same texts tokenized and the question's words looked up",
    )
    print(f"  {1000 * seconds / len(examples):.2f} ms a question", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print_machine()
    print("SQuAD paper (Rajpurkar et al. 2016), English dev: EM 13.3 / F1 20.2 (distance: 20.0)")
    for name, path, language, norm in FILES:
        bench_file(name, path, language, norm, args.repeat)


if __name__ == "__main__":
    main()
