"""The analysis job types each answer inside its paragraph and names the pipeline (issue 16)."""

import pytest

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.dataset_analysis import analysis_execute, analysis_start
from tests.factories import UserFactory

ARTICLES = {
    "Riquet": (
        "dev",
        "Riquet dirigea les travaux du canal du Midi à partir de 1666 ; le canal relie "
        "Toulouse à la mer Méditerranée et fut inauguré en 1681.",
        ["Riquet", "Toulouse", "en 1681"],
    ),
    "Balmat": (
        "test",
        "Balmat et Paccard atteignirent le sommet du mont Blanc le 8 août 1786, à 4 805 "
        "mètres d'altitude, après une longue ascension depuis Chamonix.",
        ["4 805 mètres", "une longue ascension", "atteignirent le sommet du mont Blanc"],
    ),
}


def write_questions():
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    for title, (split, text, _answers) in ARTICLES.items():
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[text],
            wave="1.0",
            split=split,
            kind="file",
        )
    campaign = campaign_create(name="Q", splits=["dev", "test"], review_rate="0")
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        text = lease.paragraph.text
        answers = ARTICLES[lease.paragraph.article.title][2]
        questions_submit(
            lease=lease,
            questions=[
                {
                    "text": f"Question {n} sur ce paragraphe ?",
                    "answer_start": text.index(answer),
                    "answer_text": answer,
                    "seconds_spent": 10,
                }
                for n, answer in enumerate(answers)
            ],
        )


@pytest.mark.django_db
def test_the_analysis_types_answers_in_their_paragraph_and_names_the_pipeline():
    write_questions()
    analysis = analysis_start()

    analysis_execute(analysis=analysis)

    analysis.refresh_from_db()
    assert analysis.status == DatasetAnalysis.Status.SUCCEEDED, analysis.error
    splits = analysis.results["splits"]
    third = pytest.approx(100 / 3)
    assert splits["dev"]["answer_types"] == {"date": third, "person": third, "place": third}
    assert splits["test"]["answer_types"] == {"common_noun": third, "number": third, "verb": third}
    assert analysis.results["answer_types_pipeline"] == "fr_core_news_md 3.8.0"


@pytest.mark.django_db
def test_the_analysis_page_names_the_pipeline(client):
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    DatasetAnalysis.objects.create(
        status=DatasetAnalysis.Status.SUCCEEDED,
        results={"splits": {}, "answer_types_pipeline": "fr_core_news_md 3.8.0"},
    )
    client.force_login(admin)
    client.cookies["django_language"] = "en"
    html = client.get("/manage/analysis/").content.decode()
    assert (
        '<p class="hint" id="answer-types-pipeline">Each answer tagged inside its paragraph by '
        "spaCy's fr_core_news_md 3.8.0.</p>"
    ) in html
