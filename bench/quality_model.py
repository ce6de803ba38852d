"""A pure model of bench/quality_sim.py: the same population, rule and draws, no database.

Run from the project root: `.venv/bin/python bench/quality_model.py [--seeds 100]`
(bench/README.md, "quality_sim.py").

quality_sim.py drives two campaigns through the API and takes minutes a seed; this model plays
the same campaigns in memory in about a fifth of a second a seed, so the rule can be judged on
many seeds. It shares the platform's code rather than copying it: the rule
(`annotation.review_rate.adapted_rate`), the per-question review draw
(`annotation.review_rate.decide_next`, which `annotation.services.audit.review_sample` runs on
the counter row) and the gold draw (`annotation.services.gold.gold_drawn`). What it models of
the platform around them: a claim's gold draw is keyed by the number of leases the person had
in the campaign; the rate of a paragraph's questions is decided at its submission from the
reviews of the earlier rounds and the gold answers so far; reviewers empty the queue after each
round; the users' ids are those the simulation's fresh database gives (admin 1, the gold
makers 2–5, then each campaign's annotators and its two reviewers). It gives quality_sim.py's
figures exactly (seeds 1 to 5, and seeds 1 and 2 under the first rule: bench/README.md).

It prints one line per seed and how many seeds meet each of issue 28's targets, and exits 1
when a seed misses one.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from quality_sim import (  # noqa: E402
    ADAPTIVE,
    FIXED,
    FLAG_WITHIN,
    GOLD_SHARE,
    QUESTIONS_PER_PARAGRAPH,
    TARGET_SAVING,
    Outcome,
    Person,
    population,
)

FIRST_ID = 6  # admin 1, gold-a, gold-b, gold-c, gold-reviewer: 2–5
GOLD_POOL = 40


@dataclass
class Played:
    """One annotator's state in a modelled campaign."""

    person: Person
    user_id: int
    counts: object
    evidence: dict = field(default_factory=lambda: dict.fromkeys(("r", "re", "g", "ge"), 0))
    leases: int = 0
    queued: list = field(default_factory=list)


def _evidence(played: Played):
    from annotation.review_rate import Evidence

    e = played.evidence
    return Evidence(reviewed=e["r"], review_errors=e["re"], gold=e["g"], gold_errors=e["ge"])


def _decision(played: Played):
    from annotation.review_rate import adapted_rate

    return adapted_rate(
        _evidence(played),
        base=ADAPTIVE["review_rate"],
        floor=ADAPTIVE["review_floor"],
        ceiling=ADAPTIVE["review_ceiling"],
        bar=ADAPTIVE["review_error_bar"],
    )


def _write(played: Played, settings: dict, seed: int) -> None:
    """The person's claims of one round: gold items while the draw says so, then a paragraph
    of questions, each decided for review at the rate of the moment."""
    from annotation.review_rate import Why, decide_next
    from annotation.services.gold import gold_drawn

    person = played.person
    while person.golds < GOLD_POOL and gold_drawn(
        seed=seed, share=GOLD_SHARE, user_id=played.user_id, position=played.leases
    ):
        played.leases += 1
        played.evidence["g"] += 1
        played.evidence["ge"] += person.gold_wrong[person.golds]
        person.golds += 1
    played.leases += 1
    if settings.get("review_adaptive"):
        decision = _decision(played)
        rate, why = decision.rate, decision.why
    else:
        rate, why = settings["review_rate"], Why.FIXED
    key = f"user:{played.user_id}:epoch:0"
    drawn = decide_next(
        played.counts, count=QUESTIONS_PER_PARAGRAPH, rate=rate, why=why, key=key, seed=seed
    )
    wrong = person.wrong[person.written : person.written + QUESTIONS_PER_PARAGRAPH]
    played.queued += [
        is_wrong for (picked, _rate, _why), is_wrong in zip(drawn, wrong, strict=True) if picked
    ]
    person.written += QUESTIONS_PER_PARAGRAPH


