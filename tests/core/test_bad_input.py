"""Bad input that answered 500 (issue 24, §4): deeply nested JSON, and integers past the
database's range in list parameters. Each is a 4xx naming the problem, or a bounded answer."""

from __future__ import annotations

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation
from rest_framework.test import APIClient

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.jsondepth import MAX_JSON_DEPTH, JSONTooDeep, json_depth_exceeds, loads
from core.roles import Role
from core.services.workers import worker_check_start
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from corpus.services.scraping import scrape_run_start
from evaluation.models import BaselineRun, TrainingFile
from evaluation.services.analysis.dataset_analysis import analysis_start
from evaluation.views.leaderboard import _json_file
from exports.formats.squad import SquadTooDeep, read_squad
from exports.services.releases import release_create
from exports.services.schedules import schedule_create
from tests.annotation.conftest import TEXTS, good_questions
from tests.factories import UserFactory

TOO_DEEP = f"The JSON is nested too deeply: at most {MAX_JSON_DEPTH} levels of arrays and objects."
HUGE = "99999999999999999999"  # past PostgreSQL's bigint (2**63 - 1)


def english(user=None) -> APIClient:
    api = APIClient()
    api.cookies["django_language"] = "en"
    if user is not None:
        api.force_authenticate(user)
    return api


# ---------------------------------------------------------------------------------------------
# The depth scan


@pytest.mark.parametrize(
    ("text", "limit", "deeper"),
    [
        ("[[[]]]", 3, False),
        ("[[[[]]]]", 3, True),
        ('{"a": {"b": [1]}}', 3, False),
        ('{"a": {"b": [[1]]}}', 3, True),
        ('["[[[[[[", "{{{{{{"]', 2, False),  # brackets inside strings do not count
        ('["\\"[[[[", [[]]]', 2, True),  # an escaped quote does not end the string
        ('["\\\\", [[[]]]]', 3, True),  # an escaped backslash does not escape the quote
        ('"[[[[[[[[[[', 3, False),  # a string never closed hides what follows
        ("]]]][[[", 3, False),  # closing brackets first do not go below zero
    ],
)
def test_the_depth_scan_counts_brackets_outside_strings(text, limit, deeper):
    assert json_depth_exceeds(text, limit) is deeper


