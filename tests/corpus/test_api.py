"""Corpus API: cursor pages, filters, the split fix, scrape runs; admins only."""

import pytest
from rest_framework.test import APIClient

from corpus.models import ScrapeRun
from tests.corpus.test_views import make_article


@pytest.fixture
def api(admin_user):
    client = APIClient()
    client.force_authenticate(admin_user)
    return client


def test_articles_are_cursor_paginated_and_filtered(api):
    for i in range(5):
        make_article(f"Train {i}", split="train")
    make_article("Dev", split="dev")
    first = api.get("/api/v1/articles/?split=train&page_size=3").json()
    assert [a["title"] for a in first["results"]] == ["Train 0", "Train 1", "Train 2"]
    second = api.get(first["next"]).json()
    assert [a["title"] for a in second["results"]] == ["Train 3", "Train 4"]
    assert second["next"] is None
    assert first["results"][0]["paragraph_count"] == 1


def test_an_unknown_split_filter_is_a_400(api):
    response = api.get("/api/v1/articles/?split=validation")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["split"]


def test_paragraphs_by_article_and_split(api):
    article = make_article("Loire", split="dev", paragraphs=["a" * 500, "b" * 500])
    make_article("Seine", split="train")
    body = api.get(f"/api/v1/paragraphs/?article={article.pk}").json()
    assert [(p["position"], p["split"]) for p in body["results"]] == [(0, "dev"), (1, "dev")]
    assert len(api.get("/api/v1/paragraphs/?split=train").json()["results"]) == 1
    assert api.get("/api/v1/paragraphs/?article=x").status_code == 400


def test_patch_moves_an_article_and_fixes_its_split(api):
    article = make_article("Loire", split="train")
    response = api.patch(f"/api/v1/articles/{article.pk}/", {"split": "dev"}, format="json")
    assert response.status_code == 200
    assert (response.json()["split"], response.json()["split_fixed"]) == ("dev", True)
    bad = api.patch(f"/api/v1/articles/{article.pk}/", {"split": "nope"}, format="json")
    assert bad.status_code == 400
    assert list(bad.json()["errors"]) == ["split"]


def test_other_fields_cannot_be_patched(api):
    article = make_article("Loire", split="train")
    response = api.patch(f"/api/v1/articles/{article.pk}/", {"title": "Seine"}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["split"]
    article.refresh_from_db()
    assert article.title == "Loire"


def test_scrape_run_api(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        response = api.post(
            "/api/v1/scrape-runs/",
            {"category": "Article de qualité", "sample": 5, "seed": 1, "wave": "1.0"},
            format="json",
        )
    assert response.status_code == 201
    run_id = response.json()["id"]
    assert api.get(f"/api/v1/scrape-runs/{run_id}/").json()["status"] == "pending"
    assert api.get(f"/api/v1/scrape-runs/{run_id}/log/").json() == []


def test_scrape_run_api_refuses_a_negative_sample(api):
    response = api.post(
        "/api/v1/scrape-runs/",
        {"category": "Article de qualité", "sample": -1, "seed": 1, "wave": "1.0"},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["sample"]
    assert ScrapeRun.objects.count() == 0


def test_corpus_api_is_for_admins(reviewer):
    client = APIClient()
    client.force_authenticate(reviewer)
    for path in ("/api/v1/articles/", "/api/v1/paragraphs/", "/api/v1/scrape-runs/"):
        assert client.get(path).status_code == 403


@pytest.mark.parametrize("query", ["article=²", "article=99999999999999999999999", "wave=a%00b"])
def test_odd_filters_are_400_naming_the_field(api, query):
    response = api.get(f"/api/v1/paragraphs/?{query}")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [query.split("=")[0]]