def play(name, settings, people_spec, *, seed: int, first_id: int) -> Outcome:
    """One campaign, modelled: the same Outcome as quality_sim.run_campaign's."""
    from annotation.review_rate import Counts

    outcome = Outcome(name=name)
    everyone = []
    for index, (person_name, error, wrong, gold_wrong) in enumerate(people_spec):
        person = Person(name=person_name, error=error, wrong=wrong, gold_wrong=gold_wrong)
        counts = Counts(
            seen=0,
            sampled=0,
            expected=Decimal(0),
            warmup=settings.get("review_warmup", 0),
            warmup_rate=settings.get("review_warmup_rate", Decimal(1)),
        )
        everyone.append(Played(person=person, user_id=first_id + index, counts=counts))
        outcome.people.append(person)
    for _round in range(len(people_spec[0][2]) // QUESTIONS_PER_PARAGRAPH):
        for played in everyone:
            _write(played, settings, seed)
        for played in everyone:  # the reviewers empty the queue, then the admin's look
            outcome.reviewed += len(played.queued)
            outcome.caught += sum(played.queued)
            played.evidence["r"] += len(played.queued)
            played.evidence["re"] += sum(played.queued)
            played.queued = []
            if played.person.flagged_at is None and _decision(played).flagged:
                played.person.flagged_at = played.person.written
    outcome.gold_answers = sum(person.golds for person in outcome.people)
    outcome.wrong = sum(sum(spec[2]) for spec in people_spec)
    return outcome


def model(seed: int, *, careful=16, careless=4, questions=300):
    """(fixed, adaptive) for one seed, the users' ids as quality_sim.py's database gives them."""
    people = population(seed, careful, careless, questions)
    fixed = play("fixed", FIXED, people, seed=seed, first_id=FIRST_ID)
    adaptive_first = FIRST_ID + len(people) + 2  # after the fixed campaign's two reviewers
    adaptive = play("adaptive", ADAPTIVE, people, seed=seed, first_id=adaptive_first)
    return fixed, adaptive


def targets(fixed: Outcome, adaptive: Outcome) -> dict[str, bool]:
    """Issue 28's four targets, as quality_sim.report checks them."""
    saving = 1 - adaptive.reviewed / fixed.reviewed if fixed.reviewed else 0.0
    flags = adaptive.careless_flags()
    return {
        "saving": saving >= TARGET_SAVING,
        "caught": adaptive.caught_share >= fixed.caught_share,
        "careless": all(value is not None and value <= FLAG_WITHIN for value in flags),
        "careful": adaptive.false_flags() == 0,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=100, help="seeds 1 to N")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--questions", type=int, default=300, help="per annotator")
    args = parser.parse_args(argv)
    import django

    django.setup()
    met = dict.fromkeys(("saving", "caught", "careless", "careful", "all"), 0)
    for seed in range(args.first, args.first + args.seeds):
        fixed, adaptive = model(seed, questions=args.questions)
        held = targets(fixed, adaptive)
        for what, ok in held.items():
            met[what] += ok
        met["all"] += all(held.values())
        saving = 1 - adaptive.reviewed / fixed.reviewed
        print(
            f"seed {seed}: {adaptive.reviewed} against {fixed.reviewed} items ({-saving:+.1%}), "
            f"caught {adaptive.caught_share:.1%} against {fixed.caught_share:.1%}, careless "
            f"flagged at {adaptive.careless_flags()}, careful flagged {adaptive.false_flags()}"
            + (
                ""
                if all(held.values())
                else "  MISSED: " + ", ".join(k for k, v in held.items() if not v)
            ),
            flush=True,
        )
    print(f"seeds meeting each target (of {args.seeds}): {met}")
    return 0 if met["all"] == args.seeds else 1


if __name__ == "__main__":
    sys.exit(main())
