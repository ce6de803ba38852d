"""The demo `make run` serves: one login per role, PIAF as the corpus, and work at every step.

It lives in evaluation, the app that sees every other: it seeds accounts, the corpus,
campaigns, questions (PIAF's, as if annotator2 wrote them on a few dev and test paragraphs),
two more answers to each dev question (annotator3 and annotator4: the same span as PIAF's, or
without its leading article), a release, and a lexical baseline run on it; beside French, a
second language (XQuAD's English paragraphs and their own questions campaign, issue 27).
Everything goes through the services people use, and running it again adds nothing.
"""

import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.services import demo_user_ensure
from annotation.models import Campaign, Lease, Question
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.work import questions_write
from core.commands import PlatformCommand
from core.errors import ServiceError
from core.roles import Role
from corpus.models import Article, Paragraph
from corpus.services.articles import corpus_load
from evaluation.services.model_loop.campaign_model import campaign_model_set
from exports.models import Release
from exports.services.releases import release_build, release_create

DEMO_USERS = [
    ("admin", Role.ADMIN),
    ("reviewer", Role.REVIEWER),
    ("annotator", Role.ANNOTATOR),
    ("annotator2", Role.ANNOTATOR),
    ("annotator3", Role.ANNOTATOR),
    ("annotator4", Role.ANNOTATOR),
]
# annotator3 and annotator4 answered annotator2's dev questions again, so that human performance
# and the results page have figures; the test questions wait for the human demo annotator.
DEMO_ANSWERERS = ("annotator3", "annotator4")
DEMO_SEEDED_ANSWERS_CAMPAIGN = "Démo — réponses déjà données (dev)"
DEMO_RELEASE = "demo-piaf"
# A whole leading article: "une fissure" loses "une " (not "un", leaving "e fissure"), "Laval"
# and "lesquels" lose nothing; an elided article has no space after it.
LEADING_ARTICLE = re.compile(r"(?:(?:les|le|la|une|un|des|du)\s+|l['’])", re.IGNORECASE)
# annotator2 "wrote" PIAF's questions on a few dev and test paragraphs, so that the review queue
# and the additional-answers campaign have work for the other demo users right away.
DEMO_AUTHOR = "annotator2"
DEMO_PARAGRAPHS_PER_SPLIT = 4


PIAF = Path(settings.BASE_DIR).parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
User = get_user_model()
SAMPLE = Path(settings.BASE_DIR) / "corpus" / "fixtures" / "sample_corpus.jsonl"


DEMO_CAMPAIGN = "Démo — questions"
# A second language beside French (issue 27): XQuAD's English paragraphs (CC BY-SA 4.0), their
# own corpus and questions campaign; corpora, campaigns and releases are per language.
SECOND_LANGUAGE = "en"
SECOND_CORPUS = Path(settings.BASE_DIR).parent / "shared" / "data" / "xquad" / "xquad.en.json"
DEMO_SECOND_CAMPAIGN = "Demo — questions (English)"
DEMO_ANSWERS_CAMPAIGN = "Démo — réponses supplémentaires"
DEMO_UNANSWERABLE_CAMPAIGN = "Démo — questions sans réponse"


def demo_campaign_ensure() -> bool:
    """Create the demo questions campaign unless it exists; return True when created."""
    if Campaign.objects.filter(name=DEMO_CAMPAIGN).exists():
        return False
    campaign_create(name=DEMO_CAMPAIGN, question_type_targets={"why": 10, "how": 10})
    return True


def demo_second_language_ensure() -> dict | None:
    """Load XQuAD's English paragraphs and create their questions campaign, unless done; None
    when the file is not there (the demo stays French)."""
    if not SECOND_CORPUS.exists():
        return None
    loaded = corpus_load(path=SECOND_CORPUS, wave="1.0", language=SECOND_LANGUAGE, seed=0)
    created = not Campaign.objects.filter(name=DEMO_SECOND_CAMPAIGN).exists()
    if created:
        campaign_create(name=DEMO_SECOND_CAMPAIGN, language=SECOND_LANGUAGE)
    return {
        "name": DEMO_SECOND_CAMPAIGN,
        "language": SECOND_LANGUAGE,
        "created": created,
        "articles_created": loaded.created,
        "paragraphs": Paragraph.objects.filter(article__language=SECOND_LANGUAGE).count(),
    }


def demo_answers_campaign_ensure() -> bool:
    """Create the demo additional-answers campaign (dev and test) unless it exists."""
    if Campaign.objects.filter(name=DEMO_ANSWERS_CAMPAIGN).exists():
        return False
    campaign_create(
        name=DEMO_ANSWERS_CAMPAIGN,
        kind=Campaign.Kind.ADDITIONAL_ANSWERS,
        splits=["dev", "test"],
    )
    return True


