"""Leave-one-sample-out agreement of the answer-type rules of issue 25's rounds 3 to 5.

Every rule of those rounds is listed (`_round3_rules`, `_round4_rules`, `_round5_rules`) with
the samples whose
misses were read while it was written (its provenance). A rule cannot be judged on a sample it
was written on, so each sample is typed with the rules written WITHOUT it: the rules whose
provenance names that sample are switched off (their functions replaced by ones that decide
nothing, their word additions taken back), the others left on. The samples' predictions,
gathered that way, give the leave-one-sample-out figure per sample, per category and in all,
with Cohen's κ, beside round 2 (every rule of rounds 3 to 5 off) and each later round whole
(the rounds after it off; optimistic on the samples it was written on). The figures are
printed per sample, on the four samples no rule had seen when each was first scored
(holdout2 to holdout5, 750 answers), and on all eight (1,350).

The rules of rounds 1 and 2 were written looking at the first four samples and cannot be
switched off one by one: on those four, even the leave-one-out columns keep them;
`piaf_holdout2_150` and `piaf_holdout3_150` are the samples none of them saw.
docs/answer-types.md ("Round 3", "Round 4", "Round 5") has the figures.

Run from the project root: `.venv/bin/python bench/answer_type_loso.py [--misses]` (no
Django, no database; reads ../shared/data/piaf/piaf-v1.0.json; about a minute).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.answer_type_score import PIAF, contexts_by_question, read_sample, table  # noqa: E402
from evaluation.services.analysis.answer_types import (  # noqa: E402
    answer_types,
    classify,
    classnouns,
    clauses,
    dates,
    load_french,
    names,
    numbers,
    paragraph,
    tokens,
)

DATA = ROOT / "tests" / "data" / "answer_types"
SAMPLES = (
    "piaf_200",
    "piaf_tune_150",
    "piaf_check_100",
    "piaf_holdout_150",
    "piaf_holdout2_150",
    "piaf_holdout3_150",
    "piaf_holdout4_150",
    "piaf_holdout5_300",
)
# The samples no rule was written on when each was first scored: holdout2 and holdout3 for
# rounds 1 and 2, holdout4 and holdout5 for rounds 1 to 4 (750 answers).
UNSEEN = ("piaf_holdout2_150", "piaf_holdout3_150", "piaf_holdout4_150", "piaf_holdout5_300")
BASE = "ab1a0df"  # main with issue 25's second round: the word lists round 3 added to
RULES_DIR = "evaluation/services/analysis/answer_types"


def _base_module(name: str) -> dict[str, Any]:
    """Return the names of the module `name` (kinds or dates) as it was at BASE."""
    source = subprocess.run(
        ["git", "show", f"{BASE}:{RULES_DIR}/{name}.py"],  # noqa: S607 (the project's git)
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    namespace: dict[str, Any] = {"__name__": f"round2_{name}"}
    exec(compile(source, f"{BASE}:{name}.py", "exec"), namespace)  # noqa: S102 (our own code)
    return namespace


def _words(attribute: str, value: Any) -> list[tuple[Any, str, Any]]:
    """Return the patches that give a word list its value in every rule module that reads it
    (names.py was split in round 4: its lists are read by names, classnouns and paragraph)."""
    return [
        (module, attribute, value)
        for module in (names, classnouns, paragraph)
        if hasattr(module, attribute)
    ]


def _never(*_args: Any) -> None:
    return None


def _no(*_args: Any) -> bool:
    return False


def _round3_rules() -> dict[str, tuple[set[str], list[tuple[Any, str, Any]]]]:
    """Return {rule: (samples read while writing it, [(module, attribute, round-2 value)])}."""
    kinds2, dates2 = _base_module("kinds"), _base_module("dates")
    nothing = re.compile(r"(?!)")
    return {
        "foreign title": ({"piaf_200", "piaf_check_100"}, [(classify, "_foreign_title", _never)]),
        "located in a place": ({"piaf_check_100"}, [(classify, "_located_in", _never)]),
        "person titles and trades": (
            {"piaf_holdout2_150", "piaf_check_100"},
            _words("PERSON_NOUNS", kinds2["PERSON_NOUNS"]),
        ),
        "acts and events": (
            {"piaf_holdout2_150"},
            [*_words("EVENT_NOUNS", kinds2["EVENT_NOUNS"]), *_words("FOREIGN_OF", frozenset())],
        ),
        "works and brands": (
            {"piaf_200", "piaf_check_100", "piaf_holdout2_150"},
            _words("WORK_NOUNS", frozenset()),
        ),
        "class noun in the paragraph": (
            {"piaf_200", "piaf_check_100", "piaf_holdout2_150"},
            [(classify, "_context_class", _never)],
        ),
        "geographic noun and adjective": (
            {"piaf_holdout2_150"},
            [
                (classify, "_geographic_name", _never),
                *_words("PLACE_NOUNS", kinds2["PLACE_NOUNS"]),
            ],
        ),
        "horizon": ({"piaf_holdout2_150"}, [(dates, "DATE_FILLERS", dates2["DATE_FILLERS"])]),
        "negative years": ({"piaf_holdout2_150"}, [(dates, "_NEGATIVE_YEAR", nothing)]),
        "gloss": ({"piaf_200", "piaf_holdout2_150"}, [(classify, "_is_gloss", _no)]),
        "cited word after a language": (
            {"piaf_holdout_150", "piaf_holdout2_150"},
            [(clauses, "_past_language", lambda _doc, at: at)],
        ),
        "negated verb": (
            {"piaf_holdout2_150", "piaf_tune_150"},
            [(classify, "_is_negated", _no)],
        ),
        "whole sentence": ({"piaf_200"}, [(classify, "_is_sentence", _no)]),
        "nickname": (
            {"piaf_200", "piaf_check_100", "piaf_holdout_150"},
            [(classify, "_nickname", _never)],
        ),
        "opening adjective": ({"piaf_holdout2_150"}, [(classify, "_opening_adjective", _never)]),
    }


@contextmanager
def switched_off(patches: list[tuple[Any, str, Any]]) -> Iterator[None]:
    """Give the modules' attributes their round-2 values, and back on leaving."""
    saved = [(module, attribute, getattr(module, attribute)) for module, attribute, _ in patches]
    try:
        for module, attribute, value in patches:
            setattr(module, attribute, value)
        yield
    finally:
        for module, attribute, value in saved:
            setattr(module, attribute, value)


