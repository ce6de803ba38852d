"""Evaluation per language (core.languages): a Thai question gets no French question type nor
answer type, the analysis says so, and scores use the Thai entry's metric mode."""

import pytest
from django.utils import translation

from annotation.models import Answer, Question
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.metrics import NORMALIZATIONS, language_normalization
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_execute, analysis_start
from evaluation.services.model_loop.attempts import answer_scores
from tests.factories import UserFactory

FRENCH = (
    "Pierre-Paul Riquet conçut le canal du Midi, qui relie Toulouse à la mer Méditerranée. "
    "Les travaux commencèrent en 1666 et le canal fut inauguré en 1681, un an après sa mort."
)
THAI = (
    "กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย ตั้งอยู่ริมแม่น้ำเจ้าพระยา "
    "มีประชากรมากที่สุดในประเทศ และเป็นศูนย์กลางทางเศรษฐกิจ"
)


def _write(campaign, writer, question, answer):
    lease = lease_claim_next(campaign=campaign, annotator=writer).lease
    text = lease.paragraph.text
    questions_submit(
        lease=lease,
        questions=[
            {
                "text": question,
                "answer_start": text.index(answer),
                "answer_text": answer,
                "seconds_spent": 10,
            }
        ],
    )


@pytest.fixture
def two_languages(db):
    for language, title, text in (("fr", "Canal du Midi", FRENCH), ("th", "กรุงเทพมหานคร", THAI)):
        article_store(
            language=language,
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[text],
            wave="1.0",
            split="dev",
            kind="file",
        )
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    french = campaign_create(name="Q", splits=["dev"], review_rate="0", questions_min=1)
    thai = campaign_create(
        name="ค", splits=["dev"], review_rate="0", questions_min=1, language="th"
    )
    _write(french, writer, "Qui conçut le canal du Midi ?", "Pierre-Paul Riquet")
    _write(thai, writer, "เมืองหลวงของประเทศไทยคืออะไร", "กรุงเทพมหานคร")


def test_only_french_questions_get_french_question_and_answer_types(two_languages, client):
    analysis = analysis_start()
    analysis_execute(analysis=analysis)
    analysis.refresh_from_db()

    assert analysis.status == DatasetAnalysis.Status.SUCCEEDED, analysis.error
    types = dict(Question.objects.values_list("campaign__language", "question_type"))
    assert types == {"fr": "who", "th": ""}
    typed = dict(
        Answer.objects.filter(kind="original").values_list(
            "question__campaign__language", "answer_type"
        )
    )
    assert typed["th"] == "" and typed["fr"] != ""
    assert analysis.results["languages"] == ["fr", "th"]
    assert analysis.results["unavailable"] == {
        "question_types": ["th"],
        "answer_types": ["th"],
    }
    assert analysis.results["answer_types_stored"] == 1
    client.force_login(UserFactory(username="adm", roles=[Role.ADMIN]))
    with translation.override("en"):
        html = client.get("/manage/analysis/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Answer types: not available for Thai." in html
    assert "Question types: not available for Thai." in html
    french = client.get("/manage/analysis/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Types de réponse\u00a0: non disponibles en thaï." in french


def test_scores_use_the_metric_mode_of_the_language_entry():
    assert language_normalization("fr") is NORMALIZATIONS["fquad-fr"]
    assert language_normalization("en") is NORMALIZATIONS["squad-en"]
    assert language_normalization("th") is NORMALIZATIONS["chars"]
    assert language_normalization("zh") is NORMALIZATIONS["mlqa-zh"]
    assert language_normalization("fr-CA") is NORMALIZATIONS["fquad-fr"]
    # French drops "la" as an article; Thai's `chars` mode keeps every word and cuts Thai
    # characters one by one.
    assert answer_scores("la tour", "tour", "fr") == (100.0, 100.0)
    assert answer_scores("la tour", "tour", "th") == (0.0, 66.67)
    assert answer_scores("กรุงเทพ", "กรุงเทพมหานคร", "th") == (0.0, 70.0)


def test_human_performance_is_per_language(two_languages):
    from types import SimpleNamespace

    from evaluation.selectors.human import human_performance_report, release_human_params

    thai = human_performance_report(language="th")
    assert (thai["language"], thai["normalization"], thai["paper"]) == (
        "th",
        {"name": "chars", "version": "1"},
        {},
    )
    french = human_performance_report()
    assert french["language"] == "fr"
    assert french["normalization"] == {"name": "fquad-fr", "version": "1"}
    assert french["paper"]["dev"] == {"f1": 92.1, "exact_match": 78.3}
    assert release_human_params(SimpleNamespace(options={"language": "th"})) == {"language": "th"}
    assert release_human_params(SimpleNamespace(options={"language": "fr"})) == {}
    assert release_human_params(SimpleNamespace(options={})) == {}