def demo_unanswerable_campaign_ensure() -> bool:
    """Create the demo campaign of unanswerable questions (FQuAD 2.0) unless it exists: its
    paragraphs are those that already have questions."""
    if Campaign.objects.filter(name=DEMO_UNANSWERABLE_CAMPAIGN).exists():
        return False
    campaign_create(name=DEMO_UNANSWERABLE_CAMPAIGN, kind=Campaign.Kind.UNANSWERABLE)
    return True


DEMO_ADVERSARIAL_CAMPAIGN = "Démo — contre le modèle"


def demo_adversarial_campaign_ensure() -> bool:
    """Create the demo campaign with a model in the loop (the lexical baseline, adversarial:
    at least one question per paragraph that fools it) unless it exists."""
    if Campaign.objects.filter(name=DEMO_ADVERSARIAL_CAMPAIGN).exists():
        return False
    campaign = campaign_create(name=DEMO_ADVERSARIAL_CAMPAIGN, splits=["train"])
    campaign_model_set(
        campaign=campaign,
        data={"model_kind": "lexical", "model_mode": "adversarial", "model_fooling_target": 1},
    )
    return True


def _piaf_questions() -> dict[str, list[dict]]:
    """Return PIAF's questions by context: {context: [{question, answer_start, text}]}."""
    data = json.loads(PIAF.read_text(encoding="utf-8"))
    found: dict[str, list[dict]] = {}
    for article in data["data"]:
        for paragraph in article["paragraphs"]:
            context = paragraph["context"]
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                start, text = answer["answer_start"], answer["text"]
                if context[start : start + len(text)] == text and qa["question"].strip():
                    found.setdefault(context, []).append(
                        {"text": qa["question"], "answer_start": start, "answer_text": text}
                    )
    return found


def demo_questions_ensure() -> int:
    """Store PIAF's questions on a few dev and test paragraphs as the demo author's work."""
    author = User.objects.get(username=DEMO_AUTHOR)
    if not PIAF.exists() or Question.objects.filter(author=author).exists():
        return 0
    campaign = Campaign.objects.get(name=DEMO_CAMPAIGN)
    questions = _piaf_questions()
    stored = 0
    for split in ("dev", "test"):
        paragraphs = Paragraph.objects.filter(article__split=split).order_by("pk")
        chosen = [p for p in paragraphs if 3 <= len(questions.get(p.text, [])) <= 5]
        for paragraph in chosen[:DEMO_PARAGRAPHS_PER_SPLIT]:
            if Lease.objects.filter(campaign=campaign, paragraph=paragraph).exists():
                continue
            try:  # a refused question leaves no lease behind
                submitted = questions_write(
                    campaign=campaign,
                    paragraph=paragraph,
                    annotator=author,
                    questions=questions[paragraph.text],
                )
            except ServiceError:
                continue
            stored += len(submitted)
    return stored


def _answer_variant(index: int, start: int, text: str) -> tuple[int, str]:
    """The second answerer leaves out a leading article, as people often do, or the last word
    of an answer of four words or more (scoring ignores articles: only the second differs)."""
    if index != 1:
        return start, text
    match = LEADING_ARTICLE.match(text)
    if match and match.end() < len(text):
        return start + match.end(), text[match.end() :]
    words = text.split()
    if len(words) >= 4:
        return start, text[: text.rstrip().rindex(words[-1])].rstrip()
    return start, text


def demo_answers_ensure() -> int:
    """Give each dev question of the demo author two more answers; return how many now."""
    dev = Question.objects.filter(author__username=DEMO_AUTHOR, paragraph__article__split="dev")
    if Campaign.objects.filter(name=DEMO_SEEDED_ANSWERS_CAMPAIGN).exists() or not dev.exists():
        return 0
    campaign = campaign_create(
        name=DEMO_SEEDED_ANSWERS_CAMPAIGN, kind=Campaign.Kind.ADDITIONAL_ANSWERS, splits=["dev"]
    )
    given = 0
    for index, username in enumerate(DEMO_ANSWERERS):
        person = User.objects.get(username=username)
        while (claim := answer_claim_next(campaign=campaign, annotator=person)) is not None:
            original = claim.lease.question.answers.get(kind="original")
            start, text = _answer_variant(index, original.answer_start, original.text)
            answer_submit(
                lease=claim.lease,
                data={"answer_start": start, "answer_text": text, "seconds_spent": 25},
            )
            given += 1
    campaign_update(campaign=campaign, active=False)  # done: nothing left for anybody
    return given


def demo_release_ensure(admin) -> bool:
    """Build the demo release here, scored with the lexical baseline; True when made now."""
    if Release.objects.filter(name=DEMO_RELEASE).exists() or not Question.objects.exists():
        return False
    release = release_create(
        created_by=admin,
        name=DEMO_RELEASE,
        version="1.0",
        description="PIAF as the demo corpus, with the demo's own questions and answers.",
        formats=["squad", "hf"],
        language="fr",  # a release holds one language: the French demo's (issue 27)
        # Scored on release (docs/release-scoring.md): the build records the lexical run.
        score_with=[{"kind": "lexical"}],
    )
    release_build(release=release)  # here, not on the export queue: the pages show it at once
    return True


