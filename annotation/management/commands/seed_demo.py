import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.services import demo_user_ensure
from annotation.models import Campaign, Lease, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import questions_write
from core.commands import PlatformCommand
from core.errors import ServiceError
from core.roles import Role
from corpus.models import Article, Paragraph
from corpus.services import corpus_load

DEMO_USERS = [
    ("admin", Role.ADMIN),
    ("reviewer", Role.REVIEWER),
    ("annotator", Role.ANNOTATOR),
    ("annotator2", Role.ANNOTATOR),
]
# annotator2 "wrote" PIAF's questions on a few dev and test paragraphs, so that the review queue
# and the additional-answers campaign have work for the other demo users right away.
DEMO_AUTHOR = "annotator2"
DEMO_PARAGRAPHS_PER_SPLIT = 4


PIAF = Path(settings.BASE_DIR).parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
User = get_user_model()
SAMPLE = Path(settings.BASE_DIR) / "corpus" / "fixtures" / "sample_corpus.jsonl"


DEMO_CAMPAIGN = "Démo — questions"
DEMO_ANSWERS_CAMPAIGN = "Démo — réponses supplémentaires"
DEMO_ANSWERS_GUIDELINES = """\
## Répondre aux questions des autres

- Lisez la question, puis sélectionnez dans le paragraphe le **plus petit passage** qui y
  répond.
- Si le paragraphe ne répond pas à la question, cliquez sur « Le paragraphe n'y répond pas ».
- Comptez environ 30 secondes par question.
"""
DEMO_GUIDELINES = """\
## Écrire les questions

- Lisez tout le paragraphe, puis écrivez **3 à 5 questions** dont la réponse est dans le texte.
- Pour chaque question, sélectionnez le **plus petit passage** qui y répond.
- Variez les mots interrogatifs : *qui*, *quand*, *où*, *combien*, mais aussi *pourquoi* et
  *comment*.
- Reformulez : ne recopiez pas une phrase du paragraphe en la terminant par un point
  d'interrogation.
- Comptez environ une minute par question.
"""


def demo_campaign_ensure() -> bool:
    """Create the demo questions campaign unless it exists; return True when created."""
    if Campaign.objects.filter(name=DEMO_CAMPAIGN).exists():
        return False
    campaign_create(
        name=DEMO_CAMPAIGN, guidelines=DEMO_GUIDELINES, question_type_targets={"why": 10, "how": 10}
    )
    return True


def demo_answers_campaign_ensure() -> bool:
    """Create the demo additional-answers campaign (dev and test) unless it exists."""
    if Campaign.objects.filter(name=DEMO_ANSWERS_CAMPAIGN).exists():
        return False
    campaign_create(
        name=DEMO_ANSWERS_CAMPAIGN,
        kind=Campaign.Kind.ADDITIONAL_ANSWERS,
        splits=["dev", "test"],
        guidelines=DEMO_ANSWERS_GUIDELINES,
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


def demo_corpus_path() -> Path:
    """Return PIAF's real French Wikipedia paragraphs when present, else our small sample."""
    return PIAF if PIAF.exists() else SAMPLE


class Command(PlatformCommand):
    help = (
        "Create (or refresh) one demo account per role, load the offline demo corpus, "
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
        logins_file = settings.VAR_DIR / "demo-logins.json"
        known = json.loads(logins_file.read_text()) if logins_file.exists() else {}
        logins = {
            username: demo_user_ensure(
                username=username, role=role, known_password=known.get(username)
            )
            for username, role in DEMO_USERS
        }
        logins_file.parent.mkdir(parents=True, exist_ok=True)
        logins_file.write_text(json.dumps(logins, indent=2))
        logins_file.chmod(0o600)
        demo_questions = demo_questions_ensure()
        return {
            "users": [
                {"username": u, "role": str(r), "password": logins[u]} for u, r in DEMO_USERS
            ],
            "corpus": {
                "path": str(corpus_path),
                "articles_created": loaded.created,
                "paragraphs_created": loaded.paragraphs,
                "articles_total": Article.objects.count(),
                "paragraphs_total": Paragraph.objects.count(),
            },
            "campaign": {"name": DEMO_CAMPAIGN, "created": campaign_created},
            "answers_campaign": {
                "name": DEMO_ANSWERS_CAMPAIGN,
                "created": answers_campaign_created,
            },
            "demo_questions": demo_questions,
        }

    def summary(self, result):
        corpus = result["corpus"]
        lines = [
            f"Corpus: {corpus['articles_total']} articles, {corpus['paragraphs_total']} "
            f"paragraphs ({corpus['articles_created']} articles loaded now from "
            f"{corpus['path']}).",
            f"Campaigns: {result['campaign']['name']}; {result['answers_campaign']['name']}.",
            f"Demo questions by {DEMO_AUTHOR} on dev and test: {result['demo_questions']} "
            "stored now.",
            "Demo logins (kept in var/demo-logins.json):",
        ]
        lines += [f"  {u['role']:<10} {u['username']:<10} {u['password']}" for u in result["users"]]
        return "\n".join(lines)
