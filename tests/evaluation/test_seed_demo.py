"""seed_demo: one login per role, the offline corpus, and the same result when run again."""

import json
from io import StringIO
from pathlib import Path

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from annotation.models import Campaign, Question
from annotation.services.answers import answer_claim_next
from annotation.services.reviews import review_claim_next
from annotation.services.work import lease_claim_next
from corpus.models import Article, Paragraph
from evaluation.management.commands.seed_demo import (
    PIAF,
    SAMPLE,
    SECOND_CORPUS,
    _answer_variant,
    demo_corpus_path,
)
from evaluation.models import BaselineRun
from evaluation.selectors.human import human_performance_report
from exports.models import Release
from tests.conftest import require_service

User = get_user_model()
EXPECTED_DEMO_QUESTIONS = 40  # 4 dev and 4 test paragraphs of PIAF, 5 questions each


def seed(*args) -> dict:
    out = StringIO()
    call_command("seed_demo", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def test_seed_demo_creates_one_working_login_per_role_and_the_corpus(db, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    result = seed("--corpus", str(SAMPLE))
    assert [(u["username"], u["role"]) for u in result["users"]] == [
        ("admin", "admin"),
        ("reviewer", "reviewer"),
        ("annotator", "annotator"),
        ("annotator2", "annotator"),
        ("annotator3", "annotator"),
        ("annotator4", "annotator"),
    ]
    for user in result["users"]:
        account = authenticate(username=user["username"], password=user["password"])
        assert account is not None and account.roles == frozenset({user["role"]})
    assert result["corpus"]["articles_created"] == 8
    assert Article.objects.count() == 8
    assert Paragraph.objects.count() == result["corpus"]["paragraphs_total"] == 24
    assert (tmp_path / "demo-logins.json").stat().st_mode & 0o777 == 0o600
    campaigns = Campaign.objects.order_by("pk")
    assert [(c.name, c.kind, c.splits, c.active) for c in campaigns] == [
        ("Démo — questions", "questions", ["train", "dev", "test"], True),
        ("Démo — réponses supplémentaires", "additional_answers", ["dev", "test"], True),
        ("Démo — questions sans réponse", "unanswerable", ["train", "dev", "test"], True),
        ("Démo — contre le modèle", "questions", ["train"], True),
    ]
    adversarial = campaigns.last()
    assert (adversarial.model_kind, adversarial.model_mode, adversarial.model_round) == (
        "lexical",
        "adversarial",
        1,
    )
    assert adversarial.model_fooling_target == 1
    assert result["campaign"] == {"name": "Démo — questions", "created": True}
    assert result["answers_campaign"] == {
        "name": "Démo — réponses supplémentaires",
        "created": True,
    }
    assert result["demo_questions"] == 0  # the sample corpus has no PIAF questions
    assert (result["demo_answers"], result["release"]["created"]) == (0, False)


def test_seeding_again_keeps_passwords_and_adds_nothing(db, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    first = seed("--corpus", str(SAMPLE))
    second = seed("--corpus", str(SAMPLE))
    assert second["users"] == first["users"]
    assert second["corpus"]["articles_created"] == 0
    assert second["campaign"]["created"] is False
    assert second["answers_campaign"]["created"] is False
    assert second["unanswerable_campaign"]["created"] is False
    assert second["adversarial_campaign"]["created"] is False
    assert Campaign.objects.count() == 4
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


def test_with_piaf_the_review_and_answer_loops_have_work_at_once(db, tmp_path, settings):
    if not PIAF.exists():
        require_service(f"{PIAF} is missing")
    settings.VAR_DIR = tmp_path
    result = seed()
    questions = Question.objects.filter(author__username="annotator2")
    assert result["demo_questions"] == questions.count() == EXPECTED_DEMO_QUESTIONS
    assert set(questions.values_list("paragraph__article__split", flat=True)) == {"dev", "test"}
    for question in questions:  # PIAF's answers, at their offsets in the stored paragraph
        answer = question.answers.get(kind="original")
        text = question.paragraph.text
        assert text[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text
    reviewer = User.objects.get(username="reviewer")
    annotator = User.objects.get(username="annotator")
    questions_campaign = Campaign.objects.get(name="Démo — questions")
    answers_campaign = Campaign.objects.get(name="Démo — réponses supplémentaires")
    assert review_claim_next(campaign=questions_campaign, reviewer=reviewer).created is True
    claim = answer_claim_next(campaign=answers_campaign, annotator=annotator)
    assert claim.created is True and claim.lease.question.author.username == "annotator2"
    # The unanswerable campaign offers the paragraphs that have questions, first of them all.
    unanswerable = Campaign.objects.get(name="Démo — questions sans réponse")
    written = lease_claim_next(campaign=unanswerable, annotator=annotator).lease
    assert written.paragraph_id == questions.order_by("paragraph_id")[0].paragraph_id
    again = seed()  # idempotent
    assert (again["demo_questions"], again["demo_answers"], again["release"]["created"]) == (
        0,
        0,
        False,
    )
    assert again["second_language_campaign"]["created"] is False
    assert again["second_language_campaign"]["articles_created"] == 0


def test_a_second_language_is_seeded_beside_french(db, tmp_path, settings):
    if not PIAF.exists() or not SECOND_CORPUS.exists():
        require_service(f"{PIAF} or {SECOND_CORPUS} is missing")
    settings.VAR_DIR = tmp_path
    result = seed()
    assert result["second_language_campaign"] == {
        "name": "Demo — questions (English)",
        "language": "en",
        "created": True,
        "articles_created": 48,
        "paragraphs": 240,
    }
    english = Campaign.objects.get(name="Demo — questions (English)")
    french = Campaign.objects.get(name="Démo — questions")
    annotator = User.objects.get(username="annotator")
    assert (
        lease_claim_next(campaign=english, annotator=annotator).lease.paragraph.article.language
        == "en"
    )
    assert (
        lease_claim_next(campaign=french, annotator=annotator).lease.paragraph.article.language
        == "fr"
    )
    # The demo release is French only: the English paragraphs have their own campaign.
    release = Release.objects.get(name="demo-piaf")
    assert release.options["language"] == "fr"
    assert (
        Paragraph.objects.filter(article__language="fr").count() + 240 == Paragraph.objects.count()
    )


def test_with_piaf_every_figure_page_has_content(
    db, tmp_path, settings, sent_tasks, django_capture_on_commit_callbacks
):
    """Human performance on dev, a finished release and a queued baseline: no empty page."""
    if not PIAF.exists():
        require_service(f"{PIAF} is missing")
    settings.VAR_DIR = tmp_path
    with django_capture_on_commit_callbacks(execute=True):
        result = seed()
    dev = Question.objects.filter(author__username="annotator2", paragraph__article__split="dev")
    assert result["demo_answers"] == 2 * dev.count() == 40
    for question in dev:
        authors = sorted(question.answers.values_list("author__username", flat=True))
        assert authors == ["annotator2", "annotator3", "annotator4"]
    report = human_performance_report(split="dev")["splits"]["dev"]
    assert report["questions"] == dev.count()
    # annotator4 leaves out leading articles (ignored by scoring) and the last word of long answers
    assert 50 < report["f1"] < 100
    release = Release.objects.get(name="demo-piaf")
    assert release.status == "succeeded"
    # Scored on release: the build recorded the lexical run in the release's first slot.
    assert list(BaselineRun.objects.values_list("kind", "status", "scoring_key")) == [
        ("lexical", "pending", "score-0")
    ]
    assert release.score_with == [{"kind": "lexical"}]
    # The build's own task finds the release done (built here) and does nothing.
    assert [name for name, _options in sent_tasks.calls] == [
        "exports.tasks.release_build_task",
        "evaluation.tasks.baseline_task",
    ]
    test_campaign = Campaign.objects.get(name="Démo — réponses supplémentaires")
    annotator = User.objects.get(username="annotator")
    claim = answer_claim_next(campaign=test_campaign, annotator=annotator)
    assert claim.lease.question.paragraph.article.split == "test"  # dev is done


def test_the_second_answerer_leaves_out_a_whole_leading_article_and_cuts_no_word():
    """The demo's second answer read "e fissure orientée…" for "une fissure orientée…": the
    pattern took "un" before "une", and took "La" off "Laval" (a cut word on the history page,
    and human performance measured against it)."""
    assert _answer_variant(1, 257, "une fissure orientée") == (261, "fissure orientée")
    assert _answer_variant(1, 10, "Les Portugais") == (14, "Portugais")
    assert _answer_variant(1, 10, "l’armée") == (12, "armée")
    assert _answer_variant(1, 10, "d'une armée") == (10, "d'une armée")
    assert _answer_variant(1, 10, "Laval") == (10, "Laval")
    assert _answer_variant(1, 10, "lesquels") == (10, "lesquels")
    assert _answer_variant(1, 10, "Dupont") == (10, "Dupont")
    assert _answer_variant(1, 10, "Pierre Paul Riquet de Bonrepos") == (10, "Pierre Paul Riquet de")
    assert _answer_variant(1, 10, "la") == (10, "la")
    assert _answer_variant(0, 257, "une fissure orientée") == (257, "une fissure orientée")