def demo_corpus_path() -> Path:
    """Return PIAF's real French Wikipedia paragraphs when present, else our small sample."""
    return PIAF if PIAF.exists() else SAMPLE


def _demo_logins() -> dict[str, str]:
    """Ensure the demo accounts, their passwords kept from var/demo-logins.json (written
    again, readable by its owner only); return {username: password}."""
    logins_file = settings.VAR_DIR / "demo-logins.json"
    known = json.loads(logins_file.read_text()) if logins_file.exists() else {}
    logins = {
        username: demo_user_ensure(username=username, role=role, known_password=known.get(username))
        for username, role in DEMO_USERS
    }
    logins_file.parent.mkdir(parents=True, exist_ok=True)
    logins_file.write_text(json.dumps(logins, indent=2))
    logins_file.chmod(0o600)
    return logins


def _corpus_figures(corpus_path: Path, loaded) -> dict:
    """Return what the corpus load did and what the corpus holds now."""
    return {
        "path": str(corpus_path),
        "articles_created": loaded.created,
        "paragraphs_created": loaded.paragraphs,
        # The French corpus's (the second language's are in its own figures).
        "articles_total": Article.objects.filter(language="fr").count(),
        "paragraphs_total": Paragraph.objects.filter(article__language="fr").count(),
    }


class Command(PlatformCommand):
    help = (
        "Create (or refresh) one demo account per role, load the offline demo corpus, "
        "a second language's corpus and campaign (XQuAD's English, when present), "
        "and print the logins."
    )

    def add_command_arguments(self, parser):
        parser.add_argument(
            "--corpus",
            type=Path,
            default=None,
            help="Corpus file to load (default: PIAF v1.0 if present, else the "
            "project's sample corpus).",
        )

    def run(self, *, corpus, **options):
        corpus_path = corpus or demo_corpus_path()
        loaded = corpus_load(path=corpus_path, wave="1.0", language="fr", seed=0)
        campaign_created = demo_campaign_ensure()
        answers_campaign_created = demo_answers_campaign_ensure()
        unanswerable_created = demo_unanswerable_campaign_ensure()
        adversarial_created = demo_adversarial_campaign_ensure()
        # The second language only beside the default French corpus (PIAF or the sample).
        second = demo_second_language_ensure() if corpus is None else None
        logins = _demo_logins()
        demo_questions = demo_questions_ensure()
        demo_answers = demo_answers_ensure()
        release = demo_release_ensure(User.objects.get(username="admin"))
        return {
            "users": [
                {"username": u, "role": str(r), "password": logins[u]} for u, r in DEMO_USERS
            ],
            "corpus": _corpus_figures(corpus_path, loaded),
            "campaign": {"name": DEMO_CAMPAIGN, "created": campaign_created},
            "answers_campaign": {
                "name": DEMO_ANSWERS_CAMPAIGN,
                "created": answers_campaign_created,
            },
            "unanswerable_campaign": {
                "name": DEMO_UNANSWERABLE_CAMPAIGN,
                "created": unanswerable_created,
            },
            "adversarial_campaign": {
                "name": DEMO_ADVERSARIAL_CAMPAIGN,
                "created": adversarial_created,
            },
            "second_language_campaign": second,
            "demo_questions": demo_questions,
            "demo_answers": demo_answers,
            "release": {"name": DEMO_RELEASE, "created": release},
        }

    def summary(self, result):
        made = "built now, a lexical baseline queued." if result["release"]["created"] else "there."
        corpus = result["corpus"]
        lines = [
            f"Corpus: {corpus['articles_total']} articles, {corpus['paragraphs_total']} "
            f"paragraphs ({corpus['articles_created']} articles loaded now from "
            f"{corpus['path']}).",
            f"Campaigns: {result['campaign']['name']}; {result['answers_campaign']['name']}; "
            f"{result['unanswerable_campaign']['name']}; "
            f"{result['adversarial_campaign']['name']} (the lexical model in the loop).",
            *(
                [
                    f"In English beside French: {second['name']} on "
                    f"{second['paragraphs']} paragraphs of XQuAD."
                ]
                if (second := result["second_language_campaign"])
                else []
            ),
            f"Demo questions by {DEMO_AUTHOR} on dev and test: {result['demo_questions']} "
            f"stored now; {result['demo_answers']} more answers by "
            f"{' and '.join(DEMO_ANSWERERS)} on dev.",
            f"Release {DEMO_RELEASE}: {made}",
            "Demo logins (kept in var/demo-logins.json):",
        ]
        lines += [f"  {u['role']:<10} {u['username']:<10} {u['password']}" for u in result["users"]]
        return "\n".join(lines)
