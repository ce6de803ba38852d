"""Requests the server makes for admins stay outside (issue 24, §3): every door refuses an
internal address at input with a 400 naming the field, a run re-checks it when it sends, a
failed run says what kind of failure it was and never the reply's body, and an annotator's
questions to the model are limited."""

# ruff: noqa: F811 (the fixtures imported from test_in_the_loop are parameters here)
from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from annotation.models import ModelAttempt, ModelRound
from annotation.services.work import lease_claim_next
from core.roles import Role
from evaluation.models import BaselineRun
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from evaluation.services.model_loop.campaign_model import campaign_model_set
from exports.models import Release
from tests.evaluation.test_baseline_runs import make_release
from tests.evaluation.test_in_the_loop import (  # noqa: F401 (fixtures)
    ANSWER,
    EASY,
    adversarial,
    boss,
    paragraphs,
    span,
    writer,
)
from tests.factories import UserFactory

REFUSED = (
    "The platform does not send requests to this address: its host is {kind}. An operator "
    "may allow it (EGRESS_ALLOWED_NETWORKS or EGRESS_ALLOWED_HOSTS)."
)


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.cookies["django_language"] = "en"
    return client


# Input: a 400 naming the field, nothing recorded


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("model", "kind"),
    [
        ("http://0x7f000001/", "a loopback address"),
        ("http://2130706433:6379/", "a loopback address"),
        ("http://[::1]:5432/", "a loopback address"),
        ("http://[::ffff:127.0.0.1]/", "an IPv4 address written as IPv6"),
        ("http://169.254.169.254/", "a link-local address"),
        ("http://10.1.2.3:8000/", "a private address"),
    ],
)
def test_an_http_run_on_an_internal_address_is_refused_naming_model(model, kind):
    release = make_release()
    before = BaselineRun.objects.count()

    response = api(release.created_by).post(
        "/api/v1/baseline-runs/",
        {"release": release.pk, "kind": "http", "model": model},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        400,
        {"errors": {"model": [REFUSED.format(kind=kind)]}},
    )
    assert BaselineRun.objects.count() == before


@pytest.mark.django_db
def test_a_release_scored_by_an_internal_server_is_refused_naming_the_entry():
    admin = UserFactory(username="boss2", roles=[Role.ADMIN])
    score_with = [{"kind": "lexical"}, {"kind": "http", "model": "http://127.1:6379/"}]

    response = api(admin).post(
        "/api/v1/releases/",
        {"name": "r", "version": "1", "formats": ["squad"], "score_with": score_with},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        400,
        {"errors": {"score_with[1].model": [REFUSED.format(kind="a loopback address")]}},
    )
    assert Release.objects.count() == 0


def test_a_campaign_model_url_on_an_internal_address_is_refused_naming_model_url(adversarial, boss):
    url = f"/api/v1/campaigns/{adversarial.pk}/model/"

    response = api(boss).put(
        url, {"model_kind": "server", "model_url": "http://017700000001:6379/"}, format="json"
    )

    assert (response.status_code, response.json()) == (
        400,
        {"errors": {"model_url": [REFUSED.format(kind="a loopback address")]}},
    )
    assert ModelRound.objects.filter(campaign=adversarial).count() == 1  # round 1 only


def test_an_unresolvable_host_is_refused_at_input(adversarial, boss):
    response = api(boss).put(
        f"/api/v1/campaigns/{adversarial.pk}/model/",
        {"model_kind": "server", "model_url": "http://predict.invalid/"},
        format="json",
    )

    assert response.json() == {"errors": {"model_url": ["The host name cannot be resolved."]}}


def test_an_operator_allows_a_network_and_the_address_is_accepted(adversarial, boss, settings):
    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]

    response = api(boss).put(
        f"/api/v1/campaigns/{adversarial.pk}/model/",
        {"model_kind": "server", "model_url": "http://127.0.0.1:9/predict"},
        format="json",
    )

    assert (response.status_code, response.json()["model_url"]) == (
        200,
        "http://127.0.0.1:9/predict",
    )


# At request time: checked again; the kind of failure, never the body


