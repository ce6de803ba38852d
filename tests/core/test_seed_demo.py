"""seed_demo: one login per role, the offline corpus, and the same result when run again."""

import json
from io import StringIO
from pathlib import Path

from django.conf import settings
from django.contrib.auth import authenticate
from django.core.management import call_command

from annotation.models import Campaign
from core.management.commands.seed_demo import PIAF, SAMPLE, demo_corpus_path
from corpus.models import Article, Paragraph


def seed(*args) -> dict:
    out = StringIO()
    call_command("seed_demo", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def test_seed_demo_creates_one_working_login_per_role_and_the_corpus(db, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    result = seed("--corpus", str(SAMPLE))
    assert [(u["username"], u["role"]) for u in result["users"]] == [
        ("admin", "admin"), ("reviewer", "reviewer"), ("annotator", "annotator")]
    for user in result["users"]:
        account = authenticate(username=user["username"], password=user["password"])
        assert account is not None and account.roles == frozenset({user["role"]})
    assert result["corpus"]["articles_created"] == 8
    assert Article.objects.count() == 8
    assert Paragraph.objects.count() == result["corpus"]["paragraphs_total"] == 24
    assert (tmp_path / "demo-logins.json").stat().st_mode & 0o777 == 0o600
    campaign = Campaign.objects.get()
    assert (campaign.name, campaign.kind, campaign.active) == ("Démo — questions", "questions", True)
    assert result["campaign"] == {"name": "Démo — questions", "created": True}


def test_seeding_again_keeps_passwords_and_adds_nothing(db, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    first = seed("--corpus", str(SAMPLE))
    second = seed("--corpus", str(SAMPLE))
    assert second["users"] == first["users"]
    assert second["corpus"]["articles_created"] == 0
    assert second["campaign"]["created"] is False
    assert Campaign.objects.count() == 1
    assert Article.objects.count() == 8


def test_the_sample_corpus_paragraphs_are_long_enough_and_clean():
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 8
    for row in rows:
        for paragraph in row["paragraphs"]:
            assert len(paragraph) >= settings.CORPUS_MIN_PARAGRAPH_CHARS
            assert "\n" not in paragraph and "\u00a0" not in paragraph


def test_the_demo_uses_piaf_when_it_is_there():
    assert demo_corpus_path() == (PIAF if PIAF.exists() else SAMPLE)
    assert Path(settings.BASE_DIR).parent / "shared/data/piaf/piaf-v1.0.json" == PIAF
