"""Real answers checked against the OpenAPI schema, one operation at a time: the answers a
small fuzz budget rarely reaches (a scrape run's log with entries, each file of a built
release, a download's refusals). Each call goes through Schemathesis to the WSGI app, and its
answer must match what the schema declares (status code, content type, body)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import token_issue
from core.roles import Role
from corpus.models import ScrapeLogEntry
from corpus.scraping import scrape_run_start
from exports.models import Release
from exports.services import release_create
from tests.factories import UserFactory

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def schema(openapi):
    return openapi


@pytest.fixture
def admin_headers(db):
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    return {"Authorization": f"Token {token_issue(user=boss)}", "Accept-Language": "en"}


def _call(schema, path: str, headers: dict, **path_parameters):
    case = schema[path]["GET"].Case(path_parameters=path_parameters)
    response = case.call(headers=headers)
    case.validate_response(response, checks=CHECKS, headers=headers)
    return response


def test_a_scrape_runs_log_answers_the_list_its_schema_declares(schema, admin_headers, settings):
    settings.WIKIPEDIA_USER_AGENT = "qaplatform-tests/1.0 (tests@example.org)"
    run = scrape_run_start(
        category="Article de qualité", sample_size=3, seed=1, wave="1.1", enqueue=False
    )
    ScrapeLogEntry.objects.create(
        run=run,
        level="warning",
        title="Canal du Midi",
        message="%(count)s paragraphs kept.",
        message_params={"count": 2},
        dropped=[{"reason": "short", "text": "Voir aussi"}],
    )

    response = _call(schema, "/api/v1/scrape-runs/{id}/log/", admin_headers, id=run.pk)

    assert [(entry["level"], entry["title"]) for entry in response.json()] == [
        ("warning", "Canal du Midi")
    ]
    empty = scrape_run_start(
        category="Article de qualité", sample_size=3, seed=2, wave="1.1", enqueue=False
    )
    assert _call(schema, "/api/v1/scrape-runs/{id}/log/", admin_headers, id=empty.pk).json() == []


def test_every_file_of_a_release_downloads_with_a_content_type_its_schema_declares(
    schema, admin_headers, releases_folder
):
    from tests.evaluation.test_baseline_runs import make_release

    release = make_release(include_history=True)
    names = {item.name: item.media_type for item in release.files.filter(internal=False)}
    assert set(names.values()) == {
        "application/json",
        "application/x-ndjson",
        "text/markdown",
    }

    path = "/api/v1/releases/{id}/files/{name}"
    for name, media_type in names.items():
        response = _call(schema, path, admin_headers, id=release.pk, name=name)
        assert (response.status_code, response.headers["content-type"][0]) == (200, media_type)


def test_an_mrqa_file_downloads_as_gzip_as_its_schema_declares(
    schema, admin_headers, releases_folder
):
    built = _mrqa_release()
    item = built.files.filter(name__endswith=".jsonl.gz").order_by("name").first()

    response = _call(
        schema, "/api/v1/releases/{id}/files/{name}", admin_headers, id=built.pk, name=item.name
    )

    assert (response.status_code, response.headers["content-type"][0]) == (200, "application/gzip")


def _mrqa_release() -> Release:
    from exports.services import release_build
    from tests.evaluation.test_baseline_runs import make_release

    first = make_release()
    release = release_create(created_by=first.created_by, name="r2", version="1", formats=["mrqa"])
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


def test_a_downloads_refusals_are_the_json_errors_its_schema_declares(
    schema, admin_headers, releases_folder
):
    from tests.evaluation.test_baseline_runs import make_release

    built = make_release()
    path = "/api/v1/releases/{id}/files/{name}"
    missing = _call(schema, path, admin_headers, id=built.pk, name="nothing.json")
    unfinished = release_create(
        created_by=built.created_by, name="r3", version="1", formats=["squad"]
    )
    not_built = _call(schema, path, admin_headers, id=unfinished.pk, name="README.md")
    Release.objects.filter(pk=built.pk).update(files_pruned_at=timezone.now())
    pruned = _call(schema, path, admin_headers, id=built.pk, name="README.md")

    assert [
        (answer.status_code, answer.headers["content-type"][0], list(answer.json()["errors"]))
        for answer in (missing, not_built, pruned)
    ] == [
        (404, "application/json", ["name"]),
        (409, "application/json", ["release"]),
        (410, "application/json", ["name"]),
    ]
