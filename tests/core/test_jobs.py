"""The shared job services move a job's state; the row always says what happened."""

import pytest
from django.db import IntegrityError, transaction

from core.jobs import job_progress, job_run, job_start
from core.models import Job, WorkerCheck
from core.services import worker_check_run


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


def test_worker_check_reports_the_worker_and_the_queue(check):
    worker_check_run(check=check, hostname="w1@host")
    check.refresh_from_db()
    assert (check.status, check.worker) == (Job.Status.SUCCEEDED, "w1@host")
    assert check.message == "La file « default » est servie."
