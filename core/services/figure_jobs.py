"""Stored figures as background jobs: what a page calls to read a figure (`figure_read`), and
the job that computes one (`figure_compute`). The figures and their rules: `core.figures`."""

from __future__ import annotations

import json
import time
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.figures import REGISTRY, Figure, FigureReading, figure_key
from core.models import StoredFigure
from core.services.jobs import job_enqueue, job_fail, job_run, job_succeed

# A pending job older than this never reached a worker (a lost message): start another.
PENDING_FOR = timedelta(minutes=15)
# A running job silent for this long lost its worker.
SILENT_FOR = timedelta(minutes=2)
# After a failed computation, wait this long before trying again (the stored value stays).
RETRY_AFTER = timedelta(minutes=5)
TASK = "core.tasks.stored_figure_task"


def _stored(name: str, key: str):
    return StoredFigure.objects.filter(name=name, key=key)


def figure_read(name: str, **params) -> FigureReading:
    """Return the figure for a page: computed now when the data is small, else stored."""
    figure = REGISTRY[name]
    if figure.small(**params):
        return FigureReading(value=figure.compute(**params))
    key = figure_key(params)
    fingerprint = figure.fingerprint(**params)
    done = (
        _stored(name, key)
        .filter(status=StoredFigure.Status.SUCCEEDED)
        .order_by("-pk")
        .only("value", "fingerprint", "finished_at")
        .first()
    )
    current = done is not None and done.fingerprint == fingerprint
    old = (
        done is not None
        and figure.max_age is not None
        and timezone.now() - done.finished_at > figure.max_age
    )
    computing = False
    if not current or old:
        computing = figure_refresh(figure, key)
    return FigureReading(
        value=done.value if done else None,
        computed_at=done.finished_at if done else None,
        current=current,
        computing=computing,
    )


def figure_refresh(figure: Figure, key: str) -> bool:
    """Start a computation of the figure unless one is in flight or one failed just now;
    return whether one is in flight now."""
    now = timezone.now()
    latest = _stored(figure.name, key).exclude(status=StoredFigure.Status.SUCCEEDED)
    latest = latest.order_by("-pk").first()
    if latest is not None and not latest.is_finished:
        pending_long = latest.status == StoredFigure.Status.PENDING and (
            now - latest.created_at > PENDING_FOR
        )
        if not (pending_long or latest.is_stale(silent_for=SILENT_FOR)):
            return True
        job_fail(latest, "No worker finished this computation; another one was started.")
    elif latest is not None and now - latest.finished_at < RETRY_AFTER:
        return False  # failed just now: the stored value stays until the next try
    try:
        with transaction.atomic():
            row = StoredFigure.objects.create(name=figure.name, key=key)
            job_enqueue(job=row, task=TASK, queue=figure.queue)
    except IntegrityError:  # another request started one a moment ago
        pass
    return True


def figure_compute(*, row: StoredFigure) -> None:
    """Compute a stored figure as a job (the task's work): fingerprint first, then the value."""
    figure = REGISTRY[row.name]
    params = json.loads(row.key) if row.key else {}

    def work(job, report):
        fingerprint = figure.fingerprint(**params)
        started = time.perf_counter()
        value = figure.compute(**params)
        seconds = time.perf_counter() - started
        with transaction.atomic():
            StoredFigure.objects.filter(pk=job.pk).update(
                fingerprint=fingerprint, value=value, seconds=seconds
            )
            job_succeed(job)
            # Older values of the figure are no longer shown.
            _stored(job.name, job.key).filter(
                pk__lt=job.pk, status__in=StoredFigure.FINISHED
            ).delete()
        return ""

    job_run(row, work)
