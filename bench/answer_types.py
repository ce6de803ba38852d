"""Time answer types in context for 62,000 answers (FQuAD 1.1's size), against 60 s.

Builds 62,000 answers by cycling PIAF v1.0's answers in their 761 paragraphs (those at
their offset: all but a few of the 3,835): copy k
(k ≥ 1) of a paragraph ends with " [k]", so that every copy is a distinct context that
`evaluation.services.analysis.answer_types.answer_types` parses (it parses each distinct context
once, and a
real release has no duplicated paragraphs); the answers' offsets do not move. That is 16
copies and part of a 17th: about 12,300 paragraphs. Building them is not timed.

Then, for each pipeline (`fr_core_news_md`, the one the analysis uses, and `fr_core_news_sm`)
and each process count (1 and 2), one timed run of `answer_types(items, nlp=…,
n_process=…)`: the parse of the sentences holding answers (lemmatizer excluded, the entity
recogniser only where the rules read entities; n_process forks workers) and the typing of
every answer. Loading the pipeline is timed apart. Prints the seconds and
the answers per second beside the target, **62,000 answers within 60 s**, the CPU seconds
(this process and its ended children: a figure that other work on the machine barely
changes), the machine's core count and load average, and the share of each type
(`tests/evaluation/test_answer_type_agreement.py` says which pipeline agrees with people).

Run it alone from the project root: `.venv/bin/python bench/answer_types.py` (no Django, no
database; it reads `../shared/data/piaf/piaf-v1.0.json`). Options: `--answers N`,
`--models fr_core_news_md,fr_core_news_sm`, `--processes 1,2`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from figures import beside_floor, print_machine  # noqa: E402

from evaluation.services.analysis.answer_types import AnswerType, answer_types, load_french  # noqa: E402

PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
TARGET_ANSWERS = 62_000
TARGET_SECONDS = 60.0


def build_items(count: int) -> list[tuple[str, int, str]]:
    """Return `count` (context, answer_start, text) items: PIAF's answers, cycled."""
    if not PIAF.is_file():
        sys.exit(f"{PIAF} is missing: the benchmark replicates PIAF v1.0's answers")
    paragraphs = [
        (paragraph["context"], [q["answers"][0] for q in paragraph["qas"] if q["answers"]])
        for article in json.loads(PIAF.read_text(encoding="utf-8"))["data"]
        for paragraph in article["paragraphs"]
    ]
    paragraphs = [  # a few PIAF answers are not at their offset: left out, as releases do
        (context, [a for a in answers if _aligned(context, a)]) for context, answers in paragraphs
    ]
    items: list[tuple[str, int, str]] = []
    copy = 0
    while len(items) < count:
        for context, answers in paragraphs:
            varied = context if copy == 0 else f"{context} [{copy}]"
            for answer in answers:
                items.append((varied, answer["answer_start"], answer["text"]))
                if len(items) == count:
                    return items
        copy += 1
    return items


def _aligned(context: str, answer: dict) -> bool:
    start, text = answer["answer_start"], answer["text"]
    return bool(text) and context[start : start + len(text)] == text


def _cpu_seconds() -> float:
    """Return the CPU seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def time_run(items, model: str, processes: int) -> dict:
    """Time one run of answer_types; return the figures."""
    started = time.perf_counter()
    nlp = load_french(model)
    loaded = time.perf_counter() - started
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    types = answer_types(items, nlp=nlp, n_process=processes)
    seconds = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu_started
    # The floor: the pipeline's tokenizer alone over the same distinct paragraphs, one process
    # (what any typing with spaCy does at least).
    contexts = list(dict.fromkeys(context for context, _start, _text in items))
    started = time.perf_counter()
    for _doc in nlp.tokenizer.pipe(contexts, batch_size=64):
        pass
    floor = time.perf_counter() - started
    return {
        "floor_s": floor,
        "model": model,
        "processes": processes,
        "load_s": loaded,
        "seconds": seconds,
        "per_second": len(items) / seconds,
        "cpu_s": cpu,
        "types": Counter(types),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=TARGET_ANSWERS)
    parser.add_argument("--models", default="fr_core_news_md,fr_core_news_sm")
    parser.add_argument("--processes", default="1,2")
    args = parser.parse_args(argv)
    items = build_items(args.answers)
    contexts = len({context for context, _s, _t in items})
    target = TARGET_SECONDS * len(items) / TARGET_ANSWERS
    print(
        f"{len(items):,} answers in {contexts:,} paragraphs; target {target:.1f} s "
        f"({TARGET_SECONDS:.0f} s for {TARGET_ANSWERS:,}); {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f} before the runs",
        flush=True,
    )
    for model in args.models.split(","):
        for processes in (int(n) for n in args.processes.split(",")):
            figures = time_run(items, model, processes)
            met = "met" if figures["seconds"] <= target else "NOT met"
            shares = ", ".join(
                f"{kind.value} {100 * figures['types'][kind] / len(items):.1f} %"
                for kind in AnswerType
            )
            print(
                f"{model}, {processes} process(es): {figures['seconds']:.1f} s, "
                f"{figures['per_second']:,.0f} answers/s (target {target:.1f} s: {met}); "
                f"CPU {figures['cpu_s']:.1f} s; loading {figures['load_s']:.1f} s; "
                f"load average now {os.getloadavg()[0]:.2f}\n  {shares}",
                flush=True,
            )
            beside_floor(
                f"answer_types.{model}.{processes}p",
                figures["seconds"],
                figures["floor_s"],
                "s",
                what="  the run",
                floor_what=f"the tokenizer alone over the {contexts:,} paragraphs, one process",
            )
    print_machine()


if __name__ == "__main__":
    main()
