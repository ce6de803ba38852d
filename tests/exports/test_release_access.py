"""Releases through the API and the pages: who may do what, downloads, diffs, refused input."""

from __future__ import annotations

import json
from decimal import Decimal
from urllib.parse import quote

import pytest
from rest_framework.test import APIClient

from annotation.models import Campaign
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from exports.models import Release, ReleaseFile
from exports.tasks import release_build_task
from tests.exports.test_releases import TEXT_A, make_dataset
from tests.factories import UserFactory

API = "/api/v1/releases/"
PAGES = "/manage/releases/"

# The API's download URL as documented (`GET /api/v1/releases/{id}/files/{name}`), and with the
# trailing slash the router's other routes take. Both must serve the file.
FILE_URLS = {
    "documented": API + "{pk}/files/{name}",
    "slash": API + "{pk}/files/{name}/",
}


@pytest.fixture(params=sorted(FILE_URLS))
def file_url(request):
    """Return the API URL of a release file, in each form."""
    return lambda pk, name: FILE_URLS[request.param].format(pk=pk, name=name)


@pytest.fixture(autouse=True)
def releases_folder(settings, tmp_path):
    folder = tmp_path / "store" / "releases"
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(folder)},
        },
    }
    # A file next to the storage folder, and one above it: no URL may ever return them.
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "secret.txt").write_text("SECRET NEXT TO THE STORE")
    (tmp_path / "secret.txt").write_text("SECRET ABOVE THE STORE")
    return folder


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


@pytest.fixture
def api(boss):
    client = APIClient()
    client.force_authenticate(boss)
    return client


@pytest.fixture
def ds(db):
    return make_dataset()


BUILD = "exports.tasks.release_build_task"


@pytest.fixture
def sent(sent_tasks):
    return sent_tasks


def api_create(api, callbacks_fixture, sent, **data):
    """POST a release; run the on-commit callbacks (they 'send' the task), then run the task."""
    payload = {"version": "1.0", "formats": ["squad", "hf"]} | data
    with callbacks_fixture(execute=True):
        response = api.post(API, payload, format="json")
    assert response.status_code == 201, response.content
    pk = response.json()["id"]
    assert sent.calls[-1] == (BUILD, {"kwargs": {"job_pk": pk}, "retry": False, "queue": "export"})
    release_build_task(job_pk=pk)
    release = Release.objects.get(pk=pk)
    assert release.status == "succeeded", release.error
    return release


def stored(folder, release, name) -> bytes:
    return (folder / "releases" / str(release.pk) / name).read_bytes()


def content(response) -> bytes:
    return b"".join(response.streaming_content)


# ---------------------------------------------------------------------------------------------
# An admin's round


