"""Model in the loop: a campaign's model settings, the attempts while a question is written,
and the model's verdict stored with each question at submission (issue 15)."""

import time
from decimal import Decimal

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from annotation.models import Lease, ModelAttempt, ModelRound, Question
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.work import lease_claim_next
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun
from evaluation.services.model_loop.attempts import model_answers_fill
from evaluation.services.model_loop.campaign_model import campaign_model_set
from exports.models import Release
from tests.annotation.conftest import TEXTS
from tests.evaluation.predict_servers import Garbage, Slow, serving
from tests.factories import UserFactory

# `make test` runs it on SQLite too; its model servers listen on 127.0.0.1.
pytestmark = [pytest.mark.both_backends, pytest.mark.usefixtures("loopback_allowed")]

LOIRE = TEXTS[0]
ANSWER = "1 006 km"
# The lexical model answers "006" (F1 50 against "1 006 km": not fooled at 40 %), then "long"
# to the rephrasing (F1 0: fooled).
EASY = "La Loire mesure combien de km ?"
HARD = "Quelle est la longueur de la Loire ?"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def paragraphs(db):
    """The annotation tests' three paragraphs, in dev, one per article."""
    return [
        article_store(
            language="fr",
            source=SourceArticle(title=f"A{i}", source_title=f"A{i}"),
            paragraphs=[text],
            wave="1.0",
            split="dev",
            kind="file",
        ).paragraphs.get()
        for i, text in enumerate(TEXTS)
    ]


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


@pytest.fixture
def writer(db):
    return UserFactory(username="writer", roles=[Role.ANNOTATOR])


@pytest.fixture
def adversarial(db, boss):
    campaign = campaign_create(name="Contre le modèle", splits=["dev"])
    return campaign_model_set(
        campaign=campaign,
        data={
            "model_kind": "lexical",
            "model_mode": "adversarial",
            "model_f1_threshold": 40,
            "model_fooling_target": 1,
        },
        user=boss,
    )


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.cookies["django_language"] = "en"
    return client


def span(text: str) -> dict:
    return {"answer_start": LOIRE.index(text), "answer_text": text}


def the_lease(campaign, writer, paragraphs) -> Lease:
    lease = lease_claim_next(campaign=campaign, annotator=writer).lease
    assert lease.paragraph == paragraphs[0]
    return lease


# Settings


def test_an_admin_sets_the_model_and_round_1_starts(adversarial, boss):
    assert (adversarial.model_kind, adversarial.model_mode) == ("lexical", "adversarial")
    assert adversarial.model_f1_threshold == Decimal(40)
    assert (adversarial.model_fooling_target, adversarial.model_round) == (1, 1)
    first = ModelRound.objects.get(campaign=adversarial)
    assert (first.number, first.model_kind, first.label) == (1, "lexical", "lexical")
    assert (first.f1_threshold, first.created_by, first.status) == (Decimal(40), boss, "succeeded")


def test_the_mode_alone_keeps_the_round_and_a_new_threshold_starts_the_next(adversarial):
    settings = {"model_kind": "lexical", "model_f1_threshold": 40}
    campaign_model_set(campaign=adversarial, data=settings | {"model_mode": "show"})
    assert ModelRound.objects.filter(campaign=adversarial).count() == 1
    campaign = campaign_model_set(campaign=adversarial, data=settings | {"model_f1_threshold": 50})
    assert campaign.model_round == 2
    rounds = ModelRound.objects.filter(campaign=adversarial).order_by("number")
    assert [(r.number, r.f1_threshold) for r in rounds] == [(1, Decimal(40)), (2, Decimal(50))]
    off = campaign_model_set(campaign=adversarial, data={"model_kind": "none"})
    assert (off.model_kind, off.model_round, off.has_model) == ("none", 2, False)