def test_loads_refuses_past_the_limit_and_reads_up_to_it():
    assert loads("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) == _nested(MAX_JSON_DEPTH)
    with pytest.raises(JSONTooDeep):
        loads("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    with pytest.raises(JSONTooDeep):
        loads("[" * 100_000)  # not even closed: refused before the parser recurses


def test_the_scan_is_linear_on_unclosed_strings_with_escaped_quotes():
    # Each quote starts a string that is never closed: a naive string pattern would retry
    # from every quote (quadratic); this one reads the rest as one string.
    assert json_depth_exceeds('"' + '\\"' * 500_000 + "[" * 10, 3) is False


def _nested(depth: int):
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


# ---------------------------------------------------------------------------------------------
# Deep JSON bodies


@pytest.mark.django_db
def test_a_deeply_nested_token_request_without_an_account_is_a_400():
    response = english().post("/api/v1/auth/token/", "[" * 1100, content_type="application/json")

    assert (response.status_code, response.json()) == (400, {"errors": {"detail": [TOO_DEEP]}})


@pytest.mark.django_db
def test_a_deeply_nested_draft_is_a_400_and_keeps_the_saved_one():
    annotator = UserFactory(username="deep", roles=[Role.ANNOTATOR])
    lease = _lease(annotator)
    api = english(annotator)
    url = f"/api/v1/leases/{lease.pk}/draft/"
    saved = api.put(url, {"draft": {"q": ["Qui ?"]}}, format="json")
    assert saved.status_code == 200

    deep = '{"draft": ' + "[" * 3000 + "]" * 3000 + "}"
    response = api.put(url, deep, content_type="application/json")

    assert (response.status_code, response.json()) == (400, {"errors": {"detail": [TOO_DEEP]}})
    lease.refresh_from_db()
    assert lease.draft == {"q": ["Qui ?"]}


def test_a_body_as_deep_as_the_limit_is_still_read(db):
    annotator = UserFactory(username="deep", roles=[Role.ANNOTATOR])
    lease = _lease(annotator)
    depth = MAX_JSON_DEPTH - 2  # the body's object and the draft's are two levels
    body = '{"draft": {"a": ' + "[" * depth + "]" * depth + "}}"

    response = english(annotator).put(
        f"/api/v1/leases/{lease.pk}/draft/", body, content_type="application/json"
    )

    assert response.status_code == 200, response.content
    assert response.json()["draft"] == {"a": _nested(depth)}


def _lease(annotator):
    article_store(
        language="fr",
        source=SourceArticle(title="A0", source_title="A0"),
        paragraphs=[TEXTS[0]],
        wave="1.0",
        split="dev",
        kind="file",
    )
    campaign = campaign_create(name="Questions", splits=["dev"], lease_minutes=30)
    return lease_claim_next(campaign=campaign, annotator=annotator).lease


# ---------------------------------------------------------------------------------------------
# Deep JSON files: a training file, a leaderboard submission


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


def _deep_squad(size: int = 200_000) -> bytes:
    """A 200 kB document that nests arrays inside a SQuAD envelope."""
    depth = (size - 20) // 2
    return b'{"data": ' + b"[" * depth + b"]" * depth + b"}"


def test_a_deeply_nested_training_file_is_a_400_naming_the_file(boss, releases_folder):
    upload = SimpleUploadedFile("deep.json", _deep_squad(), content_type="application/json")

    response = english(boss).post(
        "/api/v1/baseline-runs/training-files/", {"file": upload}, format="multipart"
    )

    assert (response.status_code, response.json()) == (400, {"errors": {"file": [TOO_DEEP]}})
    assert TrainingFile.objects.count() == 0
    assert not (releases_folder / "training-files").exists()


def test_a_deeply_nested_json_body_to_the_training_files_is_a_400(boss):
    response = english(boss).post(
        "/api/v1/baseline-runs/training-files/",
        '{"name": ' + "[" * 5000 + "}",
        content_type="application/json",
    )

    assert (response.status_code, response.json()) == (400, {"errors": {"detail": [TOO_DEEP]}})


def test_the_results_page_refuses_a_deeply_nested_training_file(client, boss, releases_folder):
    from tests.evaluation.test_baseline_runs import make_release

    release = make_release()
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    upload = SimpleUploadedFile("deep.json", _deep_squad(), content_type="application/json")

    done = client.post(
        f"/manage/results/training-files/?release={release.pk}",
        {"form": "training-file", "file": upload},
        follow=True,
    )

    assert TOO_DEEP in done.content.decode()
    assert TrainingFile.objects.count() == 0


def test_the_leaderboard_form_refuses_a_deeply_nested_predictions_file():
    upload = SimpleUploadedFile("p.json", b"[" * 50_000, content_type="application/json")

    with translation.override("en"), pytest.raises(forms.ValidationError) as refused:
        _json_file(upload)
    assert refused.value.messages == [TOO_DEEP]


def test_a_deeply_nested_squad_file_is_refused_by_the_reader(tmp_path):
    path = tmp_path / "deep.json"
    path.write_bytes(_deep_squad(20_000))
    with pytest.raises(SquadTooDeep):
        list(read_squad(path))


# ---------------------------------------------------------------------------------------------
# Integers past the database's range in list parameters and paths

LISTS = [
    "/api/v1/campaigns/",
    "/api/v1/questions/",
    "/api/v1/scrape-runs/",
    "/api/v1/analyses/",
    "/api/v1/releases/",
    "/api/v1/baseline-runs/",
    "/api/v1/worker-checks/",
    "/api/v1/release-schedules/",
]


@pytest.fixture
def people(db):
    return {
        role: UserFactory(username=role, roles=[role])
        for role in (Role.ANNOTATOR, Role.REVIEWER, Role.ADMIN)
    }


@pytest.fixture
def listed(people, sent_tasks, settings):
    """A row in every list (jobs recorded, none sent to a broker)."""
    settings.WIKIPEDIA_USER_AGENT = "qaplatform-tests/1.0 (tests@example.org)"
    boss = people[Role.ADMIN]
    lease = _lease(people[Role.ANNOTATOR])
    questions_submit(lease=lease, questions=good_questions(lease.paragraph))
    scrape_run_start(
        category="Article de qualité", sample_size=3, seed=1, wave="1.1", enqueue=False
    )
    analysis_start(created_by=boss)
    release = release_create(created_by=boss, name="r", version="1", formats=["squad"])
    BaselineRun.objects.create(release=release, kind="lexical", created_by=boss)
    worker_check_start(queue="default", created_by=boss)
    schedule_create(
        created_by=boss,
        name="nightly",
        frequency="daily",
        hour=3,
        campaigns=[lease.campaign_id],
        formats=["squad"],
    )
    return people


def test_a_huge_limit_or_offset_on_any_list_for_any_role_is_never_a_500(listed):
    """Every list holds rows: a limit past bigint reads as the largest page, and an offset
    past it as an empty one; a role that may not read a list is refused as before."""
    seen = {}
    for role in ("annotator", "reviewer", "admin"):
        api = english(listed[role])
        for url in LISTS:
            expected = api.get(url)
            huge_limit = api.get(url, {"limit": HUGE})
            huge_offset = api.get(url, {"offset": HUGE, "limit": HUGE})
            seen[role, url] = (huge_limit.status_code, huge_offset.status_code)
            assert seen[role, url] == (expected.status_code,) * 2, (role, url)
            if expected.status_code == 200:
                assert expected.json()["count"] > 0, (role, url)  # rows to slice
                assert huge_limit.json()["results"] == expected.json()["results"], (role, url)
                assert huge_limit.json()["next"] is None
                assert huge_offset.json()["results"] == []
    readable = sorted(key for key, statuses in seen.items() if statuses == (200, 200))
    assert readable == sorted(
        [(role, "/api/v1/campaigns/") for role in ("annotator", "reviewer", "admin")]
        + [(role, "/api/v1/questions/") for role in ("annotator", "reviewer", "admin")]
        + [
            ("admin", url)
            for url in LISTS
            if url not in ("/api/v1/campaigns/", "/api/v1/questions/")
        ]
    )


def test_a_limit_above_the_largest_page_is_clamped_and_links_on(people):
    for index in range(3):
        campaign_create(name=f"C{index}", splits=["dev"], lease_minutes=30)
    from core.pagination import LimitOffset

    api = english(people[Role.ADMIN])
    response = api.get("/api/v1/campaigns/", {"limit": LimitOffset.max_limit + 1})

    assert response.status_code == 200
    assert len(response.json()["results"]) == 3
    small = api.get("/api/v1/campaigns/", {"limit": 2}).json()
    assert (len(small["results"]), small["count"]) == (2, 3)
    assert small["next"].endswith("/api/v1/campaigns/?limit=2&offset=2")


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/articles/",
        "/api/v1/paragraphs/",
    ],
)
def test_a_huge_page_size_on_a_cursor_list_is_clamped(people, url):
    response = english(people[Role.ADMIN]).get(url, {"page_size": HUGE})

    assert (response.status_code, response.json()["results"]) == (200, [])


