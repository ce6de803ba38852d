"""Draw the hold-out sample of answer types (issue 25, item 19), reproducibly.

Run from the project root:

    python tests/data/answer_types/draw_holdout.py            # the 150 drawn rows, unlabelled
    python tests/data/answer_types/draw_holdout.py --context  # the same, each in its sentences
    python tests/data/answer_types/draw_holdout.py --second   # the second hold-out (seed 4242)
    python tests/data/answer_types/draw_holdout.py --third    # the third hold-out (seed 9191)
    python tests/data/answer_types/draw_holdout.py --fourth   # the fourth hold-out (seed 6262)
    python tests/data/answer_types/draw_holdout.py --fifth    # the fifth hold-out (seed 7373, 300)
    python tests/data/answer_types/draw_holdout.py --sixth    # the sixth hold-out (seed 8484, 300)

The eligible answers are the first answer of every question of PIAF v1.0, in file order
(articles, paragraphs, questions), kept only where the answer's text is at its `answer_start`
in the paragraph (3,833 of 3,835). A draw shuffles that list with `random.Random(seed)` and
takes the first 150 answers whose id is not excluded.

The tuning sample (seed 7, labelled by the engineer who changes the rules) is drawn first, the
same way, excluding only `piaf_200.jsonl`; the hold-out (seed 2611) excludes `piaf_200.jsonl`
and the tuning sample, so the three samples are disjoint. The second hold-out (seed 4242)
excludes the ids of every labelled file before it: `piaf_200.jsonl`, `piaf_tune_150.jsonl`,
`piaf_check_100.jsonl` and `piaf_holdout_150.jsonl`, read from the files themselves. The third
hold-out (seed 9191) excludes those and `piaf_holdout2_150.jsonl` too; the fourth (seed 6262)
excludes those and `piaf_holdout3_150.jsonl` too; the fifth (seed 7373, 300 answers) excludes
those and `piaf_holdout4_150.jsonl` too; the sixth (seed 8484, 300 answers) excludes those and
`piaf_holdout5_300.jsonl` too. Only the
standard library is used: no Django, and the answer-type pipeline is never run here.
"""

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PIAF = HERE.parents[2].parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
PIAF_200 = HERE / "piaf_200.jsonl"
TUNING_SEED = 7
HOLDOUT_SEED = 2611
SECOND_SEED = 4242
# The labelled files the second hold-out must not share an answer with.
BEFORE_SECOND = (
    "piaf_200.jsonl",
    "piaf_tune_150.jsonl",
    "piaf_check_100.jsonl",
    "piaf_holdout_150.jsonl",
)
THIRD_SEED = 9191
# The labelled files the third hold-out must not share an answer with.
BEFORE_THIRD = (*BEFORE_SECOND, "piaf_holdout2_150.jsonl")
FOURTH_SEED = 6262
# The labelled files the fourth hold-out must not share an answer with.
BEFORE_FOURTH = (*BEFORE_THIRD, "piaf_holdout3_150.jsonl")
FIFTH_SEED, FIFTH_SIZE = 7373, 300
# The labelled files the fifth hold-out must not share an answer with.
BEFORE_FIFTH = (*BEFORE_FOURTH, "piaf_holdout4_150.jsonl")
SIXTH_SEED = 8484
# The labelled files the sixth hold-out must not share an answer with.
BEFORE_SIXTH = (*BEFORE_FIFTH, "piaf_holdout5_300.jsonl")
SIZE = 150


def eligible(piaf: Path = PIAF) -> list[dict]:
    """Return PIAF's first answers at their offset, in file order, with their paragraph."""
    data = json.loads(piaf.read_text(encoding="utf-8"))["data"]
    rows = []
    for article in data:
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            for question in paragraph["qas"]:
                if not question["answers"]:
                    continue
                answer = question["answers"][0]
                start, text = answer["answer_start"], answer["text"]
                if context[start : start + len(text)] != text:
                    continue
                rows.append(
                    {
                        "id": question["id"],
                        "question": question["question"],
                        "answer": text,
                        "answer_start": start,
                        "context": context,
                    }
                )
    return rows


def draw(rows: list[dict], seed: int, excluded: set[str], size: int = SIZE) -> list[dict]:
    """Shuffle the eligible rows with `seed`; return the first `size` not excluded."""
    shuffled = list(rows)
    random.Random(seed).shuffle(shuffled)  # noqa: S311 (a reproducible sample, no secret)
    return [row for row in shuffled if row["id"] not in excluded][:size]