def test_the_api_shows_and_changes_the_settings_for_admins_only(adversarial, boss, writer):
    url = f"/api/v1/campaigns/{adversarial.pk}/model/"
    assert api(writer).get(url).status_code == 403
    response = api(boss).get(url)
    assert response.status_code == 200
    assert response.json() == {
        "campaign": adversarial.pk,
        "model_kind": "lexical",
        "model_run": None,
        "model_url": "",
        "model_mode": "adversarial",
        "model_f1_threshold": 40.0,
        "model_fooling_target": 1,
        "model_round": 1,
        "model": "lexical",
    }
    put = api(boss).put(
        url,
        {"model_kind": "server", "model_url": "http://127.0.0.1:9/predict", "model_mode": "show"},
        format="json",
    )
    assert put.status_code == 200
    assert (put.json()["model"], put.json()["model_round"]) == ("127.0.0.1:9", 2)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"model_kind": "lexical", "model_f1_threshold": 100.5},
            "model_f1_threshold",
            "A percentage from 0 to 100 (at most two decimals), like 40.",
        ),
        (
            {"model_kind": "lexical", "model_f1_threshold": -1},
            "model_f1_threshold",
            "A percentage from 0 to 100 (at most two decimals), like 40.",
        ),
        (
            {"model_kind": "lexical", "model_mode": "adversarial", "model_fooling_target": 6},
            "model_fooling_target",
            "From 1 to 5: the model-fooling questions asked of each paragraph, at most the "
            "campaign's most questions per paragraph.",
        ),
        (
            {"model_kind": "lexical", "model_mode": "sideways"},
            "model_mode",
            "Choose show or adversarial.",
        ),
        ({"model_kind": "oracle"}, "model_kind", "Choose one of none, lexical, run, server."),
        (
            {"model_kind": "server", "model_url": "ftp://models.example.org"},
            "model_url",
            "An http:// or https:// address of the predict server.",
        ),
        ({"model_kind": "run", "model_run": "x"}, "model_run", "Choose a finished baseline run."),
        ({"model_kind": "run", "model_run": 999999}, "model_run", None),
    ],
)
def test_bad_settings_are_refused_naming_the_field_and_change_nothing(
    adversarial, boss, data, field, message
):
    response = api(boss).put(f"/api/v1/campaigns/{adversarial.pk}/model/", data, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert list(errors) == [field]
    if message:
        assert errors[field] == [message]
    adversarial.refresh_from_db()
    assert (adversarial.model_kind, adversarial.model_round) == ("lexical", 1)
    assert ModelRound.objects.filter(campaign=adversarial).count() == 1


def test_a_run_that_is_not_finished_is_refused_and_a_finished_one_starts_a_round(adversarial, boss):
    release = Release.objects.create(name="r", version="1", status=Release.Status.SUCCEEDED)
    running = BaselineRun.objects.create(release=release, kind="lexical", status="running")
    with pytest.raises(ServiceError) as refused:
        campaign_model_set(
            campaign=adversarial, data={"model_kind": "run", "model_run": running.pk}
        )
    assert refused.value.errors == {
        "model_run": [f"Baseline run {running.pk} is not a finished run."]
    }
    trained = BaselineRun.objects.create(
        release=release, kind="finetune", model="camembert-base", status="succeeded"
    )
    with pytest.raises(ServiceError) as refused:
        campaign_model_set(
            campaign=adversarial, data={"model_kind": "run", "model_run": trained.pk}
        )
    assert refused.value.errors == {
        "model_run": [f"Baseline run {trained.pk} kept no fine-tuned model."]
    }
    BaselineRun.objects.filter(pk=trained.pk).update(checkpoint="/var/models/baseline-1")
    campaign = campaign_model_set(
        campaign=adversarial, data={"model_kind": "run", "model_run": trained.pk}
    )
    second = ModelRound.objects.get(campaign=campaign, number=2)
    assert (second.model_run, second.label) == (
        trained,
        f"baseline run {trained.pk} · camembert-base",
    )


def test_only_a_questions_campaign_takes_a_model(db):
    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])
    with pytest.raises(ServiceError) as refused:
        campaign_model_set(campaign=answers, data={"model_kind": "lexical"})
    assert refused.value.errors == {
        "model_kind": ["A model answers the questions of a questions campaign only."]
    }


def test_the_most_questions_may_not_fall_under_the_fooling_target(adversarial):
    campaign_model_set(
        campaign=adversarial,
        data={"model_kind": "lexical", "model_mode": "adversarial", "model_fooling_target": 4},
    )
    adversarial.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        campaign_update(campaign=adversarial, questions_max=3)
    assert refused.value.errors == {
        "questions_max": ["At least the 4 model-fooling questions the campaign asks for."]
    }


# Attempts