def typed(nlp: Any, rows: list[dict]) -> list[str]:
    """Return the types of the rows' answers, in order."""
    items = [(row["context"], row["answer_start"], row["answer"]) for row in rows]
    return [kind.value for kind in answer_types(items, nlp=nlp)]


def _round4_rules() -> dict[str, tuple[set[str], list[tuple[Any, str, Any]]]]:
    """Return round 4's rules as `_round3_rules` does, each with its round-3 value."""
    h3, check = {"piaf_holdout3_150"}, {"piaf_check_100"}
    minus = lambda module, name, *words: (module, name, getattr(module, name) - set(words))  # noqa: E731
    return {
        "time phrase": (h3, [(classify, "is_time_phrase", _no)]),
        "year by its neighbours": (h3, [(classify, "is_year_in_context", _no)]),
        "fractions": (h3, [minus(numbers, "NUMBER_NOUNS", "tiers", "moitié")]),
        "one rank": (h3, [(numbers, "RANKS_COUNTED", frozenset())]),
        "one of a choice": (check, [(numbers, "_one_of_a_choice", _no)]),
        "past historic": (h3, [(clauses, "_PAST_HISTORIC", re.compile(r"(?!)"))]),
        "à partir de": (h3, [(classify, "_past_compound_preposition", lambda tokens: tokens)]),
        "graded participle": (
            h3,
            [
                (tokens, "_graded_participle", _no),
                minus(tokens, "DEGREE_ADVERBS", "fortement", "profondément"),
            ],
        ),
        "parser's adjective": (
            h3 | {"piaf_holdout_150"},
            [(tokens, "_parser_adjective", _no)],
        ),
        "people's noun and name": (
            h3,
            [(classify, "_demonym_and_name", _never), (paragraph, "_people_before", _no)],
        ),
        "building names": (h3, [(classify, "_building_name", _never)]),
        "team by its town": (
            {"piaf_holdout_150", "piaf_holdout2_150", "piaf_holdout3_150"},
            [(classify, "_team_by_its_town", _never)],
        ),
        "synonym cited": (
            h3,
            [
                minus(clauses, "CITATION_NOUNS", "synonyme", "synonymes"),
                minus(clauses, "CITATION_DETERMINERS", "comme"),
            ],
        ),
    }