class Secret(BaseHTTPRequestHandler):
    """An internal service: answers 500 with a secret; `hits` counts the requests."""

    hits: list = []

    def do_POST(self):  # noqa: N802 (the standard library's name)
        self.hits.append(self.path)
        body = b"INTERNAL-SECRET-TOKEN=hunter2-7f3a"
        self.send_response(500)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def secret_server():
    handler = type("Handler", (Secret,), {"hits": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", handler.hits
    server.shutdown()
    server.server_close()


@pytest.mark.django_db
def test_a_failed_run_names_the_status_and_the_body_goes_only_to_the_log(
    secret_server, settings, caplog
):
    url, hits = secret_server
    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    run = baseline_run_record(release=make_release(), kind="http", model=url)

    baseline_run_execute(run=run)

    run.refresh_from_db()
    assert run.status == BaselineRun.Status.FAILED
    assert run.error == (
        f"PredictServerError: predict server {url}: context 1: answered HTTP 500, not 200"
    )
    assert len(hits) == 1
    for shown in (run.error, run.log, run.message):
        assert "INTERNAL-SECRET-TOKEN" not in shown
    assert "INTERNAL-SECRET-TOKEN=hunter2-7f3a" in caplog.text


@pytest.mark.django_db
def test_a_run_checks_the_address_again_when_it_sends(secret_server, settings):
    url, hits = secret_server
    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    run = baseline_run_record(release=make_release(), kind="http", model=url)
    settings.EGRESS_ALLOWED_NETWORKS = []  # the operator's setting (or the DNS) changed since

    baseline_run_execute(run=run)

    run.refresh_from_db()
    assert run.error == (
        f"PredictServerError: predict server {url}: refused by the egress policy: "
        "the host is a loopback address"
    )
    assert hits == []


# Model attempts: a limit per annotator


def test_an_annotator_asking_the_model_too_often_gets_429_saying_when_to_retry(
    adversarial, writer, paragraphs, settings
):
    settings.MODEL_ATTEMPTS_RATE = "3/minute"
    lease = lease_claim_next(campaign=adversarial, annotator=writer).lease
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    body = {"key": "k1", "text": EASY} | span(ANSWER)

    statuses = [api(writer).post(url, body, format="json").status_code for _ in range(3)]
    refused = api(writer).post(url, body, format="json")

    assert statuses == [201, 201, 201]
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 60
    assert refused.json() == {
        "errors": {
            "detail": [
                "You asked the model too many questions in a short time. "
                f"Try again in {wait} second{'s' if wait > 1 else ''}."
            ]
        }
    }
    assert ModelAttempt.objects.filter(lease=lease).count() == 3
    # Another annotator has their own count.
    other = UserFactory(username="other", roles=[Role.ANNOTATOR])
    their = lease_claim_next(campaign=adversarial, annotator=other).lease
    answered = api(other).post(
        f"/api/v1/leases/{their.pk}/attempts/",
        {"key": "k1", "text": "Quel est ce texte ?"}
        | {"answer_start": 0, "answer_text": their.paragraph.text[:5]},
        format="json",
    )
    assert answered.status_code == 201


def test_the_refusal_is_translated(adversarial, writer, paragraphs, settings):
    settings.MODEL_ATTEMPTS_RATE = "1/hour"
    lease = lease_claim_next(campaign=adversarial, annotator=writer).lease
    url = f"/api/v1/leases/{lease.pk}/attempts/"
    body = {"key": "k1", "text": EASY} | span(ANSWER)
    client = api(writer)
    client.cookies["django_language"] = "fr"

    assert client.post(url, body, format="json").status_code == 201
    refused = client.post(url, body, format="json")

    assert refused.status_code == 429
    assert refused.json()["errors"]["detail"][0].startswith(
        "Vous avez posé trop de questions au modèle en peu de temps."
    )


@pytest.mark.django_db
def test_campaign_model_set_refuses_an_internal_url_at_the_service_too(adversarial):
    from core.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        campaign_model_set(
            campaign=adversarial,
            data={"model_kind": "server", "model_url": "http://[::]:8000/"},
        )
    assert refused.value.errors == {"model_url": [REFUSED.format(kind="an unspecified address")]}
