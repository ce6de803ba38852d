"""Use cases of the core app."""

from __future__ import annotations

import socket

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import ServiceError
from core.i18n import Text
from core.models import WorkerCheck
from core.services.jobs import Report, job_enqueue, job_run


def worker_check_start(*, queue: str, created_by=None) -> WorkerCheck:
    """Create a worker check for one queue and send it there once committed."""
    if queue not in settings.JOB_QUEUES:
        raise ServiceError({"queue": [_("Unknown queue “%(queue)s”.") % {"queue": queue}]})
    with transaction.atomic():
        check = WorkerCheck.objects.create(queue=queue, created_by=created_by)
        job_enqueue(job=check, task="core.tasks.worker_check_run_task", queue=queue)
    return check


def worker_check_run(*, check: WorkerCheck, hostname: str | None = None) -> None:
    """Prove the worker reads and writes the database and reports progress."""

    def work(job: WorkerCheck, report: Report) -> str:
        report(25, Text(gettext_noop("Worker reached")))
        WorkerCheck.objects.filter(pk=job.pk).update(worker=hostname or socket.gethostname())
        report(50, Text(gettext_noop("Database written")))
        WorkerCheck.objects.filter(pk=job.pk).exists()
        report(75, Text(gettext_noop("Database read")))
        return Text(gettext_noop("Queue “%(queue)s” is served."), {"queue": job.queue})

    job_run(check, work)
