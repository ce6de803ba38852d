import json
from pathlib import Path

from django.conf import settings

from accounts.roles import Role
from accounts.services import demo_user_ensure
from annotation.models import Campaign
from annotation.services import campaign_create
from core.commands import PlatformCommand
from corpus.models import Article, Paragraph
from corpus.services import corpus_load

DEMO_USERS = [("admin", Role.ADMIN), ("reviewer", Role.REVIEWER), ("annotator", Role.ANNOTATOR)]


PIAF = Path(settings.BASE_DIR).parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
SAMPLE = Path(settings.BASE_DIR) / "corpus" / "fixtures" / "sample_corpus.jsonl"


DEMO_CAMPAIGN = "Démo — questions"
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
        }

    def summary(self, result):
        corpus = result["corpus"]
        lines = [
            f"Corpus: {corpus['articles_total']} articles, {corpus['paragraphs_total']} "
            f"paragraphs ({corpus['articles_created']} articles loaded now from "
            f"{corpus['path']}).",
            f"Campaign: {result['campaign']['name']}.",
            "Demo logins (kept in var/demo-logins.json):",
        ]
        lines += [f"  {u['role']:<10} {u['username']:<10} {u['password']}" for u in result["users"]]
        return "\n".join(lines)
