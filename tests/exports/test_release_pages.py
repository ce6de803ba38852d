"""The release pages at scale (issue 13): the list a page at a time, the diff as a stored figure,
and a release whose files are gone said plainly (never a server error)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from core import figures
from core.models import StoredFigure
from core.roles import Role
from core.services.figure_jobs import figure_compute
from exports import selectors
from exports.diff import DIFF_FIGURE
from exports.models import Release, ReleaseFile
from tests.exports.test_release_access import PAGES, api_create
from tests.exports.test_releases import make_dataset
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("releases_folder")]

FIGURE_TASK = "core.tasks.stored_figure_task"


@pytest.fixture
def api(db):
    client = APIClient()
    client.force_authenticate(UserFactory(username="boss", roles=[Role.ADMIN]))
    return client


@pytest.fixture
def ds(db):
    return make_dataset()


@pytest.fixture
def sent(sent_tasks):
    return sent_tasks


def listed(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-release="(\d+)"', html)]


def link(html: str, rel: str) -> str | None:
    found = re.search(rf'rel="{rel}" href="\?([^"]*)"', html)
    return found.group(1).replace("&amp;", "&") if found else None


@pytest.fixture
def many_releases(db):
    """Seven releases, three of them made at the same instant (the pk breaks the tie)."""
    now = timezone.now()
    made = []
    for number in range(7):
        release = Release.objects.create(
            name=f"fquad-{number}", version="1.0", status=Release.Status.SUCCEEDED
        )
        at = now - timedelta(days=10) if number in (2, 3, 4) else now - timedelta(days=number)
        Release.objects.filter(pk=release.pk).update(created_at=at)
        made.append(release.pk)
    return made


def newest_first() -> list[int]:
    return list(Release.objects.order_by("-created_at", "-pk").values_list("pk", flat=True))


def test_the_release_list_walks_every_release_once_in_order_both_ways(
    admin_client, many_releases, monkeypatch
):
    monkeypatch.setattr(selectors, "RELEASES_PAGE", 3)
    expected = newest_first()
    seen, pages, query = [], [], ""
    while True:
        response = admin_client.get(f"{PAGES}?{query}")
        assert response.status_code == 200
        html = response.content.decode()
        pages.append(listed(html))
        seen += pages[-1]
        query = link(html, "next")
        if query is None:
            break
    assert seen == expected
    assert [len(page) for page in pages] == [3, 3, 1]
    # Back from the last page: the same pages, in reverse.
    back = []
    while query := link(html, "prev"):
        html = admin_client.get(f"{PAGES}?{query}").content.decode()
        back.append(listed(html))
    assert back == [pages[1], pages[0]]
    assert link(html, "prev") is None


@pytest.mark.parametrize("parameter", ["after", "before"])
@pytest.mark.parametrize("cursor", ["forged", "WyJ4Il0", "W1tdLDFd", "x" * 3000])
def test_a_forged_cursor_is_a_400_naming_it_with_the_first_page(
    admin_client, many_releases, monkeypatch, parameter, cursor
):
    monkeypatch.setattr(selectors, "RELEASES_PAGE", 3)
    response = admin_client.get(PAGES, {parameter: cursor})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'data-field="{parameter}"' in html
    assert listed(html) == newest_first()[:3]


def test_the_list_reads_the_same_queries_whatever_the_number_of_releases(
    admin_client, many_releases
):
    from tests.pages import page_queries

    before = page_queries(admin_client, PAGES)
    for number in range(60):
        Release.objects.create(name=f"more-{number}", version="1", status="succeeded")
    assert page_queries(admin_client, PAGES) == before
    assert len(listed(admin_client.get(PAGES).content.decode())) == selectors.RELEASES_PAGE


# ---------------------------------------------------------------------------------------------
# The diff as a stored figure


@pytest.fixture
def two(ds, api, sent, django_capture_on_commit_callbacks):
    """Two built releases of the same data: nothing changed between them."""
    old = api_create(api, django_capture_on_commit_callbacks, sent, name="fquad-1.0")
    new = api_create(api, django_capture_on_commit_callbacks, sent, name="fquad-1.1")
    return old, new


def diff_url(old, new) -> str:
    return f"{PAGES}diff/?old={old.pk}&new={new.pk}"


def shown(html: str) -> dict:
    counts = re.findall(r"<strong>(\d+)</strong>", html[html.index('id="diff-counts"') :])[:3]
    lists = {
        kind: re.findall(
            r"<code>([^<]+)</code>", html[html.index(f'id="diff-{kind}"') :].split("</ul>")[0]
        )
        for kind in ("added", "removed", "changed")
    }
    return {"counts": [int(n) for n in counts], **lists}


def test_a_large_diff_is_computed_once_by_a_job_then_shows_what_the_request_computes(
    two, admin_client, sent, monkeypatch, django_capture_on_commit_callbacks
):
    old, new = two
    now = admin_client.get(diff_url(old, new)).content.decode()  # small: compared now
    assert StoredFigure.objects.count() == 0

    figure = figures.REGISTRY[DIFF_FIGURE]
    monkeypatch.setitem(figures.REGISTRY, DIFF_FIGURE, replace(figure, small=lambda **p: False))
    jobs_before = len(sent.calls)
    with django_capture_on_commit_callbacks(execute=True):
        first = admin_client.get(diff_url(old, new))
    assert first.status_code == 200
    html = first.content.decode()
    assert 'id="diff-figure"' in html and 'id="diff-counts"' not in html
    row = StoredFigure.objects.get(name=DIFF_FIGURE)
    assert (row.key, row.status) == (f'{{"new":{new.pk},"old":{old.pk}}}', "pending")
    assert sent.calls[jobs_before:] == [
        (FIGURE_TASK, {"kwargs": {"job_pk": row.pk}, "retry": False, "queue": "export"})
    ]
    with django_capture_on_commit_callbacks(execute=True):
        assert admin_client.get(diff_url(old, new)).status_code == 200
    assert len(sent.calls) == jobs_before + 1  # in flight: no second job

    figure_compute(row=row)
    stored = admin_client.get(diff_url(old, new)).content.decode()
    assert 'id="diff-figure"' in stored  # "compared on …"
    assert (
        shown(stored)
        == shown(now)
        == {
            "counts": [0, 0, 0],
            "added": [],
            "removed": [],
            "changed": [],
        }
    )
    # A finished release never changes: however old, the stored comparison is shown, and
    # nothing is computed again.
    StoredFigure.objects.filter(pk=row.pk).update(finished_at=timezone.now() - timedelta(days=30))
    with django_capture_on_commit_callbacks(execute=True):
        assert shown(admin_client.get(diff_url(old, new)).content.decode()) == shown(now)
    assert len(sent.calls) == jobs_before + 1


def test_a_stored_diff_equals_the_computed_one_with_changes(
    ds, api, admin_client, sent, monkeypatch, django_capture_on_commit_callbacks
):
    from annotation.models import Campaign
    from annotation.services.reviews import review_claim_next, review_submit

    old = api_create(api, django_capture_on_commit_callbacks, sent, name="fquad-1.0")
    questions = Campaign.objects.get(name="Questions")
    lease = review_claim_next(campaign=questions, reviewer=ds.reviewer).lease
    review_submit(lease=lease, data={"verdict": "reject", "reason": "outside_knowledge"})
    new = api_create(api, django_capture_on_commit_callbacks, sent, name="fquad-1.1")
    now = shown(admin_client.get(diff_url(old, new)).content.decode())
    assert now["counts"] == [0, 1, 0]

    figure = figures.REGISTRY[DIFF_FIGURE]
    monkeypatch.setitem(figures.REGISTRY, DIFF_FIGURE, replace(figure, small=lambda **p: False))
    with django_capture_on_commit_callbacks(execute=True):
        admin_client.get(diff_url(old, new))
    figure_compute(row=StoredFigure.objects.get(name=DIFF_FIGURE))
    assert shown(admin_client.get(diff_url(old, new)).content.decode()) == now


# ---------------------------------------------------------------------------------------------
# Files gone from the storage


def remove_file(folder, release, name):
    (folder / "releases" / str(release.pk) / name).unlink()


@pytest.mark.parametrize("size", ["small", "large"])
def test_a_release_whose_files_are_gone_is_said_plainly(
    two, admin_client, releases_folder, monkeypatch, size, django_capture_on_commit_callbacks
):
    old, new = two
    remove_file(releases_folder, new, "hf-dev.jsonl")
    if size == "large":
        figure = figures.REGISTRY[DIFF_FIGURE]
        monkeypatch.setitem(figures.REGISTRY, DIFF_FIGURE, replace(figure, small=lambda **p: False))
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.get(diff_url(old, new))
    assert response.status_code == 409
    html = response.content.decode()
    refusal = html[html.index('id="diff-refusal"') :].split("</p>")[0]
    assert "hf-dev.jsonl" in refusal and "fquad-1.1" in refusal
    assert 'id="diff-counts"' not in html
    if size == "large":  # the job fails, naming the file; the page still says why
        row = StoredFigure.objects.get(name=DIFF_FIGURE)
        figure_compute(row=row)
        row.refresh_from_db()
        assert row.status == "failed" and "hf-dev.jsonl" in row.error
        again = admin_client.get(diff_url(old, new))
        assert again.status_code == 409 and "hf-dev.jsonl" in again.content.decode()


def test_a_release_without_hf_files_is_said_plainly(two, admin_client):
    old, new = two
    ReleaseFile.objects.filter(release=old, name__startswith="hf-").delete()
    response = admin_client.get(diff_url(old, new))
    assert response.status_code == 409
    assert "fquad-1.0" in response.content.decode().split('id="diff-refusal"')[1].split("</p>")[0]


def test_the_release_page_lists_files_gone_from_the_storage_without_error(
    two, admin_client, releases_folder
):
    old, _new = two
    remove_file(releases_folder, old, "hf-dev.jsonl")
    response = admin_client.get(f"{PAGES}{old.pk}/")
    assert response.status_code == 200
    assert admin_client.get(f"{PAGES}{old.pk}/files/hf-dev.jsonl").status_code == 404
