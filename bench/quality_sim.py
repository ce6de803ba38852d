"""Proof by simulation of issue 28: an adaptive review rate against FQuAD's fixed 25 %.

Run from the project root: `.venv/bin/python bench/quality_sim.py` (see bench/README.md).

It builds a throw-away database (a PostgreSQL one named `qa_quality_sim_<pid>` beside
`DATABASE_URL`'s, dropped at the end; SQLite in memory without `DATABASE_URL`), migrates it,
and drives two questions campaigns through the REST API (DRF's test client, in this process:
every claim, submission and review goes through the same views, services and SQL as a real
one) with the same scripted population and seed:

- 20 annotators (`--careful 16 --careless 4`) with known error rates (3 % and 30 %): each of
  their questions is wrong with that chance, drawn in advance from the seed, so both campaigns
  get exactly the same work; each answer to a gold question is wrong with the same chance;
- reviewers who catch what is wrong: they reject a wrong question and approve a right one;
- gold questions at 5 % of the items, in both campaigns (mixed into the writing stream).

Campaign "fixed": the paper's 25 % for everyone. Campaign "adaptive": issue 28's rate
(`annotation.review_rate`): a 20-question warm-up reviewed in full, then the floor (2 %) once
the evidence is 50 times likelier from an annotator at half the 15 % bar than at twice it,
the ceiling (40 %) and a flag at 9 to 1 the other way, every question reviewed until then.
`bench/quality_model.py` plays the same campaigns without a database, on many seeds. The
annotators write in rounds (one paragraph of 4 questions each); after each round the
reviewers empty the queue, and an admin's look at the quality figures (the same rule,
`annotation.review_rate.adapted_rate`, in both campaigns) records who is flagged.

It prints, for both campaigns: reviewer items spent, the share of wrong questions caught by
review, the questions each careless annotator had written when first flagged, and the careful
annotators flagged (false flags), as FIGURE lines (bench/figures.py) with the fixed campaign
as the floor; and whether issue 28's targets hold: at least 30 % fewer reviewed items for at
least the same share caught, every careless annotator flagged within 60 of their questions,
no careful one flagged. It exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from figures import beside_floor, figure, print_machine  # noqa: E402

QUESTIONS_PER_PARAGRAPH = 4
CAREFUL_ERROR, CARELESS_ERROR = 0.03, 0.30
GOLD_SHARE = Decimal("0.05")
FLAG_WITHIN = 60
TARGET_SAVING = 0.30
ADAPTIVE = {
    "review_rate": Decimal("0.25"),
    "review_adaptive": True,
    "review_warmup": 20,
    "review_warmup_rate": Decimal("1.00"),
    "review_floor": Decimal("0.02"),
    "review_ceiling": Decimal("0.40"),
    "review_error_bar": Decimal("0.15"),
}
FIXED = {"review_rate": Decimal("0.25")}
WORDS = [
    *("Marseille", "Bordeaux", "Grenoble", "Toulouse", "Lyon", "Nantes", "Rennes", "Dijon"),
    *("Amiens", "Limoges", "Nancy", "Poitiers", "Orléans", "Besançon", "Angers", "Valence"),
    *("Colmar", "Troyes", "Cahors", "Bayonne"),
]


@dataclass
class Person:
    """One scripted annotator: their error rate, their work drawn in advance, what happened."""

    name: str
    error: float
    wrong: list[bool]  # the k-th question they write is wrong
    gold_wrong: list[bool]  # their k-th answer to a gold question is wrong
    written: int = 0
    golds: int = 0
    flagged_at: int | None = None
    user: object = None
    api: object = None

    @property
    def careless(self) -> bool:
        return self.error >= CARELESS_ERROR


@dataclass
class Outcome:
    name: str
    reviewed: int = 0
    wrong: int = 0
    caught: int = 0
    gold_answers: int = 0
    people: list[Person] = field(default_factory=list)

    @property
    def caught_share(self) -> float:
        return self.caught / self.wrong if self.wrong else 1.0

    def careless_flags(self) -> list[int | None]:
        return [person.flagged_at for person in self.people if person.careless]

    def false_flags(self) -> int:
        return sum(1 for p in self.people if not p.careless and p.flagged_at is not None)


def population(seed: int, careful: int, careless: int, questions: int) -> list[tuple]:
    """(name, error, wrong questions, wrong gold answers) of each annotator, from the seed."""
    made = []
    for index in range(careful + careless):
        error = CAREFUL_ERROR if index < careful else CARELESS_ERROR
        rng = random.Random(f"{seed}:{index}")  # noqa: S311 (a simulation, not a secret)
        wrong = [rng.random() < error for _ in range(questions)]
        gold_wrong = [rng.random() < error for _ in range(questions)]
        made.append(
            (f"{'careful' if index < careful else 'careless'}{index:02d}", error, wrong, gold_wrong)
        )
    return made


def paragraph_text(index: int) -> str:
    words = [WORDS[(index + k * 3) % len(WORDS)] for k in range(QUESTIONS_PER_PARAGRAPH + 1)]
    return (
        f"Paragraphe {index} : {words[0]} accueille {words[1]}, {words[2]} puis {words[3]} "
        f"chaque année, selon les archives de {words[4]}."
    )


def questions_for(text: str, wrong: list[bool]) -> list[dict]:
    """Valid questions on the paragraph, one per city; a wrong one asks about another city than
    its answer (the span is valid: only a reader sees the error, as with real mistakes)."""
    cities = [word.strip(",.") for word in text.split() if word.strip(",.") in WORDS]
    made = []
    for position, is_wrong in enumerate(wrong):
        answer = cities[position]
        asked = cities[(position + 1) % len(cities)] if is_wrong else answer
        made.append(
            {
                "text": f"Quelle ville vient en position {position + 1} ({asked}) ?",
                "answer_start": text.index(answer),
                "answer_text": answer,
                "seconds_spent": 50,
            }
        )
    return made


def make_corpus(paragraphs: int, gold: int):
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store

    article_store(
        language="fr",
        source=SourceArticle(title="Simulation", source_title="Simulation"),
        paragraphs=[paragraph_text(i) for i in range(paragraphs)],
        wave="1.0",
        split="train",
        kind="file",
    )
    return article_store(
        language="fr",
        source=SourceArticle(title="Gold", source_title="Gold"),
        paragraphs=[paragraph_text(10_000 + i) for i in range(gold)],
        wave="1.0",
        split="dev",
        kind="file",
    )


def make_gold(count: int, admin) -> dict[str, tuple[int, str]]:
    """`count` gold questions, made the way the platform makes them (written, reviewed,
    answered twice more in agreement, marked by an admin): {question uuid: (start, text)}."""
    from annotation.models import Question
    from annotation.services.answers import answer_claim_next, answer_submit
    from annotation.services.campaigns import campaign_create
    from annotation.services.gold import gold_mark
    from annotation.services.reviews import review_claim_next, review_submit
    from annotation.services.work import lease_claim_next, questions_submit
    from core.roles import Role
    from tests.factories import UserFactory

    author, first, second = (
        UserFactory(username=f"gold-{name}", roles=[Role.ANNOTATOR]) for name in ("a", "b", "c")
    )
    reviewer = UserFactory(username="gold-reviewer", roles=[Role.REVIEWER])
    source = campaign_create(
        name="Gold source", splits=["dev"], review_rate=Decimal("1.00"), questions_min=1
    )
    while claim := lease_claim_next(campaign=source, annotator=author):
        text = claim.lease.paragraph.text
        questions_submit(lease=claim.lease, questions=questions_for(text, [False]))
    while claim := review_claim_next(campaign=source, reviewer=reviewer):
        review_submit(lease=claim.lease, data={"verdict": "approve"})
    extra = campaign_create(name="Gold answers", kind="additional_answers", splits=["dev"])
    for person in (first, second):
        while claim := answer_claim_next(campaign=extra, annotator=person):
            original = claim.lease.question.answers.get(kind="original")
            answer_submit(
                lease=claim.lease,
                data={"answer_start": original.answer_start, "answer_text": original.text},
            )
    truth = {}
    for question in Question.objects.filter(campaign=source)[:count]:
        gold_mark(question=question, admin=admin)
        original = question.answers.get(kind="original")
        truth[str(question.uuid)] = (original.answer_start, original.text)
    return truth


def run_campaign(name, settings, people_spec, *, rounds, truth, seed, log) -> Outcome:
    from rest_framework.test import APIClient

    from annotation.models import Campaign
    from annotation.review_rate import adapted_rate
    from annotation.selectors.review_rates import annotator_evidence
    from annotation.services.campaigns import campaign_create
    from core.roles import Role
    from tests.factories import UserFactory

    campaign = campaign_create(
        name=name,
        splits=["train"],
        questions_min=QUESTIONS_PER_PARAGRAPH,
        questions_max=QUESTIONS_PER_PARAGRAPH,
        gold_share=GOLD_SHARE,
        **settings,
    )
    Campaign.objects.filter(pk=campaign.pk).update(review_seed=seed)
    campaign.refresh_from_db()
    outcome = Outcome(name=name)
    for person_name, error, wrong, gold_wrong in people_spec:
        person = Person(name=person_name, error=error, wrong=wrong, gold_wrong=gold_wrong)
        person.user = UserFactory(username=f"{name}-{person_name}", roles=[Role.ANNOTATOR])
        person.api = APIClient()
        person.api.force_authenticate(person.user)
        outcome.people.append(person)
    reviewers = []
    for index in range(2):
        reviewer = UserFactory(username=f"{name}-reviewer{index}", roles=[Role.REVIEWER])
        client = APIClient()
        client.force_authenticate(reviewer)
        reviewers.append(client)
    bad_questions: set[str] = set()
    claim_url = f"/api/v1/campaigns/{campaign.pk}/leases/"
    review_url = f"/api/v1/campaigns/{campaign.pk}/review-leases/"

    def submit(client, lease_id, body):
        response = client.post(f"/api/v1/leases/{lease_id}/submit/", body, format="json")
        if response.status_code != 201:
            raise SystemExit(
                f"{name}: submission refused: {response.status_code} {response.content!r}"
            )
        return response.json()

    def drain_reviews():
        for client in reviewers * 10_000:
            response = client.post(review_url)
            if response.status_code == 204:
                return
            lease = response.json()
            wrong = lease["question"]["id"] in bad_questions
            body = (
                {"verdict": "reject", "reason": "wrong_answer"} if wrong else {"verdict": "approve"}
            )
            submit(client, lease["id"], body)
            outcome.reviewed += 1
            outcome.caught += wrong

    started = time.perf_counter()
    for round_number in range(rounds):
        for person in outcome.people:
            while True:
                response = person.api.post(claim_url)
                if response.status_code != 201:
                    raise SystemExit(f"{name}: claim gave {response.status_code}")
                lease = response.json()
                if lease["kind"] == "answer":  # a question to answer: a gold one, unannounced
                    start, text = truth[lease["question"]["id"]]
                    if person.gold_wrong[person.golds]:
                        paragraph = lease["paragraph"]["text"]
                        text = "Paragraphe"
                        start = paragraph.index(text)
                    person.golds += 1
                    outcome.gold_answers += 1
                    submit(person.api, lease["id"], {"answer_start": start, "answer_text": text})
                    continue
                wrong = person.wrong[person.written : person.written + QUESTIONS_PER_PARAGRAPH]
                stored = submit(
                    person.api,
                    lease["id"],
                    {"questions": questions_for(lease["paragraph"]["text"], wrong)},
                )
                for question, is_wrong in zip(stored, wrong, strict=True):
                    if is_wrong:
                        bad_questions.add(question["id"])
                person.written += QUESTIONS_PER_PARAGRAPH
                break
        drain_reviews()
        for person in outcome.people:  # the admin's look at the quality figures
            if person.flagged_at is None:
                evidence = annotator_evidence(campaign_id=campaign.pk, annotator_id=person.user.pk)
                decision = adapted_rate(
                    evidence,
                    base=ADAPTIVE["review_rate"],
                    floor=ADAPTIVE["review_floor"],
                    ceiling=ADAPTIVE["review_ceiling"],
                    bar=ADAPTIVE["review_error_bar"],
                )
                if decision.flagged:
                    person.flagged_at = person.written
        if log and (round_number + 1) % 25 == 0:
            spent = time.perf_counter() - started
            print(f"  {name}: round {round_number + 1}/{rounds}, {spent:.0f} s", flush=True)
    outcome.wrong = len(bad_questions)
    return outcome


def analyze() -> None:
    """Give PostgreSQL's planner the statistics of the tables just filled (autovacuum would,
    later): a fresh database plans its first thousand claims on empty-table guesses."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
            # Counts are measured here, not durability: a commit need not wait for the disk.
            cursor.execute("SET synchronous_commit TO off")