def _round5_rules() -> dict[str, tuple[set[str], list[tuple[Any, str, Any]]]]:
    """Return round 5's rules as `_round3_rules` does: each cause was met in two samples or
    more, and every sample whose miss it fixes was read (docs/answer-types.md, "Round 5")."""
    return {
        "race by its length": (
            {"piaf_tune_150", "piaf_holdout4_150"},
            [(classify, "is_race", _no)],
        ),
        "colours": ({"piaf_200", "piaf_holdout5_300"}, [(classify, "is_colour", _no)]),
        "school names": (
            {"piaf_holdout3_150", "piaf_holdout4_150", "piaf_holdout5_300"},
            [(classify, "_school_name", _never)],
        ),
        "nouns listed": (
            {"piaf_200", "piaf_holdout5_300"},
            [(classify, "_listed_nouns", _never)],
        ),
        "foreign word in brackets": (
            {"piaf_holdout_150", "piaf_holdout5_300"},
            [(classify, "is_foreign_in_brackets", _no)],
        ),
    }


Rules = dict[str, tuple[set[str], list[tuple[Any, str, Any]]]]


def _columns(nlp: Any, samples: dict[str, list[dict]], rounds: list[Rules]) -> dict:
    """Return {column: {sample: predicted types}}: round 2 (no rule of rounds 3 to 5), each
    later round whole (the rounds after it off) and left one sample out (the rules of rounds
    3 to it whose provenance names the sample off, the rounds after it off)."""
    patches = lambda rules: [patch for _seen, some in rules.values() for patch in some]  # noqa: E731
    seen_by = lambda rules, name: [  # noqa: E731
        patch for seen, some in rules.values() if name in seen for patch in some
    ]
    columns: dict[str, dict[str, list[str]]] = {}
    for name, rows in samples.items():
        passes = {"round 2": [patch for rules in rounds for patch in patches(rules)]}
        for number, _rules in enumerate(rounds, start=3):
            later = [patch for rules in rounds[number - 2 :] for patch in patches(rules)]
            passes[f"round {number}"] = later
            passes[f"round {number}, leave one out"] = later + [
                patch for rules in rounds[: number - 2] for patch in seen_by(rules, name)
            ]
        for column, off in passes.items():
            with switched_off(off):
                columns.setdefault(column, {})[name] = typed(nlp, rows)
    return columns


def _changes(samples: dict[str, list[dict]], old: dict, new: dict) -> str:
    """Return how many answers `new` types otherwise than `old`, made right, made wrong."""
    changed = fixed = broken = 0
    for name, rows in samples.items():
        for row, before, after in zip(rows, old[name], new[name], strict=True):
            changed += before != after
            fixed += before != row["label"] == after
            broken += before == row["label"] != after
    return f"{changed} answers typed otherwise, {fixed} made right, {broken} made wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list round 5's LOSO misses")
    args = parser.parse_args()

    contexts = contexts_by_question(PIAF)
    rounds = [_round3_rules(), _round4_rules(), _round5_rules()]
    samples = {name: read_sample(DATA / f"{name}.jsonl", contexts) for name in SAMPLES}
    columns = _columns(load_french(), samples, rounds)
    for old, new in (
        ("round 2", "round 3"),
        ("round 3", "round 4"),
        ("round 4", "round 5"),
        ("round 3, leave one out", "round 4, leave one out"),
        ("round 4, leave one out", "round 5, leave one out"),
    ):
        print(f"{new} against {old}: {_changes(samples, columns[old], columns[new])}")
    for number, rules in enumerate(rounds, start=3):
        print(f"round-{number} rules and the samples read while writing them:")
        for rule, (seen, _patches) in rules.items():
            print(f"  {rule:<31} {', '.join(sorted(seen))}")
    for column, predicted in columns.items():
        print(f"\n== {column}")
        for name, rows in samples.items():
            labels = [row["label"] for row in rows]
            print(f"{name}: {table(labels, predicted[name])[-1].split(maxsplit=1)[1]}")
            if args.misses and column == "round 5, leave one out":
                for row, kind in zip(rows, predicted[name], strict=True):
                    if row["label"] != kind:
                        print(f"    {row['label']:>12} → {kind:<12} {row['answer']!r}")
        _totals(samples, predicted)


def _totals(samples: dict[str, list[dict]], predicted: dict[str, list[str]]) -> None:
    """Print a column's table on the four samples unseen when first scored, then on all."""
    for chosen, title in (
        (UNSEEN, f"the {len(UNSEEN)} samples unseen when first scored"),
        (tuple(samples), "all (the 6 answers in two samples counted twice)"),
    ):
        labels = [row["label"] for name in chosen for row in samples[name]]
        print(f"{title}, {len(labels)} answers:")
        print("\n".join(table(labels, [kind for name in chosen for kind in predicted[name]])))


if __name__ == "__main__":
    main()