@pytest.mark.parametrize(
    ("url", "query", "name", "message"),
    [
        ("/api/v1/campaigns/", {"limit": "null"}, "limit", "A whole number, at least 1."),
        ("/api/v1/campaigns/", {"limit": "0"}, "limit", "A whole number, at least 1."),
        ("/api/v1/campaigns/", {"limit": ""}, "limit", "A whole number, at least 1."),
        ("/api/v1/campaigns/", {"limit": "-5"}, "limit", "A whole number, at least 1."),
        ("/api/v1/questions/", {"offset": "2.5"}, "offset", "A whole number, at least 0."),
        ("/api/v1/releases/", {"offset": ["1", "2"]}, "offset", "A whole number, at least 0."),
        ("/api/v1/articles/", {"page_size": "null"}, "page_size", "A whole number, at least 1."),
    ],
)
def test_a_page_parameter_that_is_not_a_whole_number_is_a_400_naming_it(
    people, url, query, name, message
):
    """DRF read `?limit=null` as the default page: a mistyped parameter went unseen."""
    response = english(people[Role.ADMIN]).get(url, query)

    assert (response.status_code, response.json()) == (400, {"errors": {name: [message]}})


def test_offset_zero_reads_as_the_first_page(people):
    campaign_create(name="C", splits=["dev"], lease_minutes=30)
    response = english(people[Role.ADMIN]).get("/api/v1/campaigns/", {"limit": 5, "offset": 0})

    assert (response.status_code, response.json()["count"]) == (200, 1)


# ---------------------------------------------------------------------------------------------
# A path under /api/ that names no operation


@pytest.mark.parametrize(
    "url", ["/api/v1/leases/2.5e-104/", "/api/v1/campaigns/1.5/leases/", "/api/v1/nothing/"]
)
def test_an_api_path_that_routes_nowhere_is_the_apis_json_404(people, url):
    """The router's ids take no dot: such a path reached no view and answered the site's HTML
    404 page, where the schema says JSON."""
    response = english(people[Role.ANNOTATOR]).get(url)

    assert (response.status_code, response["Content-Type"], response.json()) == (
        404,
        "application/json",
        {"errors": {"detail": ["Not found."]}},
    )


def test_a_page_that_routes_nowhere_is_still_the_sites_page(client, db):
    client.cookies["django_language"] = "en"
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "Page not found" in response.content.decode()