def test_attempts_are_numbered_per_question_with_the_models_answer_and_f1(
    adversarial,
    writer,
    paragraphs,
):
    lease = the_lease(adversarial, writer, paragraphs)
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    first = api(writer).post(url, {"key": "k1", "text": EASY} | span(ANSWER), format="json")
    assert first.status_code == 201
    body = first.json()
    assert body.pop("milliseconds") >= 0
    assert body == {
        "id": body["id"],
        "key": "k1",
        "number": 1,
        "status": "answered",
        "model": "lexical",
        "round": 1,
        "threshold": 40.0,
        "text": EASY,
        "answer_start": LOIRE.index(ANSWER),
        "answer_text": ANSWER,
        "model_answer": "006",
        "model_answer_start": LOIRE.index("006"),
        "exact_match": 0.0,
        "f1": 50.0,
        "fooled": False,
    }
    second = api(writer).post(url, {"key": "k1", "text": HARD} | span(ANSWER), format="json")
    assert (second.json()["number"], second.json()["model_answer"]) == (2, "long")
    assert (second.json()["f1"], second.json()["fooled"]) == (0.0, True)
    other = api(writer).post(url, {"key": "k2", "text": EASY} | span("Ardèche"), format="json")
    assert (other.json()["number"], other.json()["f1"], other.json()["fooled"]) == (1, 0.0, True)
    listed = api(writer).get(url).json()
    assert [(a["key"], a["number"], a["text"]) for a in listed] == [
        ("k1", 1, EASY),
        ("k1", 2, HARD),
        ("k2", 1, EASY),
    ]


@pytest.mark.parametrize(
    ("data", "errors"),
    [
        (
            {"key": "k 1", "text": EASY} | span(ANSWER),
            {"key": ["Up to 64 letters, digits, - or _."]},
        ),
        ({"key": "k1", "text": "  "} | span(ANSWER), {"text": ["Write the question."]}),
        (
            {"key": "k1", "text": EASY, "answer_start": 3, "answer_text": ANSWER},
            {"answer_text": ["The answer is not the text at this place of the paragraph."]},
        ),
        ([1, 2], {"detail": ["An object with key, text, answer_start and answer_text."]}),
    ],
)
def test_bad_attempts_are_refused_and_record_nothing(
    adversarial,
    writer,
    paragraphs,
    data,
    errors,
):
    lease = the_lease(adversarial, writer, paragraphs)
    response = api(writer).post(f"/api/v1/leases/{lease.pk}/attempts/", data, format="json")
    assert (response.status_code, response.json()) == (400, {"errors": errors})
    assert not ModelAttempt.objects.exists()


def test_attempts_belong_to_the_leases_annotator_and_campaigns_with_a_model(
    adversarial,
    writer,
    paragraphs,
):
    lease = the_lease(adversarial, writer, paragraphs)
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    stranger = UserFactory(username="stranger", roles=[Role.ANNOTATOR])
    data = {"key": "k1", "text": EASY} | span(ANSWER)
    assert api(stranger).post(url, data, format="json").status_code == 403
    reviewer = UserFactory(username="rev2", roles=[Role.REVIEWER])
    assert api(reviewer).post(url, data, format="json").status_code == 403
    campaign_model_set(campaign=adversarial, data={"model_kind": "none"})
    refused = api(writer).post(url, data, format="json")
    assert refused.status_code == 409
    assert refused.json() == {
        "errors": {"campaign": ["No model answers this campaign's questions."]}
    }
    assert api(writer).post("/api/v1/leases/0/attempts/", data, format="json").status_code == 404


# Submission


def questions(keys=("k1", "k2", "k3"), first=HARD):
    texts = [
        first,
        "Dans quelle région se trouve le mont Gerbier-de-Jonc ?",
        "Où la Loire se jette-t-elle ?",
    ]
    answers = [ANSWER, "Ardèche", "Saint-Nazaire"]
    return [
        {"text": text, "seconds_spent": 30, "model_key": key} | span(answer)
        for text, answer, key in zip(texts, answers, keys, strict=True)
    ]


