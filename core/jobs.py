"""Services shared by every job model: the only code that moves a job's state."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from core.models import Job

logger = logging.getLogger(__name__)

Report = Callable[[int, str], None]


def _update(job: Job, **fields) -> None:
    """Write fields of one job row without touching the others, and mirror them in memory."""
    type(job).objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        if not hasattr(value, "resolve_expression"):
            setattr(job, name, value)


def job_enqueue(*, job: Job, task, queue: str | None = None) -> None:
    """Send the job's task once the surrounding transaction commits (never before).

    If the broker cannot be reached the job fails with a message saying so, instead of
    waiting forever for a task that was never sent.
    """
    options = {"queue": queue} if queue else {}

    def send() -> None:
        try:
            task.apply_async(kwargs={"job_pk": job.pk}, retry=False, **options)
        except Exception as error:  # any broker failure must reach the job row
            logger.exception("could not send %s for job %s", task.name, job.pk)
            job_fail(
                job,
                f"The job queue could not be reached ({error}). Check that the "
                "broker (REDIS_URL) is up, then start the job again.",
            )

    transaction.on_commit(send)


def job_start(job: Job) -> bool:
    """Mark the job running; return False when it already finished (a redelivered task)."""
    now = timezone.now()
    started = (
        type(job)
        .objects.filter(pk=job.pk)
        .exclude(status__in=Job.FINISHED)
        .update(
            status=Job.Status.RUNNING, attempts=F("attempts") + 1, started_at=now, heartbeat_at=now
        )
    )
    job.refresh_from_db()
    return bool(started)


def job_progress(job: Job, progress: int, message: str = "") -> None:
    """Record progress (0–100) and what the job is doing now."""
    _update(
        job, progress=max(0, min(100, progress)), message=message[:500], heartbeat_at=timezone.now()
    )


def job_succeed(job: Job, message: str = "") -> None:
    _update(
        job,
        status=Job.Status.SUCCEEDED,
        progress=100,
        message=message[:500],
        error="",
        finished_at=timezone.now(),
    )


def job_fail(job: Job, error: str) -> None:
    _update(job, status=Job.Status.FAILED, error=error, finished_at=timezone.now())


def job_run(job: Job, work: Callable[[Job, Report], str]) -> None:
    """Run work(job, report) as the job: start, report progress, end done or failed.

    `work` returns the closing message. An exception fails the job with its text and is logged,
    not raised: the row tells the admin what happened, and the broker must not redeliver a job
    that failed for a reason that would only fail again.
    """
    if not job_start(job):
        return
    try:
        message = work(job, lambda progress, text="": job_progress(job, progress, text))
    except Exception as error:  # the job row must say why, whatever the error
        logger.exception("job %s %s failed", type(job).__name__, job.pk)
        job_fail(job, f"{type(error).__name__}: {error}")
        return
    job_succeed(job, message)


def job_reopen(job: Job, *, silent_for, **reset) -> bool:
    """Put a failed job, or one whose worker fell silent for `silent_for`, back to pending.

    The state is checked in the update itself, so two callers cannot both reopen it; `reset`
    names more fields to set. Return whether it was reopened (the caller then enqueues it, in
    the same transaction, so the task is sent on commit).
    """
    silent_since = timezone.now() - silent_for
    resumable = Q(status=Job.Status.FAILED) | Q(
        Q(heartbeat_at__lt=silent_since)
        | Q(heartbeat_at__isnull=True, started_at__lt=silent_since),
        status=Job.Status.RUNNING,
    )
    reopened = (
        type(job)
        .objects.filter(resumable, pk=job.pk)
        .update(status=Job.Status.PENDING, error="", finished_at=None, **reset)
    )
    job.refresh_from_db()
    return bool(reopened)