def ids_in(path: Path) -> set[str]:
    """Return the ids of a labelled JSON-lines file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["id"] for line in lines}


def piaf_200_ids() -> set[str]:
    return ids_in(PIAF_200)


def later_holdout(
    seed: int, before: tuple[str, ...], piaf: Path = PIAF, size: int = SIZE
) -> list[dict]:
    """Return the `seed` draw of `size`, none of it in the files `before`, in file order."""
    rows = eligible(piaf)
    order = {row["id"]: n for n, row in enumerate(rows)}
    excluded = set().union(*(ids_in(HERE / name) for name in before))
    return sorted(draw(rows, seed, excluded, size), key=lambda row: order[row["id"]])


def second_holdout(piaf: Path = PIAF) -> list[dict]:
    """Return the seed-4242 draw, none of it in a file labelled before it, in file order."""
    return later_holdout(SECOND_SEED, BEFORE_SECOND, piaf)


def third_holdout(piaf: Path = PIAF) -> list[dict]:
    """Return the seed-9191 draw, none of it in the five samples before it, in file order."""
    return later_holdout(THIRD_SEED, BEFORE_THIRD, piaf)


def fourth_holdout(piaf: Path = PIAF) -> list[dict]:
    """Return the seed-6262 draw, none of it in the six samples before it, in file order."""
    return later_holdout(FOURTH_SEED, BEFORE_FOURTH, piaf)


def fifth_holdout(piaf: Path = PIAF) -> list[dict]:
    """Return the seed-7373 draw of 300, none of it in the seven samples before it, in file
    order."""
    return later_holdout(FIFTH_SEED, BEFORE_FIFTH, piaf, FIFTH_SIZE)


def sixth_holdout(piaf: Path = PIAF) -> list[dict]:
    """Return the seed-8484 draw of 300, none of it in the eight samples before it, in file
    order."""
    return later_holdout(SIXTH_SEED, BEFORE_SIXTH, piaf, FIFTH_SIZE)


def tuning_and_holdout(piaf: Path = PIAF) -> tuple[list[dict], list[dict]]:
    """Return the seed-7 tuning draw and the seed-2611 hold-out draw, each in file order."""
    rows = eligible(piaf)
    order = {row["id"]: n for n, row in enumerate(rows)}
    old = piaf_200_ids()
    tuning = draw(rows, TUNING_SEED, old)
    holdout = draw(rows, HOLDOUT_SEED, old | {row["id"] for row in tuning})
    return (
        sorted(tuning, key=lambda row: order[row["id"]]),
        sorted(holdout, key=lambda row: order[row["id"]]),
    )


def sentence_around(context: str, start: int, end: int) -> str:
    """Return the answer's sentence(s), the answer between [[ ]], for reading it in place."""
    left = max(context.rfind(". ", 0, start), context.rfind("\n", 0, start))
    left = 0 if left < 0 else left + 1
    right = context.find(". ", end)
    right = len(context) if right < 0 else right + 1
    left = max(left, start - 400)
    right = min(right, end + 300)
    return (context[left:start] + "[[" + context[start:end] + "]]" + context[end:right]).strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--context", action="store_true", help="print each in its sentences")
    parser.add_argument("--seed", type=int, choices=[TUNING_SEED, HOLDOUT_SEED], default=2611)
    parser.add_argument(
        "--second", action="store_true", help="the second hold-out (seed 4242), not --seed's"
    )
    parser.add_argument(
        "--third", action="store_true", help="the third hold-out (seed 9191), not --seed's"
    )
    parser.add_argument(
        "--fourth", action="store_true", help="the fourth hold-out (seed 6262), not --seed's"
    )
    parser.add_argument(
        "--fifth", action="store_true", help="the fifth hold-out (seed 7373, 300 answers)"
    )
    parser.add_argument(
        "--sixth", action="store_true", help="the sixth hold-out (seed 8484, 300 answers)"
    )
    args = parser.parse_args()
    if args.sixth:
        sample = sixth_holdout()
    elif args.fifth:
        sample = fifth_holdout()
    elif args.fourth:
        sample = fourth_holdout()
    elif args.third:
        sample = third_holdout()
    elif args.second:
        sample = second_holdout()
    else:
        tuning, holdout = tuning_and_holdout()
        sample = holdout if args.seed == HOLDOUT_SEED else tuning
    for n, row in enumerate(sample):
        if args.context:
            end = row["answer_start"] + len(row["answer"])
            print(f"--- {n} {row['id']}\nQ: {row['question']}\nA: {row['answer']}")
            print(sentence_around(row["context"], row["answer_start"], end) + "\n")
        else:
            out = {key: row[key] for key in ("id", "question", "answer", "answer_start")}
            sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
