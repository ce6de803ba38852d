"""Real answers checked against the OpenAPI schema, one operation at a time: the answers a
small fuzz budget rarely reaches (a scrape run's log with entries, each file of a built
release, a download's refusals). Each call goes through Schemathesis to the WSGI app, and its
answer must match what the schema declares (status code, content type, body)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from accounts.services import token_issue
from core.roles import Role
from corpus.models import ScrapeLogEntry
from corpus.services.scraping import scrape_run_start
from exports.models import Release
from exports.services.releases import release_create
from tests.core.test_schema_fuzz import CHECKS  # the same checks as the fuzz run
from tests.factories import UserFactory


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
    from exports.services.releases import release_build
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


# ---------------------------------------------------------------------------------------------
# What the larger campaign (bin/schema-campaign) found


def test_the_schema_declares_the_statuses_its_operations_really_answer(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]

    def codes(path, method):
        return sorted(paths[path][method]["responses"])

    assert codes("/api/v1/auth/token/", "post") == [
        "200",
        "400",
        "401",
        "403",
        "404",
        "409",
        "415",
        "429",
    ]
    assert codes("/api/v1/leases/{id}/draft/", "put") == [
        "200",
        "400",
        "401",
        "403",
        "404",
        "409",
        "413",
        "415",
    ]
    assert codes("/api/v1/submissions/", "post") == [
        "201",
        "400",
        "401",
        "403",
        "404",
        "409",
        "413",
        "415",
        "429",
    ]
    assert codes("/api/v1/releases/{id}/resume/", "post") == [
        "200",
        "400",
        "401",
        "403",
        "404",
        "409",
    ]
    assert codes("/api/v1/releases/{id}/diff/", "get") == ["200", "400", "401", "403", "404", "409"]
    assert codes("/api/v1/campaigns/", "get") == ["200", "400", "401", "403", "404"]
    assert codes("/api/v1/annotators/{id}/pause/", "delete")[0] == "200"


def test_the_schema_says_what_its_parameters_and_bodies_really_are(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]

    def parameter(path, method, name):
        found = [p for p in paths[path][method]["parameters"] if p["name"] == name]
        return found[0]["schema"]

    # Views routed `<str:pk>` read a whole number (`parse_id`).
    assert parameter("/api/v1/campaigns/{id}/model/", "get", "id") == {
        "type": "integer",
        "minimum": 0,
        "maximum": 2**63 - 1,
    }
    assert parameter("/api/v1/campaigns/", "get", "limit")["minimum"] == 1
    assert parameter("/api/v1/campaigns/", "get", "offset")["minimum"] == 0
    assert parameter("/api/v1/articles/", "get", "page_size")["minimum"] == 1
    assert sorted(parameter("/api/v1/questions/", "get", "status")["enum"]) == [
        "",
        "approved",
        "corrected",
        "pending",
        "rejected",
    ]
    assert parameter("/api/v1/questions/", "get", "campaign")["type"] == "integer"
    assert parameter("/api/v1/submissions/", "get", "release")["maximum"] == 2**63 - 1
    draft = client.get("/api/schema/?format=json").json()["components"]["schemas"]["DraftRequest"]
    assert draft["properties"]["draft"]["type"] == "object"
    # A JSON body is documented as JSON only; an upload stays multipart.
    assert list(paths["/api/v1/campaigns/"]["post"]["requestBody"]["content"]) == [
        "application/json"
    ]
    assert list(
        paths["/api/v1/baseline-runs/training-files/"]["post"]["requestBody"]["content"]
    ) == ["multipart/form-data"]


def test_a_leases_attempts_and_an_annotators_unpause_answer_as_their_schema_says(
    openapi, admin_headers
):
    from tests.core.test_bad_input import _lease

    annotator = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    lease = _lease(annotator)
    mine = {"Authorization": f"Token {token_issue(user=annotator)}", "Accept-Language": "en"}

    attempts = _call(openapi, "/api/v1/leases/{id}/attempts/", mine, id=lease.pk)
    case = openapi["/api/v1/annotators/{id}/pause/"]["DELETE"].Case(
        path_parameters={"id": annotator.pk}
    )
    unpaused = case.call(headers=admin_headers)
    case.validate_response(unpaused, checks=CHECKS, headers=admin_headers)

    assert (attempts.status_code, attempts.json()) == (200, [])
    assert (unpaused.status_code, unpaused.json()["paused_at"]) == (200, None)
