"""The shared job services move a job's state; the row always says what happened."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from core.i18n import Text
from core.models import Job, WorkerCheck
from core.services import jobs
from core.services.jobs import job_progress, job_run, job_start
from core.services.workers import worker_check_run


@pytest.fixture
def check(db):
    return WorkerCheck.objects.create(queue="default")


def test_a_job_runs_to_done_reporting_progress(check):
    seen = []

    def work(job, report):
        report(40, "halfway")
        seen.append(WorkerCheck.objects.values_list("status", "progress", "message").get(pk=job.pk))
        return "all good"

    job_run(check, work)
    check.refresh_from_db()
    assert seen == [("running", 40, "halfway")]
    assert (check.status, check.progress, check.message, check.error) == (
        "succeeded",
        100,
        "all good",
        "",
    )
    assert check.attempts == 1
    assert check.started_at <= check.finished_at


def test_a_failing_job_records_the_error_and_keeps_its_progress(check):
    def work(job, report):
        report(30, "reading")
        raise ValueError("the article list is empty")

    job_run(check, work)
    check.refresh_from_db()
    assert (check.status, check.progress) == ("failed", 30)
    assert check.error == "ValueError: the article list is empty"
    assert check.finished_at is not None


def test_a_finished_job_is_not_run_again(check):
    job_run(check, lambda job, report: "first")
    calls = []
    job_run(check, lambda job, report: calls.append(1) or "second")
    check.refresh_from_db()
    assert calls == []
    assert (check.message, check.attempts) == ("first", 1)


def test_a_redelivered_running_job_starts_again_and_counts_the_attempt(check):
    assert job_start(check) is True
    assert job_start(check) is True  # the worker died; the broker redelivered the task
    check.refresh_from_db()
    assert (check.status, check.attempts) == ("running", 2)


def test_progress_is_clamped_to_0_100(check):
    job_progress(check, 250, "x")
    assert WorkerCheck.objects.get(pk=check.pk).progress == 100
    job_progress(check, -5, "x")
    assert WorkerCheck.objects.get(pk=check.pk).progress == 0


def test_the_database_refuses_progress_over_100(check):
    with pytest.raises(IntegrityError), transaction.atomic():
        WorkerCheck.objects.filter(pk=check.pk).update(progress=101)


def test_a_message_is_stored_in_the_source_language_and_shown_in_the_readers(check):
    """A worker writes it; a page in French or English reads it, each in its language."""
    job_progress(check, 60, Text(gettext_noop("Queue “%(queue)s” is served."), {"queue": "gpu"}))

    stored = WorkerCheck.objects.get(pk=check.pk)
    assert (stored.message, stored.message_params) == (
        "Queue “%(queue)s” is served.",
        {"queue": "gpu"},
    )
    with translation.override("en"):
        assert stored.message_text == "Queue “gpu” is served."
    with translation.override("fr"):
        assert stored.message_text == "La file «\u202fgpu\u202f» est servie."


def test_a_running_job_without_a_heartbeat_says_it_waits_for_a_worker(check, client):
    started = timezone.now() - timedelta(minutes=5)
    WorkerCheck.objects.filter(pk=check.pk).update(
        status="running", started_at=started, heartbeat_at=started + timedelta(minutes=3)
    )
    check.refresh_from_db()
    assert check.lost_worker is True
    WorkerCheck.objects.filter(pk=check.pk).update(heartbeat_at=timezone.now())
    check.refresh_from_db()
    assert check.lost_worker is False


def test_the_heartbeat_thread_keeps_a_slow_job_alive(transactional_db, monkeypatch):
    """Outside a transaction, as in a worker, a silent work still beats every few seconds."""
    monkeypatch.setattr(jobs, "HEARTBEAT_SECONDS", 0.05)
    check = WorkerCheck.objects.create(queue="default")
    beats = []

    def work(job, report):
        first = WorkerCheck.objects.get(pk=job.pk).heartbeat_at
        time.sleep(0.3)  # no report: only the thread writes
        beats.append((first, WorkerCheck.objects.get(pk=job.pk).heartbeat_at))
        return "done"

    job_run(check, work)
    ((first, later),) = beats
    assert later > first
    assert threading.active_count() == 1 or all(
        not t.name.startswith("heartbeat-") for t in threading.enumerate()
    )


def test_worker_check_reports_the_worker_and_the_queue(check):
    worker_check_run(check=check, hostname="w1@host")
    check.refresh_from_db()
    assert (check.status, check.worker) == (Job.Status.SUCCEEDED, "w1@host")
    assert check.message_text == "La file «\u202fdefault\u202f» est servie."


@pytest.mark.parametrize(("language", "percent"), [("fr", "40\u202f%"), ("en", "40%")])
def test_the_status_writes_its_percent_as_the_language_does(check, language, percent):
    # French keeps the % on the number's line: a narrow no-break space, not a plain one.
    from django.template.loader import render_to_string

    check.progress = 40
    with translation.override(language):
        html = render_to_string("core/job_status.html", {"job": check, "poll_url": "/x/"})
    assert f'<span class="job-percent">{percent}</span>' in html
    assert f">{percent}</progress>" in html