def simulate(*, careful=16, careless=4, questions=300, gold=40, seed=1, log=True):
    """Run both campaigns in the current database; return (fixed, adaptive)."""
    from core.roles import Role
    from tests.factories import UserFactory

    rounds = questions // QUESTIONS_PER_PARAGRAPH
    people = population(seed, careful, careless, questions)
    make_corpus((careful + careless) * rounds, gold)
    admin = UserFactory(username="sim-admin", roles=[Role.ADMIN])
    truth = make_gold(gold, admin)
    analyze()
    fixed = run_campaign("fixed", FIXED, people, rounds=rounds, truth=truth, seed=seed, log=log)
    adaptive = run_campaign(
        "adaptive", ADAPTIVE, people, rounds=rounds, truth=truth, seed=seed, log=log
    )
    return fixed, adaptive


def report(fixed: Outcome, adaptive: Outcome) -> bool:
    """Print the figures and the targets; True when every target holds."""
    saving = 1 - adaptive.reviewed / fixed.reviewed if fixed.reviewed else 0.0
    print(f"wrong questions written: {fixed.wrong} (both campaigns: the same work)")
    print(f"gold answers: fixed {fixed.gold_answers}, adaptive {adaptive.gold_answers}")
    beside_floor(
        "quality_sim.reviewed_items",
        adaptive.reviewed,
        fixed.reviewed,
        "items",
        what="reviewer items spent, adaptive rate",
        floor_what="the paper's fixed 25 %, same population and seed",
    )
    beside_floor(
        "quality_sim.caught_share",
        100 * adaptive.caught_share,
        100 * fixed.caught_share,
        "%",
        what="share of wrong questions caught by review, adaptive rate",
        floor_what="fixed 25 %",
    )
    figure("quality_sim.saving", 100 * saving, "%")
    flags = adaptive.careless_flags()
    fixed_flags = fixed.careless_flags()
    print(f"careless annotators' questions when first flagged, adaptive: {flags}")
    print(f"  (the same rule on the fixed 25 % campaign's evidence: {fixed_flags})")
    known = [value for value in flags if value is not None]
    figure("quality_sim.careless_flagged", len(known), "people")
    if known:
        figure("quality_sim.careless_flagged_at_max", max(known), "questions")
    figure("quality_sim.careful_false_flags", adaptive.false_flags(), "people")
    print(f"careful annotators flagged: adaptive {adaptive.false_flags()}, ", end="")
    print(f"fixed 25 % {fixed.false_flags()}")
    checks = {
        f"at least {TARGET_SAVING:.0%} fewer reviewed items": saving >= TARGET_SAVING,
        "at least the same share of wrong questions caught": adaptive.caught_share
        >= fixed.caught_share,
        f"every careless annotator flagged within {FLAG_WITHIN} of their questions": all(
            value is not None and value <= FLAG_WITHIN for value in flags
        ),
        "no careful annotator flagged": adaptive.false_flags() == 0,
    }
    for what, held in checks.items():
        print(f"target: {what}: {'met' if held else 'MISSED'}")
    return all(checks.values())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--careful", type=int, default=16)
    parser.add_argument("--careless", type=int, default=4)
    parser.add_argument("--questions", type=int, default=300, help="per annotator")
    parser.add_argument("--gold", type=int, default=40, help="gold questions in the pool")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.SECURE_SSL_REDIRECT = False  # the test client speaks plain HTTP
    # The scripted people never sign in: a fast hasher spares a PBKDF2 hash per user.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = (
        f"qa_quality_sim_{os.getpid()}" if connection.vendor == "postgresql" else ":memory:"
    )
    print_machine()
    print(
        f"database: {connection.vendor}; seed {args.seed}; {args.careful} careful at "
        f"{CAREFUL_ERROR:.0%}, {args.careless} careless at {CARELESS_ERROR:.0%}, "
        f"{args.questions} questions each, gold {GOLD_SHARE * 100:.0f} %"
    )
    started = time.perf_counter()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        fixed, adaptive = simulate(
            careful=args.careful,
            careless=args.careless,
            questions=args.questions,
            gold=args.gold,
            seed=args.seed,
        )
        held = report(fixed, adaptive)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0, keepdb=False)
    print(f"run: {time.perf_counter() - started:.0f} s")
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(main())