def test_a_submitted_question_keeps_its_last_attempt_its_count_and_the_verdict(
    adversarial,
    writer,
    paragraphs,
    django_capture_on_commit_callbacks,
):
    lease = the_lease(adversarial, writer, paragraphs)
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    for text in (EASY, HARD):
        api(writer).post(url, {"key": "k1", "text": text} | span(ANSWER), format="json")
    sent = questions()
    api(writer).post(url, {"key": "k2", "text": sent[1]["text"]} | span("Ardèche"), format="json")
    with django_capture_on_commit_callbacks() as callbacks:
        response = api(writer).post(
            f"/api/v1/leases/{lease.pk}/submit/", {"questions": sent}, format="json"
        )
    assert response.status_code == 201
    stored = list(Question.objects.filter(lease=lease).order_by("position"))
    last = ModelAttempt.objects.get(lease=lease, key="k1", number=2)
    assert (stored[0].model_attempt, stored[0].model_attempts) == (last, 2)
    assert (stored[0].model_exact, stored[0].model_f1, stored[0].model_fooled) == (0.0, 0.0, True)
    assert stored[1].model_attempts == 1 and stored[1].model_fooled is not None
    assert list(
        ModelAttempt.objects.filter(question=stored[0]).values_list("number", flat=True)
    ) == [1, 2]
    # The third was never asked: the model is asked after the commit, by a task.
    assert (stored[2].model_attempt, stored[2].model_attempts, stored[2].model_fooled) == (
        None,
        0,
        None,
    )
    assert len(callbacks) >= 1
    assert model_answers_fill(question_pks=[stored[2].pk]) == 1
    third = Question.objects.get(pk=stored[2].pk)
    check = ModelAttempt.objects.get(question=third)
    assert (check.key, check.number, check.text) == (f"q{third.pk}", 1, sent[2]["text"])
    assert (third.model_attempt, third.model_attempts) == (check, 1)
    assert third.model_f1 == check.f1
    assert model_answers_fill(question_pks=[stored[2].pk]) == 0  # done once only


def test_a_question_rephrased_after_its_last_attempt_is_asked_again_at_submission(
    adversarial,
    writer,
    paragraphs,
):
    lease = the_lease(adversarial, writer, paragraphs)
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    api(writer).post(url, {"key": "k1", "text": EASY} | span(ANSWER), format="json")
    response = api(writer).post(
        f"/api/v1/leases/{lease.pk}/submit/", {"questions": questions()}, format="json"
    )
    assert response.status_code == 201
    first = Question.objects.get(lease=lease, position=0)
    assert (first.model_attempt, first.model_attempts) == (None, 1)  # asked "EASY", sent "HARD"
    assert model_answers_fill(question_pks=[first.pk]) == 1
    first.refresh_from_db()
    assert (first.model_attempts, first.model_attempt.number, first.model_attempt.key) == (
        2,
        1,
        f"q{first.pk}",
    )
    assert (first.model_attempt.model_answer, first.model_f1, first.model_fooled) == (
        "long",
        0.0,
        True,
    )


def test_a_bad_model_key_refuses_the_submission_naming_the_field(
    adversarial,
    writer,
    paragraphs,
):
    lease = the_lease(adversarial, writer, paragraphs)
    sent = questions(keys=("k1", "k2", "k/3"))
    response = api(writer).post(
        f"/api/v1/leases/{lease.pk}/submit/", {"questions": sent}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["questions[2].model_key"]
    assert not Question.objects.exists()


# A model that is down or slow


@pytest.fixture
def slow_server():
    with serving(Slow) as url:
        yield url


def test_a_slow_model_gives_an_unavailable_attempt_and_the_work_goes_on(
    adversarial,
    writer,
    paragraphs,
    slow_server,
    settings,
):
    settings.MODEL_LOOP_TIMEOUT_SECONDS = 0.3
    campaign_model_set(
        campaign=adversarial, data={"model_kind": "server", "model_url": slow_server}
    )
    lease = the_lease(adversarial, writer, paragraphs)
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    api(writer).post(url, {"key": "k0", "text": EASY} | span(ANSWER), format="json")  # warm
    started = time.monotonic()
    response = api(writer).post(url, {"key": "k1", "text": HARD} | span(ANSWER), format="json")
    assert time.monotonic() - started < 1.2  # the time-out, not the server's 1.5 s
    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["model_answer"], body["f1"], body["fooled"]) == (
        "unavailable",
        None,
        None,
        None,
    )
    assert body["model"] == slow_server.split("/")[2]
    submitted = api(writer).post(
        f"/api/v1/leases/{lease.pk}/submit/", {"questions": questions()}, format="json"
    )
    assert submitted.status_code == 201
    first = Question.objects.get(lease=lease, position=0)
    assert (first.text, first.model_attempts, first.model_fooled) == (HARD, 1, None)
    assert model_answers_fill(question_pks=[first.pk]) == 0  # still too slow: no verdict
    first.refresh_from_db()
    assert (first.model_attempts, first.model_fooled) == (2, None)


