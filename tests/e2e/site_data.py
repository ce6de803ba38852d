"""A small platform with something on every page, built through the services.

Used by the every-page screenshot test (`test_every_page.py`); `build_site()` can also fill a
development database to look at the pages by hand. Every row comes from the use cases the
pages themselves call: articles, two campaigns, questions written through leases, reviews (an
approval, a correction, a rejection), additional answers, two releases, a lexical baseline run,
a leaderboard entry, a dataset analysis, a scrape run and a worker check. The last three are
recorded without reaching a broker (`enqueue=False`, or a `send_task` replaced by the caller).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from annotation.models import Question, WorkItem
from annotation.selectors.differences import difference_sample
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from core.services.workers import worker_check_start
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from corpus.services.scraping import scrape_run_start
from evaluation.services.analysis.dataset_analysis import analysis_execute, analysis_start
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from evaluation.services.leaderboard.submissions import submission_create
from exports.models import Release
from exports.services.releases import release_build, release_create, release_gold
from exports.services.schedules import schedule_create
from tests.factories import UserFactory

PASSWORD = "a long e2e password"

# (title, split, paragraph, [(question, answer)]): each answer is a span of its paragraph.
ARTICLES = [
    (
        "Canal du Midi",
        "dev",
        "Le canal du Midi relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea "
        "les travaux à partir de 1666 ; il mourut quelques mois avant l'inauguration du canal, "
        "en 1681. Long de 241 kilomètres, l'ouvrage compte 63 écluses et fut inscrit au "
        "patrimoine mondial de l'UNESCO en 1996.",
        [
            ("Qui dirigea les travaux du canal du Midi ?", "Pierre-Paul Riquet"),
            ("En quelle année le canal fut-il inauguré ?", "1681"),
            ("Combien d'écluses le canal compte-t-il ?", "63"),
        ],
    ),
    (
        "Prise de la Bastille (14 juillet 1789) et démolition de la forteresse royale",
        "test",
        "La Bastille fut prise le 14 juillet 1789 par les émeutiers parisiens, qui cherchaient "
        "de la poudre pour les fusils pris le matin aux Invalides. La forteresse, devenue le "
        "symbole de l'arbitraire royal, fut ensuite démolie sur l'ordre de l'Assemblée, et ses "
        "pierres servirent en partie à construire le pont de la Concorde.",
        [
            ("Quand la Bastille fut-elle prise ?", "le 14 juillet 1789"),
            ("Pourquoi les émeutiers attaquèrent-ils la Bastille ?", "cherchaient de la poudre"),
            (
                "À quoi servirent les pierres de la forteresse ?",
                "construire le pont de la Concorde",
            ),
        ],
    ),
    (
        "Gutenberg",
        "train",
        "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères mobiles qui "
        "permit d'imprimer la Bible à environ 180 exemplaires. Son procédé, qui associait un "
        "alliage de plomb, une encre grasse et une presse à vis, se répandit en Europe en "
        "quelques décennies.",
        [
            ("Où Gutenberg mit-il au point sa presse ?", "Mayence"),
            ("Combien de Bibles furent imprimées ?", "environ 180"),
            ("Comment le procédé fut-il diffusé ?", "se répandit en Europe"),
        ],
    ),
    (
        "Mont Blanc",
        "dev",
        "Jacques Balmat et Michel Paccard atteignirent le sommet du mont Blanc le 8 août 1786, "
        "à 4 805 mètres d'altitude, après une longue ascension depuis Chamonix. Horace-Bénédict "
        "de Saussure, qui avait promis une récompense au premier à gravir la montagne, y monta "
        "l'année suivante avec des instruments de mesure.",
        [
            ("Qui atteignit le sommet avec Paccard ?", "Jacques Balmat"),
            ("D'où partit l'ascension ?", "Chamonix"),
            ("Quand Saussure monta-t-il au sommet ?", "l'année suivante"),
        ],
    ),
]
# Left free for the annotator's open lease (the annotation page).
OPEN_PARAGRAPH = (
    "Tour Eiffel",
    "train",
    "Gustave Eiffel fit construire la tour pour l'Exposition universelle de 1889 à Paris. "
    "Haute de 300 mètres à son inauguration, elle fut le plus haut monument du monde jusqu'en "
    "1930, et devait être démontée au bout de vingt ans ; les antennes de radio qu'elle porta "
    "la sauvèrent.",
)


@dataclass
class Site:
    """The ids the pages need: every detail page is visited with a real one."""

    users: dict
    campaign: int
    answers_campaign: int
    article: int
    write_lease: int
    answer_lease: int
    review_lease: int
    corrected_question: str
    own_question: str
    sampled_question: int  # of the question–answer differences' sample (dev)
    releases: tuple[int, int]
    scrape_run: int
    set_password: tuple[str, str]
    schedule: int = 0  # a release schedule whose snapshots are the two releases


def _articles() -> list:
    stored = []
    for title, split, text, _questions in [*ARTICLES, (*OPEN_PARAGRAPH, [])]:
        stored.append(
            article_store(
                language="fr",
                source=SourceArticle(title=title, source_title=title),
                paragraphs=[text],
                wave="1.0",
                split=split,
                kind="file",
            )
        )
    return stored


def _write(campaign, annotator, count: int) -> list[Question]:
    """The annotator claims the next `count` paragraphs and writes their questions."""
    by_title = {title: questions for title, _s, _t, questions in ARTICLES}
    written = []
    for _ in range(count):
        lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
        text = lease.paragraph.text
        pairs = by_title[lease.paragraph.article.title]
        written += questions_submit(
            lease=lease,
            questions=[
                {"text": q, "answer_start": text.index(a), "answer_text": a, "seconds_spent": 55}
                for q, a in pairs
            ],
        )
    return written


def _review(campaign, reviewer) -> tuple[Question, int]:
    """Approve, correct, reject, then hold one more question open; return the corrected one."""
    corrected = None
    for verdict in ("approve", "correct", "reject", "approve"):
        lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
        question = lease.question
        data = {"verdict": verdict, "comment": ""}
        if verdict == "correct":
            answer = question.answers.get(kind="original")
            start, text = _wider(question.paragraph.text, answer.answer_start, answer.text)
            data |= {"answer_start": start, "answer_text": text, "comment": "Plus long."}
            corrected = question
        if verdict == "reject":
            data |= {"reason": "ambiguous", "comment": "Deux réponses possibles."}
        review_submit(lease=lease, data=data)
    held = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    return corrected, held.pk


def _wider(text: str, start: int, answer: str) -> tuple[int, str]:
    """The span grown by the word before it ("1681" becomes "en 1681"), or after it."""
    if start < 2:
        end = text.find(" ", start + len(answer) + 1)
        return start, text[start:end]
    wider = text.rfind(" ", 0, start - 1) + 1
    return wider, text[wider : start + len(answer)]


def _answer(campaign, person, *, widen: bool = False, keep_last: bool = False):
    """Answer every question open to `person` with its original span (or a wider one); hold
    the last one open if asked."""
    claim = answer_claim_next(campaign=campaign, annotator=person)
    while claim:
        original = claim.lease.question.answers.get(kind="original")
        start, text = original.answer_start, original.text
        if widen:
            start, text = _wider(claim.lease.question.paragraph.text, start, text)
        following = None
        if keep_last:
            # Claiming the next one first would give this lease back: look before answering.
            following = (
                WorkItem.objects.filter(campaign=campaign, places__gt=0)
                .exclude(question_id=claim.lease.question_id)
                .exclude(question__author=person)
                .exclude(question__answers__author=person)
                .first()
            )
            if following is None:
                return claim.lease
        answer_submit(
            lease=claim.lease,
            data={"answer_start": start, "answer_text": text, "seconds_spent": 28},
        )
        claim = answer_claim_next(campaign=campaign, annotator=person)
    return None


def _releases(boss) -> tuple:
    first = release_create(
        created_by=boss, name="fquad-demo", version="1.0", formats=["squad", "hf", "mrqa"]
    )
    release_build(release=first)
    second = release_create(
        created_by=boss,
        name="fquad-demo-approved",
        version="1.1",
        formats=["squad", "hf"],
        approved_only=True,
        include_test_answers=True,
    )
    release_build(release=second)
    return first, second


def _evaluate(release, boss) -> None:
    """Two lexical runs (the Results page's charts and tables), an entry, an analysis."""
    for _ in range(2):
        run = baseline_run_record(release=release, kind="lexical", created_by=boss)
        baseline_run_execute(run=run)
    gold = release_gold(release=release, split="dev")
    submission_create(
        user=boss,
        release=release,
        split="dev",
        label="Sliding window with a long descriptive name, run 1",
        predictions={qid: answers[0] for qid, answers in gold.items()},
    )
    analysis = analysis_start(created_by=boss)
    analysis_execute(analysis=analysis)


def _schedule(boss, campaign, releases):
    """A nightly schedule of the questions campaign, scored with the lexical baseline; the two
    releases stand for its snapshots (its chart then has two points)."""
    schedule = schedule_create(
        created_by=boss,
        name="fquad-nightly",
        frequency="daily",
        hour=3,
        campaigns=[campaign.pk],
        formats=["squad", "hf"],
        score_with=[{"kind": "lexical"}],
        keep_last=3,
    )
    Release.objects.filter(pk__in=[r.pk for r in releases]).update(schedule=schedule)
    return schedule


def build_site() -> Site:
    """Fill the database; the caller keeps `send_task` from reaching a broker."""
    users = {
        "annotator": UserFactory(username="ann", roles=[Role.ANNOTATOR], password=PASSWORD),
        "annotator2": UserFactory(username="ann2", roles=[Role.ANNOTATOR], password=PASSWORD),
        "annotator3": UserFactory(username="ann3", roles=[Role.ANNOTATOR], password=PASSWORD),
        "reviewer": UserFactory(username="rev", roles=[Role.REVIEWER], password=PASSWORD),
        "admin": UserFactory(username="boss", roles=[Role.ADMIN], password=PASSWORD),
        "several": UserFactory(
            username="multi.role.person",
            roles=[Role.ANNOTATOR, Role.REVIEWER, Role.ADMIN],
            password=PASSWORD,
        ),
    }
    imported = UserFactory(username="new.student", roles=[Role.ANNOTATOR])
    imported.set_unusable_password()
    imported.save(update_fields=["password"])
    articles = _articles()
    campaign = campaign_create(
        name="Questions — vague 1.0",
        splits=["train", "dev", "test"],
        review_rate=Decimal("1"),
        question_type_targets={"why": 15, "how": 15},
        guidelines="## Écrire les questions\n\n- **3 à 5 questions** par paragraphe.\n",
    )
    # ann2 writes the first three articles, ann the fourth (a dev one); the fifth stays open.
    _write(campaign, users["annotator2"], 3)
    own = _write(campaign, users["annotator"], 1)
    corrected, review_lease = _review(campaign, users["reviewer"])
    answers = campaign_create(
        name="Réponses supplémentaires", kind="additional_answers", splits=["dev", "test"]
    )
    _answer(answers, users["annotator3"])
    _answer(answers, users["annotator2"], widen=True)
    answer_lease = _answer(answers, users["annotator"], keep_last=True)
    first, second = _releases(users["admin"])
    _evaluate(second, users["admin"])
    schedule = _schedule(users["admin"], campaign, (first, second))
    write_lease = lease_claim_next(campaign=campaign, annotator=users["annotator"]).lease
    run = scrape_run_start(
        category="Article de qualité",
        sample_size=12,
        seed=7,
        wave="1.1",
        created_by=users["admin"],
        enqueue=False,
    )
    worker_check_start(queue="default", created_by=users["admin"])
    return Site(
        users=users,
        campaign=campaign.pk,
        answers_campaign=answers.pk,
        article=articles[1].pk,
        write_lease=write_lease.pk,
        answer_lease=answer_lease.pk,
        review_lease=review_lease,
        corrected_question=str(corrected.uuid),
        own_question=str(own[0].uuid),
        sampled_question=difference_sample()[0].pk,
        releases=(first.pk, second.pk),
        scrape_run=run.pk,
        schedule=schedule.pk,
        set_password=(
            urlsafe_base64_encode(force_bytes(imported.pk)),
            default_token_generator.make_token(imported),
        ),
    )
