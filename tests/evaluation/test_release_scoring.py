"""Scoring on release (issue 17, item 1), on the evaluation side: the runs recorded when the
build succeeds (one per slot however often the receiver runs), the queues they are sent to, a
run delivered twice, the scoring part of the release page and its API, and who may see them.

The builds run here (`release_build`); the tasks the commit would send are recorded by
`sent_tasks` and run by calling the task functions, as a worker would. The real worker, killed
mid-build, is tests/exports/test_release_scoring_worker.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from core.roles import Role
from core.services.jobs import Superseded, job_start, job_succeed
from evaluation import tasks as evaluation_tasks
from evaluation.models import BaselineRun
from evaluation.services.release_scoring import release_scoring_record
from exports import tasks as export_tasks
from exports.models import Release
from tests.evaluation.test_baseline_runs import first_word_server, make_release  # noqa: F401
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("loopback_allowed")]

BUILD = "exports.tasks.release_build_task"
CPU = "evaluation.tasks.baseline_task"
GPU = "evaluation.tasks.gpu_baseline_task"


@pytest.fixture(autouse=True)
def var_folder(settings, tmp_path):
    folder = tmp_path / "var"
    settings.VAR_DIR = folder
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(folder / "releases")},
        },
    }
    return folder


def sent(sent_tasks) -> list[tuple[str, str, int]]:
    return [(name, kw["queue"], kw["kwargs"]["job_pk"]) for name, kw in sent_tasks.calls]


def built(capture, score_with, **options) -> Release:
    """A release built here with `score_with`; the tasks its commits send are recorded."""
    with capture(execute=True):
        return make_release(score_with=score_with, **options)


def test_the_build_records_one_run_per_entry_and_sends_the_fine_tune_to_the_gpu_queue(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = built(
        django_capture_on_commit_callbacks,
        [
            {"kind": "lexical"},
            {"kind": "finetune", "model": "tiny", "hyperparameters": {"epochs": 2}},
            {"kind": "http", "model": "http://127.0.0.1:9/predict"},
        ],
    )
    runs = list(BaselineRun.objects.order_by("id"))
    assert [(r.scoring_key, r.kind, r.model, r.hyperparameters) for r in runs] == [
        ("score-0", "lexical", "", {}),
        ("score-1", "finetune", "tiny", {"epochs": 2}),
        ("score-2", "http", "http://127.0.0.1:9/predict", {}),
    ]
    assert {(r.status, r.attempts, r.created_by_id) for r in runs} == {
        ("pending", 0, release.created_by_id)
    }
    # The build first (release_create), then each run once the build's "done" committed.
    assert sent(sent_tasks) == [
        (BUILD, "export", release.pk),
        (CPU, "default", runs[0].pk),
        (GPU, "gpu", runs[1].pk),
        (CPU, "default", runs[2].pk),
    ]


def test_a_release_without_score_with_starts_nothing(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = built(django_capture_on_commit_callbacks, None)
    assert release.score_with == []
    assert BaselineRun.objects.count() == 0
    assert sent(sent_tasks) == [(BUILD, "export", release.pk)]


def test_the_receiver_run_again_keeps_one_row_per_slot_and_resends_only_runs_never_started(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = built(
        django_capture_on_commit_callbacks,
        [{"kind": "lexical"}, {"kind": "http", "model": "http://127.0.0.1:9/"}],
    )
    lexical, http = BaselineRun.objects.order_by("id")
    sent_tasks.calls.clear()

    # As a redelivered build task would (its worker died after the commit): twice.
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            release_scoring_record(release=release)
    assert BaselineRun.objects.count() == 2
    assert sent(sent_tasks) == [(CPU, "default", lexical.pk), (CPU, "default", http.pk)] * 2

    # The lexical run ran; the redelivered build task sends only the one that never started.
    evaluation_tasks.baseline_task(job_pk=lexical.pk)
    lexical.refresh_from_db()
    assert (lexical.status, lexical.attempts) == ("succeeded", 1)
    sent_tasks.calls.clear()
    with django_capture_on_commit_callbacks(execute=True):
        export_tasks.release_build_task(job_pk=release.pk)
    assert sent(sent_tasks) == [(CPU, "default", http.pk)]
    assert list(BaselineRun.objects.values_list("scoring_key", flat=True).order_by("id")) == [
        "score-0",
        "score-1",
    ]
    release.refresh_from_db()
    assert (release.status, release.attempts) == ("succeeded", 1)  # not built again


def test_a_redelivered_build_task_of_an_unfinished_or_failed_release_sends_no_run(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = built(django_capture_on_commit_callbacks, [{"kind": "lexical"}])
    BaselineRun.objects.all().delete()
    Release.objects.filter(pk=release.pk).update(status=Release.Status.FAILED)
    sent_tasks.calls.clear()
    with django_capture_on_commit_callbacks(execute=True):
        export_tasks.release_build_task(job_pk=release.pk)
    assert sent(sent_tasks) == []
    assert BaselineRun.objects.count() == 0


def test_a_run_task_delivered_twice_finishes_one_run_once(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = built(django_capture_on_commit_callbacks, [{"kind": "lexical"}])
    (run,) = BaselineRun.objects.all()

    # One after the other: the second delivery finds the run finished and does nothing.
    evaluation_tasks.baseline_task(job_pk=run.pk)
    run.refresh_from_db()
    first_finish = run.finished_at
    evaluation_tasks.baseline_task(job_pk=run.pk)
    run.refresh_from_db()
    assert (run.status, run.attempts, run.finished_at) == ("succeeded", 1, first_finish)

    # Overlapping: a worker holds the run (attempt 1) when the task is delivered again; the
    # second attempt owns the row from then on, and the first can no longer finish it.
    BaselineRun.objects.filter(pk=run.pk).update(
        status=BaselineRun.Status.PENDING, attempts=0, finished_at=None, metrics={}
    )
    holder = BaselineRun.objects.get(pk=run.pk)
    assert job_start(holder) and holder.attempts == 1
    evaluation_tasks.baseline_task(job_pk=run.pk)
    with pytest.raises(Superseded):
        job_succeed(holder, "late")
    run.refresh_from_db()
    assert (run.status, run.attempts) == ("succeeded", 2)
    assert set(run.metrics) == {"dev", "test"}
    assert BaselineRun.objects.filter(release=release).count() == 1


def scored_release(capture, server) -> tuple[Release, list[BaselineRun]]:
    release = built(
        capture, [{"kind": "http", "model": server}, {"kind": "lexical"}], include_test_answers=True
    )
    runs = list(BaselineRun.objects.order_by("id"))
    return release, runs


def test_the_release_page_loads_the_scoring_runs_live_then_their_scores(
    client,
    django_capture_on_commit_callbacks,
    sent_tasks,
    first_word_server,  # noqa: F811
):
    release, (http, lexical) = scored_release(django_capture_on_commit_callbacks, first_word_server)
    client.force_login(release.created_by)
    url = f"/manage/releases/{release.pk}/scoring/"

    page = client.get(f"/manage/releases/{release.pk}/").content.decode()
    assert f'hx-get="{url}" hx-trigger="load"' in page
    assert (
        '<dd id="release-score-with">un serveur de prédiction, la référence lexicale</dd>' in page
    )

    pending = client.get(url, headers={"HX-Request": "true"})
    html = pending.content.decode().strip()
    assert pending.status_code == 200
    assert html.startswith(
        '<div id="release-scoring" aria-live="polite" hx-get="' + url + '"'
    )  # polls
    assert html.count("<tr data-run=") == 2
    assert 'data-slot="score-0"' in html and "127.0.0.1" in html
    assert "<extends" not in html and "<html" not in html
    assert "job-lost" not in html

    # A run whose worker fell silent says it waits for a worker again.
    BaselineRun.objects.filter(pk=lexical.pk).update(
        status=BaselineRun.Status.RUNNING, started_at=timezone.now() - timedelta(hours=1)
    )
    silent = client.get(url, headers={"HX-Request": "true"}).content.decode()
    row = silent.split(f'<tr data-run="{lexical.pk}"')[1].split("</tr>")[0]
    assert 'class="job-status job-running job-lost"' in row
    assert "badge-pending" in row and "badge-running" not in row

    evaluation_tasks.baseline_task(job_pk=http.pk)
    evaluation_tasks.baseline_task(job_pk=lexical.pk)
    done = client.get(url, headers={"HX-Request": "true"}).content.decode().strip()
    assert done.startswith(
        '<div id="release-scoring" aria-live="polite" >'
    )  # finished: no more polling
    row = done.split(f'<tr data-run="{http.pk}"')[1].split("</tr>")[0]
    # One question in three per split is answered by the context's first word (French format).
    assert row.count("33,3 / 33,3") == 2
    assert "badge-succeeded" in row
    row = done.split(f'<tr data-run="{lexical.pk}"')[1].split("</tr>")[0]
    # The SQuAD paper's sliding window finds none of this small release's answers: in each
    # one-sentence paragraph it takes the longest span of rare words that holds no question
    # word ("Midi à partir" for Riquet).
    cells = [c.split("</td>")[0] for c in row.split('<td class="num">')[1:]]
    assert cells == ["0,0 / 0,0", "0,0 / 0,0"]
    assert f'href="/manage/results/?release={release.pk}"' in done

    # Without JavaScript, the link opens the same part as a page.
    whole = client.get(url)
    assert whole.status_code == 200 and "<html" in whole.content.decode()


def test_the_api_gives_the_scoring_runs_with_their_scores(
    django_capture_on_commit_callbacks,
    sent_tasks,
    first_word_server,  # noqa: F811
):
    release, (http, lexical) = scored_release(django_capture_on_commit_callbacks, first_word_server)
    evaluation_tasks.baseline_task(job_pk=http.pk)
    api = APIClient()
    api.force_authenticate(release.created_by)
    body = api.get(f"/api/v1/releases/{release.pk}/scoring/").json()
    assert (body["release"], body["release_status"]) == (release.pk, "succeeded")
    assert body["score_with"] == [{"kind": "http", "model": first_word_server}, {"kind": "lexical"}]
    assert [(r["id"], r["scoring_key"], r["kind"], r["status"]) for r in body["runs"]] == [
        (http.pk, "score-0", "http", "succeeded"),
        (lexical.pk, "score-1", "lexical", "pending"),
    ]
    dev = body["runs"][0]["metrics"]["dev"]
    assert (dev["total"], dev["exact_match"], dev["f1"]) == (
        3,
        pytest.approx(100 / 3),
        pytest.approx(100 / 3),
    )
    assert body["runs"][1]["metrics"] == {}
    detail = api.get(f"/api/v1/releases/{release.pk}/").json()
    assert detail["score_with"] == body["score_with"]
    assert api.get("/api/v1/releases/999999/scoring/").status_code == 404
    malformed = api.get("/api/v1/releases/abc/scoring/")
    assert (malformed.status_code, list(malformed.json()["errors"])) == (400, ["release"])


def test_only_admins_see_the_scoring(client, django_capture_on_commit_callbacks, sent_tasks):
    release = built(django_capture_on_commit_callbacks, [{"kind": "lexical"}])
    url = f"/manage/releases/{release.pk}/scoring/"
    api_url = f"/api/v1/releases/{release.pk}/scoring/"
    assert client.get(url).status_code == 302  # to the sign-in page
    assert APIClient().get(api_url).status_code == 401
    for role in (Role.REVIEWER, Role.ANNOTATOR):
        person = UserFactory(username=f"u-{role}", roles=[role])
        client.force_login(person)
        assert client.get(url).status_code == 403
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 403
        api = APIClient()
        api.force_authenticate(person)
        assert api.get(api_url).status_code == 403
    client.force_login(release.created_by)
    assert client.get("/manage/releases/999999/scoring/").status_code == 404