# The page


def test_the_model_page_saves_the_settings_and_lists_the_rounds(client, adversarial, boss):
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    url = f"/manage/campaigns/{adversarial.pk}/model/"
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert '<input type="radio" name="model_kind" value="lexical"' in html
    assert 'id="model-rounds"' in html and "<td>lexical</td>" in html
    # Issue 25, left over: the rounds have their own results page; the link lands on this
    # campaign's section of it.
    link = f'<a href="/manage/results/model-rounds/#model-rounds-{adversarial.pk}" id="model-rounds-link">'
    assert link in html
    rounds_page = client.get("/manage/results/model-rounds/").content.decode()
    assert f'<h2 id="model-rounds-{adversarial.pk}">{adversarial.name}</h2>' in rounds_page
    form = {
        "model_kind": "lexical",
        "model_mode": "adversarial",
        "model_f1_threshold": "35.5",
        "model_fooling_target": "2",
        "model_run": "",
        "model_url": "",
    }
    saved = client.post(url, form)
    assert (saved.status_code, saved.url) == (302, url)
    adversarial.refresh_from_db()
    assert (adversarial.model_f1_threshold, adversarial.model_fooling_target) == (
        Decimal("35.5"),
        2,
    )
    assert adversarial.model_round == 2
    refused = client.post(url, form | {"model_f1_threshold": "140"})
    assert refused.status_code == 400
    assert "A percentage from 0 to 100 (at most two decimals), like 40." in refused.content.decode()
    adversarial.refresh_from_db()
    assert adversarial.model_f1_threshold == Decimal("35.5")
    dashboard = client.get(f"/manage/campaigns/{adversarial.pk}/dashboard/")
    html = dashboard.content.decode()
    assert "Model in the loop: the lexical baseline (sliding window)" in html
    assert '<div class="counter" id="fooled-count"><strong>0 / 0</strong>fooled the model' in html


def test_the_model_page_is_for_admins_only(client, adversarial, writer):
    client.force_login(writer)
    assert client.get(f"/manage/campaigns/{adversarial.pk}/model/").status_code == 403
    assert client.post(f"/manage/campaigns/{adversarial.pk}/model/", {}).status_code == 403


def test_a_model_answering_garbage_is_unavailable_never_a_500(
    adversarial, writer, paragraphs, settings
):
    with serving(Garbage) as url:
        campaign_model_set(campaign=adversarial, data={"model_kind": "server", "model_url": url})
        lease = the_lease(adversarial, writer, paragraphs)
        response = api(writer).post(
            f"/api/v1/leases/{lease.pk}/attempts/",
            {"key": "k1", "text": HARD} | span(ANSWER),
            format="json",
        )
    assert response.status_code == 201
    assert (response.json()["status"], response.json()["model_answer"]) == ("unavailable", None)
    attempt = ModelAttempt.objects.get()
    assert (attempt.status, attempt.f1, attempt.fooled) == ("unavailable", None, None)


def test_the_run_dropdown_is_written_in_the_readers_language(db):
    """Issue 25 §16: it said "baseline run 4 · … · dev F1 3.3" on a French page."""
    from evaluation.views.in_the_loop import run_choices

    release = Release.objects.create(name="r1", version="1", status=Release.Status.SUCCEEDED)
    run = BaselineRun.objects.create(
        release=release,
        kind="finetune",
        model="camembert-base",
        status="succeeded",
        metrics={"dev": {"f1": 3.26, "exact_match": 0.0}},
    )
    with translation.override("fr"):
        assert run_choices()[1] == (
            str(run.pk),
            f"Évaluation de référence {run.pk} · camembert-base · r1 · F1 dev 3,3",
        )
    with translation.override("en"):
        assert run_choices()[1] == (
            str(run.pk),
            f"Baseline run {run.pk} · camembert-base · r1 · dev F1 3.3",
        )
