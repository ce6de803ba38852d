"""With Redis gone, people still sign in and submit; /healthz says what is down."""

import pytest
from celery import current_app
from django.core.cache import caches
from rest_framework.test import APIClient

from core.cache import ResilientRedisCache

NOWHERE = "redis://127.0.0.1:1/0"  # nothing listens on port 1: connection refused at once


@pytest.fixture
def redis_down(settings, monkeypatch):
    prefix = settings.CACHES["default"]["KEY_PREFIX"]  # this test's own (tests/conftest.py)
    settings.CACHES = {
        "default": {
            "BACKEND": "core.cache.ResilientRedisCache",
            "LOCATION": NOWHERE,
            "KEY_PREFIX": prefix,
        }
    }
    monkeypatch.setitem(current_app.conf, "broker_url", NOWHERE)
    assert isinstance(caches["default"], ResilientRedisCache)


def test_the_sign_in_form_works_while_redis_is_down(client, annotator, password, redis_down):
    response = client.post("/accounts/login/", {"username": "ann", "password": password})

    assert response.status_code == 302
    assert client.get("/").url == "/annotate/"


def test_the_limits_still_count_in_this_process(client, annotator, password, redis_down):
    codes = [
        client.post("/accounts/login/", {"username": "ann", "password": "x"}).status_code
        for _ in range(21)
    ]

    assert codes == [200] * 20 + [429]


def test_scripts_get_a_token_and_submit_while_redis_is_down(annotator, password, redis_down):
    api = APIClient()
    token = api.post(
        "/api/v1/auth/token/", {"username": "ann", "password": password}, format="json"
    )
    assert token.status_code == 200
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")

    submitted = api.post("/api/v1/submissions/", {"release": 999_999}, format="json")

    assert submitted.status_code == 404  # through the throttle to the refusal: no 500
    assert list(submitted.json()["errors"]) == ["release"]


def test_health_reports_the_cache_and_the_broker(client, db, redis_down):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content.decode().splitlines() == [
        "degraded",
        "database: ok",
        "cache: unreachable (ConnectionError); limits count per process",
        "broker: unreachable (OperationalError); jobs cannot start",
    ]


def test_health_says_ok_when_everything_answers(client, db):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content.decode().splitlines()[0] == "ok"
    assert response.content.decode().splitlines()[1:] == [
        "database: ok",
        "cache: ok",
        "broker: ok",
    ]


def test_one_redis_client_serves_every_call_and_reaches_redis(settings):
    backend = ResilientRedisCache(
        settings.REDIS_URL, {"KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"]}
    )
    client = backend._cache.get_client(write=True)
    assert backend._cache.get_client(write=False) is client
    backend.set("shared", 41)
    assert backend.incr("shared") == 42
    assert client.exists(backend.make_and_validate_key("shared")) == 1
    assert backend._fallback.get("shared") is None  # Redis answered, not the fallback
