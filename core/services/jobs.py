"""Services shared by every job model: the only code that moves a job's state.

One lifecycle for every job: a service records the row and `job_enqueue`s its task by name;
the task calls `job_run(job, work)`, which starts the attempt, lets `work` report progress and
ends the job done or failed. An attempt owns the job while the row's `attempts` is its number:
once a resumed attempt has started, the older one can neither succeed nor fail it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from celery import current_app
from django.db import connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from core.i18n import Text, as_text
from core.models import HEARTBEAT_SECONDS, Job

logger = logging.getLogger(__name__)

Report = Callable[[int, Text | str], None]


def _update(job: Job, **fields) -> None:
    """Write fields of one job row without touching the others, and mirror them in memory."""
    type(job).objects.filter(pk=job.pk).update(**fields)
    for name, value in fields.items():
        if not hasattr(value, "resolve_expression"):
            setattr(job, name, value)


def job_enqueue(*, job: Job, task: str, queue: str | None = None) -> None:
    """Send the job's task, named like "exports.tasks.release_build_task", once the
    surrounding transaction commits (never before).

    Services name their task instead of importing it: a tasks module calls the services, so
    the arrow goes one way, and the web process needs none of the workers' code (a gpu task
    may need torch). Routing by name works the same (`CELERY_TASK_ROUTES`). If the broker
    cannot be reached the job fails with a message saying so, instead of waiting forever for a
    task that was never sent.
    """
    options = {"queue": queue} if queue else {}

    def send() -> None:
        try:
            current_app.send_task(task, kwargs={"job_pk": job.pk}, retry=False, **options)
        except Exception as error:  # any broker failure must reach the job row
            logger.exception("could not send %s for job %s", task, job.pk)
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


def job_progress(job: Job, progress: int, message: Text | str = "") -> None:
    """Record progress (0–100) and what the job is doing now (translated when shown)."""
    text = as_text(message)
    _update(
        job,
        progress=max(0, min(100, progress)),
        message=text.msgid[:500],
        message_params=text.params,
        heartbeat_at=timezone.now(),
    )


class Superseded(Exception):
    """A newer attempt at the same job started after this one: this one stops quietly."""


def _owned(job: Job):
    """Return the job's row while this attempt owns it (unfinished, same attempt number)."""
    rows = type(job).objects.filter(pk=job.pk).exclude(status__in=Job.FINISHED)
    return rows.filter(attempts=job.attempts) if job.attempts else rows


def job_succeed(job: Job, message: Text | str = "") -> None:
    """Mark the job done; raise Superseded if a newer attempt owns it.

    Work that writes its results may call this inside the transaction that writes them, so
    that the results and "done" commit together (or roll back together when superseded).
    """
    now, text = timezone.now(), as_text(message)
    done = {
        "status": Job.Status.SUCCEEDED,
        "progress": 100,
        "message": text.msgid[:500],
        "message_params": text.params,
        "error": "",
        "finished_at": now,
    }
    if not _owned(job).update(**done):
        raise Superseded
    for name, value in done.items():
        setattr(job, name, value)


def job_fail(job: Job, error: str) -> None:
    """Mark the job failed with the error text, unless a newer attempt owns it."""
    now = timezone.now()
    if _owned(job).update(status=Job.Status.FAILED, error=error, finished_at=now):
        job.status, job.error, job.finished_at = Job.Status.FAILED, error, now


def job_run(job: Job, work: Callable[[Job, Report], Text | str]) -> None:
    """Run work(job, report) as the job: start, report progress, end done or failed.

    `work` returns the closing message, and may mark the job done itself (`job_succeed` in the
    transaction that stores its results). An exception fails the job with its text and is
    logged, not raised: the row tells the admin what happened, and the broker must not
    redeliver a job that failed for a reason that would only fail again. An attempt that a
    newer one superseded (it looked abandoned and was resumed) stops without a word.
    """
    if not job_start(job):
        return
    beating = _Heartbeat(job)
    try:
        message = work(job, lambda progress, text="": job_progress(job, progress, text))
        if not job.is_finished:
            job_succeed(job, message)
    except Superseded:
        logger.warning("%s %s: attempt %s superseded", type(job).__name__, job.pk, job.attempts)
    except Exception as error:  # the job row must say why, whatever the error
        logger.exception("job %s %s failed", type(job).__name__, job.pk)
        job_fail(job, f"{type(error).__name__}: {error}")
    finally:
        beating.stop()


class _Heartbeat:
    """Write the job's heartbeat every HEARTBEAT_SECONDS while its work runs, from a thread.

    A page then tells a job whose worker died (no heartbeat for SILENT_AFTER) from a job that
    is only slow between two progress reports. Work run inside a transaction (a test, a
    command in a transaction) is invisible to other connections anyway: no thread then.
    """

    def __init__(self, job: Job):
        self.job, self.done = job, threading.Event()
        self.thread = None
        if not transaction.get_connection().in_atomic_block:
            self.thread = threading.Thread(target=self._beat, name=f"heartbeat-{job.pk}")
            self.thread.daemon = True
            self.thread.start()

    def _beat(self) -> None:
        try:
            while not self.done.wait(HEARTBEAT_SECONDS):
                _owned(self.job).filter(status=Job.Status.RUNNING).update(
                    heartbeat_at=timezone.now()
                )
        except Exception:  # a heartbeat must never break the job itself
            logger.exception("heartbeat of job %s stopped", self.job.pk)
        finally:
            connections.close_all()

    def stop(self) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join(timeout=HEARTBEAT_SECONDS)


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