def test_an_admin_creates_lists_and_downloads_a_release(
    ds, api, admin_client, boss, sent, django_capture_on_commit_callbacks, releases_folder, file_url
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = api.post(
            API,
            {
                "name": "fquad-1.1",
                "version": "1.1",
                "description": "  Première version.  ",
                "formats": ["hf", "squad", "mrqa"],
                "splits": ["dev", "train"],
                "include_history": True,
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    body = response.json()
    release = Release.objects.get()
    assert len(callbacks) == 1
    assert sent.calls == [
        (BUILD, {"kwargs": {"job_pk": release.pk}, "retry": False, "queue": "export"})
    ]
    assert {k: body[k] for k in ("id", "name", "version", "description", "status", "attempts")} == {
        "id": release.pk,
        "name": "fquad-1.1",
        "version": "1.1",
        "description": "Première version.",
        "status": "pending",
        "attempts": 0,
    }
    assert body["options"] == {
        "formats": ["squad", "hf", "mrqa"],
        "splits": ["train", "dev"],
        "approved_only": False,
        "include_test_answers": False,
        "include_history": True,
        "squad_version": "1.1",
        "language": "fr",
    }
    assert (body["created_by"], body["files"], body["manifest"]) == ("boss", [], {})

    release_build_task(job_pk=release.pk)

    listed = api.get(API).json()
    assert listed["count"] == 1
    row = listed["results"][0]
    assert (row["id"], row["status"], row["progress"], row["attempts"]) == (
        release.pk,
        "succeeded",
        100,
        1,
    )
    names = [f["name"] for f in row["files"]]
    assert names == [
        "README.md",
        "hf-dev.jsonl",
        "hf-train.jsonl",
        "history.jsonl",
        "manifest.json",
        "mrqa-dev.jsonl.gz",
        "mrqa-train.jsonl.gz",
        "squad-dev.json",
        "squad-train.json",
    ]
    detail = api.get(f"{API}{release.pk}/").json()
    assert detail == row
    internal = ReleaseFile.objects.filter(release=release, internal=True).order_by("name")
    assert list(internal.values_list("name", flat=True)) == ["gold-dev.json", "gold-train.json"]
    media = {
        ".md": "text/markdown",
        ".jsonl": "application/x-ndjson",
        ".json": "application/json",
        ".gz": "application/gzip",
    }
    for item in detail["files"]:
        data = stored(releases_folder, release, item["name"])
        expected_type = media["." + item["name"].rsplit(".", 1)[1]]
        assert item["media_type"] == expected_type
        assert item["bytes"] == len(data)
        for response in (
            api.get(file_url(release.pk, item["name"])),
            admin_client.get(f"{PAGES}{release.pk}/files/{item['name']}"),
        ):
            assert response.status_code == 200
            assert content(response) == data, item["name"]
            assert response["Content-Type"] == expected_type
            assert response["Content-Disposition"] == (
                f'attachment; filename="fquad-1.1-{item["name"]}"'
            )
            assert response["Content-Length"] == str(len(data))
            assert response["X-Content-Type-Options"] == "nosniff"
    manifest = json.loads(stored(releases_folder, release, "manifest.json"))
    assert [f["name"] for f in manifest["files"]] == [
        "squad-train.json",
        "hf-train.jsonl",
        "mrqa-train.jsonl.gz",
        "squad-dev.json",
        "hf-dev.jsonl",
        "mrqa-dev.jsonl.gz",
        "history.jsonl",
        "README.md",
    ]


def test_an_admin_creates_a_release_from_the_page(
    ds, admin_client, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            PAGES,
            {
                "name": "fquad-page",
                "version": "2.0",
                "formats": ["squad"],
                "splits": ["test"],
                "include_test_answers": "on",
            },
        )
    release = Release.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"{PAGES}{release.pk}/")
    assert release.options == {
        "formats": ["squad"],
        "splits": ["test"],
        "approved_only": False,
        "include_test_answers": True,
        "include_history": False,
        "squad_version": "1.1",
        "language": "fr",
    }
    assert sent.calls == [
        (BUILD, {"kwargs": {"job_pk": release.pk}, "retry": False, "queue": "export"})
    ]


def test_the_page_refuses_a_bad_form_with_field_errors_and_creates_nothing(
    admin_client, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            PAGES, {"name": "fquad 1.1", "version": "1.0", "formats": ["csv"], "splits": ["test"]}
        )
    assert response.status_code == 400
    form = response.context["form"]
    assert sorted(form.errors) == ["formats"]  # the form refuses an unknown format first
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            PAGES, {"name": "fquad 1.1", "version": "1.0", "formats": ["hf"], "splits": ["test"]}
        )
    assert response.status_code == 400
    assert sorted(response.context["form"].errors) == ["name"]
    assert Release.objects.count() == 0
    assert sent.calls == []


def test_the_release_page_shows_the_job_status_then_the_files(
    ds, api, admin_client, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pk = api.post(
            API, {"name": "fquad-s", "version": "1", "formats": ["hf"]}, format="json"
        ).json()["id"]
    page = admin_client.get(f"{PAGES}{pk}/").content.decode()
    assert f'id="job-status-{pk}" class="job-status job-pending"' in page
    assert f'hx-get="{PAGES}{pk}/status/"' in page
    assert 'id="release-file-list"' not in page
    status = admin_client.get(f"{PAGES}{pk}/status/").content.decode()
    assert f'id="job-status-{pk}" class="job-status job-pending"' in status
    assert "<html" not in status

    release_build_task(job_pk=pk)

    page = admin_client.get(f"{PAGES}{pk}/").content.decode()
    assert f'id="job-status-{pk}" class="job-status job-succeeded"' in page
    assert f'hx-get="{PAGES}{pk}/status/"' not in page
    assert 'id="release-file-list"' in page
    files = list(ReleaseFile.objects.filter(release_id=pk, internal=False).order_by("name"))
    assert [f.name for f in files] == [
        "README.md",
        "hf-dev.jsonl",
        "hf-test.jsonl",
        "hf-train.jsonl",
        "manifest.json",
    ]
    for item in files:
        assert f'<a href="{PAGES}{pk}/files/{item.name}">{item.name}</a>' in page
        assert f"<code>{item.sha256}</code>" in page
    assert ReleaseFile.objects.filter(release_id=pk, internal=True).count() == 3
    assert "gold-" not in page  # the answers kept for scoring are not listed
    partial = admin_client.get(f"{PAGES}{pk}/", headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="release-files"')
    assert 'id="release-file-list"' in partial and "<html" not in partial
    listing = admin_client.get(PAGES).content.decode()
    assert f'<tr data-release="{pk}">' in listing
    assert '<span class="badge badge-succeeded">' in listing


# ---------------------------------------------------------------------------------------------
# Roles


@pytest.fixture
def finished(ds, api, sent, django_capture_on_commit_callbacks):
    """A built release of the HF files only."""
    return api_create(
        api, django_capture_on_commit_callbacks, sent, name="fquad-1.0", formats=["hf"]
    )


@pytest.mark.parametrize("role", [Role.ANNOTATOR, Role.REVIEWER])
def test_annotators_and_reviewers_are_refused_everything(
    finished, role, client, sent, django_capture_on_commit_callbacks, file_url
):
    person = UserFactory(username="someone", roles=[role])
    api = APIClient()
    api.force_authenticate(person)
    client.force_login(person)
    pk = finished.pk
    before = list(Release.objects.values())
    with django_capture_on_commit_callbacks(execute=True):
        calls = [
            api.get(API),
            api.get(f"{API}{pk}/"),
            api.post(API, {"name": "mine", "version": "1", "formats": ["hf"]}, format="json"),
            api.get(file_url(pk, "hf-dev.jsonl")),
            api.post(f"{API}{pk}/resume/"),
            api.get(f"{API}{pk}/diff/?against={pk}"),
        ]
        pages = [
            client.get(PAGES),
            client.post(PAGES, {"name": "mine", "version": "1", "formats": ["hf"]}),
            client.get(f"{PAGES}{pk}/"),
            client.get(f"{PAGES}{pk}/status/"),
            client.post(f"{PAGES}{pk}/resume/"),
            client.get(f"{PAGES}{pk}/files/hf-dev.jsonl"),
            client.get(f"{PAGES}diff/?old={pk}&new={pk}"),
        ]
    assert [r.status_code for r in calls] == [403] * 6
    assert [r.status_code for r in pages] == [403] * 7
    assert all(b'"context"' not in r.content for r in calls + pages)  # no file content
    assert list(Release.objects.values()) == before
    assert len(sent.calls) == 1  # the admin's build only


def test_anonymous_people_are_asked_to_sign_in(finished, client, file_url):
    pk = finished.pk
    api = APIClient()
    for response in (
        api.get(API),
        api.get(f"{API}{pk}/"),
        api.post(API, {"name": "anon", "version": "1", "formats": ["hf"]}, format="json"),
        api.get(file_url(pk, "hf-dev.jsonl")),
        api.get(f"{API}{pk}/diff/?against={pk}"),
    ):
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Token"
    for path in (PAGES, f"{PAGES}{pk}/", f"{PAGES}{pk}/files/hf-dev.jsonl"):
        response = client.get(path)
        assert response.status_code == 302
        assert response["Location"] == f"/accounts/login/?next={quote(path)}"
    assert Release.objects.count() == 1


# ---------------------------------------------------------------------------------------------
# Downloads: only the release's own files, only once it is done


NOT_FILES = [
    "../secret.txt",
    "..%2fsecret.txt",
    "%2e%2e%2fsecret.txt",
    "%2e%2e%2f%2e%2e%2fsecret.txt",
    "..%2f..%2f..%2fsecret.txt",
    "%2e%2e",
    "..",
    ".",
    "manifest.json/../secret.txt",
    "manifest.json%2f..%2fsecret.txt",
    "secret.txt",
    "squad-dev.json",  # a file of the other release only
    "HF-DEV.JSONL",
    "hf-dev.jsonl%00",
    "gold-test.json",  # internal: the answers the server scores with
    "gold-dev.json",
]


def test_a_name_that_is_not_a_file_of_the_release_is_not_found(
    finished, api, admin_client, sent, django_capture_on_commit_callbacks, file_url
):
    other = api_create(
        api, django_capture_on_commit_callbacks, sent, name="fquad-other", formats=["squad"]
    )
    assert other.files.filter(name="squad-dev.json").exists()
    assert finished.files.filter(name="gold-test.json", internal=True).exists()
    pk = finished.pk
    api.raise_request_exception = admin_client.raise_request_exception = False  # 500s counted
    statuses = {}
    for name in NOT_FILES:
        for where, response in (
            ("api", api.get(file_url(pk, name))),
            ("page", admin_client.get(f"{PAGES}{pk}/files/{name}")),
        ):
            statuses[where, name] = response.status_code
            body = b"".join(response.streaming_content) if response.streaming else response.content
            assert b"SECRET" not in body and b'"context"' not in body, (where, name)
    assert statuses == dict.fromkeys(statuses, 404)


def test_a_file_not_in_the_release_is_named_in_the_api_error(finished, api, file_url):
    response = api.get(file_url(finished.pk, "secret.txt"))
    assert response.status_code == 404
    assert list(response.json()["errors"]) == ["name"]


def test_files_of_an_unfinished_release_are_not_served(
    ds, api, admin_client, sent, django_capture_on_commit_callbacks, releases_folder, file_url
):
    with django_capture_on_commit_callbacks(execute=True):
        pk = api.post(
            API, {"name": "fquad-wip", "version": "1", "formats": ["hf"]}, format="json"
        ).json()["id"]
    # Files a running attempt already stored must not be served.
    folder = releases_folder / "releases" / str(pk)
    folder.mkdir(parents=True)
    (folder / "hf-dev.jsonl").write_text("partial")
    for status in ("pending", "running", "failed"):
        Release.objects.filter(pk=pk).update(status=status)
        response = api.get(file_url(pk, "hf-dev.jsonl"))
        assert response.status_code == 409, status
        assert list(response.json()["errors"]) == ["release"]
        assert admin_client.get(f"{PAGES}{pk}/files/hf-dev.jsonl").status_code == 404


def test_an_unknown_release_is_not_found(finished, api, admin_client):
    assert api.get(f"{API}999999/").status_code == 404
    assert api.get(f"{API}999999/files/README.md").status_code == 404
    assert api.get(f"{API}999999/files/README.md/").status_code == 404
    assert admin_client.get(f"{PAGES}999999/").status_code == 404
    assert admin_client.get(f"{PAGES}999999/files/README.md").status_code == 404


# ---------------------------------------------------------------------------------------------
# Diffs


def test_the_diff_of_two_releases_lists_added_removed_and_changed_questions(
    ds, api, admin_client, sent, django_capture_on_commit_callbacks
):
    old = api_create(api, django_capture_on_commit_callbacks, sent, name="fquad-1.0")
    # Added: one question in another campaign. Removed: C1 rejected. Changed: C2 corrected.
    extra = campaign_create(
        name="Encore", splits=["train"], questions_min=1, questions_max=1, review_rate=Decimal("0")
    )
    lease = lease_claim_next(campaign=extra, annotator=ds.writer).lease
    assert lease.paragraph.text == TEXT_A
    added = questions_submit(
        lease=lease,
        questions=[
            {
                "text": "Quelle mer le canal atteint-il ?",
                "answer_start": 37,
                "answer_text": "mer Méditerranée",
            }
        ],
    )[0]
    questions = Campaign.objects.get(name="Questions")
    lease = review_claim_next(campaign=questions, reviewer=ds.reviewer).lease
    assert lease.question_id == ds.questions["C1"].pk
    review_submit(lease=lease, data={"verdict": "reject", "reason": "outside_knowledge"})
    lease = review_claim_next(campaign=questions, reviewer=ds.reviewer).lease
    assert lease.question_id == ds.questions["C2"].pk
    review_submit(
        lease=lease,
        data={"verdict": "correct", "question_text": "Combien de Bibles furent imprimées ?"},
    )
    new = api_create(api, django_capture_on_commit_callbacks, sent, name="fquad-1.1")
    expected = {
        "old": "fquad-1.0",
        "new": "fquad-1.1",
        "counts": {"added": 1, "removed": 1, "changed": 1},
        "added": [str(added.uuid)],
        "removed": [ds.id("C1")],
        "changed": [ds.id("C2")],
    }

    response = api.get(f"{API}{new.pk}/diff/?against={old.pk}")
    assert (response.status_code, response.json()) == (200, expected)
    backwards = api.get(f"{API}{old.pk}/diff/?against={new.pk}").json()
    assert backwards["counts"] == {"added": 1, "removed": 1, "changed": 1}
    assert (backwards["added"], backwards["removed"]) == ([ds.id("C1")], [str(added.uuid)])
    same = api.get(f"{API}{new.pk}/diff/?against={new.pk}").json()
    assert same["counts"] == {"added": 0, "removed": 0, "changed": 0}

    page = admin_client.get(f"{PAGES}diff/?old={old.pk}&new={new.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    counts = html[html.index('id="diff-counts"') : html.index("</div>\n  <h2>")]
    assert [int(n) for n in counts.split("<strong>")[1:] for n in [n.split("<")[0]]] == [1, 1, 1]
    for kind, ids in (
        ("added", [str(added.uuid)]),
        ("removed", [ds.id("C1")]),
        ("changed", [ds.id("C2")]),
    ):
        block = html[html.index(f'id="diff-{kind}"') :].split("</ul>")[0]
        assert block.count("<li>") == 1 and f"<code>{ids[0]}</code>" in block, kind
    listing = admin_client.get(PAGES).content.decode()
    assert 'action="/manage/releases/diff/"' in listing


def test_diff_refuses_bad_or_unknown_ids_and_unfinished_releases(
    finished, api, admin_client, sent, django_capture_on_commit_callbacks
):
    pk = finished.pk
    response = api.get(f"{API}{pk}/diff/?against=abc")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["against"]
    for value in ("", "-1", "1.5", "99999999999999999999"):
        response = api.get(f"{API}{pk}/diff/", {"against": value})
        assert response.status_code == 400, value
        assert list(response.json()["errors"]) == ["against"]
    response = api.get(f"{API}{pk}/diff/?against=999999")
    assert (response.status_code, list(response.json()["errors"])) == (404, ["against"])
    squad_only = api_create(
        api, django_capture_on_commit_callbacks, sent, name="fquad-squad", formats=["squad"]
    )
    response = api.get(f"{API}{pk}/diff/?against={squad_only.pk}")
    assert (response.status_code, list(response.json()["errors"])) == (409, ["release"])
    with django_capture_on_commit_callbacks(execute=True):
        pending = api.post(
            API, {"name": "fquad-pending", "version": "1", "formats": ["hf"]}, format="json"
        ).json()["id"]
    response = api.get(f"{API}{pending}/diff/?against={pk}")
    assert (response.status_code, list(response.json()["errors"])) == (409, ["release"])

    for query in (
        "old=abc&new=1",
        f"old={pk}",
        f"old={pk}&new=999999",
        f"old={pk}&new=99999999999999999999",
        "",
        f"old={pk}&new=x",
    ):
        assert admin_client.get(f"{PAGES}diff/?{query}").status_code == 404, query
    response = admin_client.get(f"{PAGES}diff/?old={pk}&new={pending}")
    assert (response.status_code, response["Location"]) == (302, PAGES)


# ---------------------------------------------------------------------------------------------
# Refused input, resume


@pytest.mark.parametrize(
    ("payload", "fields"),
    [
        pytest.param({"name": "fquad 1.1"}, ["name"], id="name-space"),
        pytest.param({"name": "fquad/1.1"}, ["name"], id="name-slash"),
        pytest.param({"name": "x" * 101}, ["name"], id="name-long"),
        pytest.param({"version": ""}, ["version"], id="version-empty"),
        pytest.param({"formats": []}, ["formats"], id="formats-empty"),
        pytest.param({"formats": "squad"}, ["formats"], id="formats-not-a-list"),
        pytest.param({"formats": ["csv"]}, ["formats.0"], id="formats-unknown"),
        pytest.param({"splits": ["validation"]}, ["splits.0"], id="splits-unknown"),
        pytest.param({"splits": []}, ["splits"], id="splits-empty"),
        pytest.param({"approved_only": "perhaps"}, ["approved_only"], id="flag-not-boolean"),
        pytest.param({"name": "a b", "formats": []}, ["formats", "name"], id="two-fields"),
        pytest.param({"description": "x" * 5001}, ["description"], id="description-long"),
    ],
)
def test_bad_input_through_the_api_is_refused_with_field_errors(
    api, payload, fields, sent, django_capture_on_commit_callbacks
):
    data = {"name": "fquad-1.1", "version": "1.0", "formats": ["squad"]} | payload
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(API, data, format="json")
    assert response.status_code == 400
    assert sorted(response.json()["errors"]) == fields
    assert Release.objects.count() == 0
    assert sent.calls == []


def test_missing_fields_are_named(api):
    response = api.post(API, {}, format="json")
    assert response.status_code == 400
    assert sorted(response.json()["errors"]) == ["formats", "name", "version"]
    assert Release.objects.count() == 0


def test_a_duplicate_name_through_the_api_is_a_field_error(
    finished, api, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            API, {"name": "fquad-1.0", "version": "2", "formats": ["hf"]}, format="json"
        )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["name"]
    assert list(Release.objects.values_list("name", "version")) == [("fquad-1.0", "1.0")]
    assert len(sent.calls) == 1


def test_resume_through_the_api(finished, api, sent, django_capture_on_commit_callbacks):
    row = Release.objects.values().get(pk=finished.pk)
    response = api.post(f"{API}{finished.pk}/resume/")
    assert (response.status_code, list(response.json()["errors"])) == (409, ["release"])
    assert Release.objects.values().get(pk=finished.pk) == row

    Release.objects.filter(pk=finished.pk).update(status="failed", error="OSError: disk full")
    ReleaseFile.objects.filter(release=finished).delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{API}{finished.pk}/resume/")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["error"]) == ("pending", "")
    assert sent.calls[-1] == (
        BUILD,
        {"kwargs": {"job_pk": finished.pk}, "retry": False, "queue": "export"},
    )
    release_build_task(job_pk=finished.pk)
    finished.refresh_from_db()
    assert (finished.status, finished.attempts) == ("succeeded", 2)
