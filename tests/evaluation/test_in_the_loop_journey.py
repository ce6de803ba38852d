"""The model-in-the-loop journey through the API (issue 15): an admin gives an adversarial
campaign the lexical model, an annotator rephrases a question until the model is fooled and
sends the paragraph, a reviewer shrinks the answer span and "fooled" is computed again, and the
release's HF JSONL and datasheet carry the figures and load with `datasets`."""

import json

import pytest
from rest_framework.test import APIClient

from annotation.models import ModelAttempt, Question
from annotation.services.campaigns import campaign_create
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from exports.models import Release
from exports.services.releases import release_build, release_create
from tests.annotation.conftest import TEXTS
from tests.factories import UserFactory
from tests.needs import require_module

pytestmark = [pytest.mark.usefixtures("releases_folder"), pytest.mark.both_backends]

LOIRE = TEXTS[0]
LONG_SPAN = "France, avec 1 006 km"  # the annotator's span, too long
SHORT_SPAN = "1 006 km"  # the reviewer's
FIRST = "Quelle est la longueur de la Loire ?"  # the lexical model: "long", F1 0
SECOND = "La Loire mesure combien de km ?"  # "006": F1 33.33 against LONG_SPAN, 50 against SHORT


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.cookies["django_language"] = "en"
    return client


def span(text: str) -> dict:
    return {"answer_start": LOIRE.index(text), "answer_text": text}


@pytest.fixture
def people(db):
    article_store(
        language="fr",
        source=SourceArticle(title="Loire", source_title="Loire"),
        paragraphs=[LOIRE],
        wave="1.0",
        split="dev",
        kind="file",
    )
    return {
        "boss": UserFactory(username="boss", roles=[Role.ADMIN]),
        "writer": UserFactory(username="writer", roles=[Role.ANNOTATOR]),
        "reviewer": UserFactory(username="reader", roles=[Role.REVIEWER]),
    }


def test_rephrased_until_fooled_reviewed_and_released(people, releases_folder, tmp_path):
    boss, writer, reviewer = people["boss"], people["writer"], people["reviewer"]
    campaign = campaign_create(name="Contre le modèle", splits=["dev"], review_rate="1.00")
    settings = {
        "model_kind": "lexical",
        "model_mode": "adversarial",
        "model_f1_threshold": 40,
        "model_fooling_target": 1,
    }
    assert (
        api(boss)
        .put(f"/api/v1/campaigns/{campaign.pk}/model/", settings, format="json")
        .status_code
        == 200
    )

    lease = api(writer).post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()
    attempts = f"/api/v1/leases/{lease['id']}/attempts/"
    first = api(writer).post(attempts, {"key": "a", "text": FIRST} | span(LONG_SPAN), format="json")
    second = api(writer).post(
        attempts, {"key": "a", "text": SECOND} | span(LONG_SPAN), format="json"
    )
    assert [
        (r.json()["model_answer"], r.json()["f1"], r.json()["fooled"]) for r in (first, second)
    ] == [
        ("long", 0.0, True),
        ("006", 33.33, True),
    ]
    questions = [
        {"text": SECOND, "model_key": "a", "seconds_spent": 70} | span(LONG_SPAN),
        {"text": "Où la Loire prend-elle sa source ?", "seconds_spent": 40}
        | span("mont Gerbier-de-Jonc"),
        {"text": "Dans quel océan la Loire se jette-t-elle ?", "seconds_spent": 30}
        | span("océan Atlantique"),
    ]
    sent = api(writer).post(
        f"/api/v1/leases/{lease['id']}/submit/", {"questions": questions}, format="json"
    )
    assert sent.status_code == 201
    question = Question.objects.get(campaign=campaign, position=0)
    assert (question.model_attempts, question.model_f1, question.model_fooled) == (2, 33.33, True)

    # The reviewer shrinks the span to the smallest answer: the model's "006" now overlaps it
    # at F1 50, over the 40 % threshold: not fooled any more. The attempts stay as they were.
    review = api(reviewer).post(f"/api/v1/campaigns/{campaign.pk}/review-leases/").json()
    assert review["question"]["id"] == str(question.uuid)
    corrected = api(reviewer).post(
        f"/api/v1/leases/{review['id']}/submit/",
        {"verdict": "correct", "comment": "Plus court."} | span(SHORT_SPAN),
        format="json",
    )
    assert corrected.status_code == 201
    question.refresh_from_db()
    assert (question.status, question.model_exact, question.model_f1, question.model_fooled) == (
        "corrected",
        0.0,
        50.0,
        False,
    )
    assert list(ModelAttempt.objects.filter(question=question).values_list("f1", "fooled")) == [
        (0.0, True),
        (33.33, True),
    ]

    release = release_create(created_by=boss, name="boucle", version="1.0", formats=["hf"])
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    folder = releases_folder / "releases" / str(release.pk)
    lines = [json.loads(line) for line in (folder / "hf-dev.jsonl").read_text().splitlines()]
    assert lines[0]["question"] == SECOND
    assert lines[0]["answers"] == {"text": [SHORT_SPAN], "answer_start": [LOIRE.index(SHORT_SPAN)]}
    assert lines[0]["model_in_the_loop"] == {
        "model": "lexical",
        "round": 1,
        "status": "answered",
        "answer": "006",
        "exact_match": 0.0,
        "f1": 50.0,
        "fooled": False,
        "attempts": 2,
    }
    # The other two were never asked on the page: the model is asked at submission, by a task
    # (not run here), so they have no verdict yet.
    assert [line["model_in_the_loop"]["status"] for line in lines[1:]] == ["none", "none"]
    readme = (folder / "README.md").read_text()
    assert "## Model in the loop" in readme
    assert release.manifest["model_in_the_loop"]["splits"]["dev"]["fooled"] == 0

    datasets = require_module("datasets", "users read the HF JSONL with it")
    loaded = datasets.load_dataset(
        "json", data_files=str(folder / "hf-dev.jsonl"), cache_dir=str(tmp_path / "cache")
    )["train"]
    assert loaded[0]["model_in_the_loop"]["f1"] == 50.0
    assert loaded.num_rows == 3
