"""The shared background-job row, who created a row, and the worker check that proves the job
pipeline runs."""

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.i18n import translated

# A running job writes its heartbeat this often; without one for SILENT_AFTER, its worker is
# gone (killed, or its machine lost) and the broker will give the job to another worker.
HEARTBEAT_SECONDS = 10
SILENT_AFTER = timedelta(seconds=60)


def optional_key(to, on_delete, related_name: str, *, one: bool = False, **options):
    """A link to another row that a row may lack (null in the database, blank in forms): a
    foreign key, or a one-to-one field with `one`. `options` go to the field (verbose_name)."""
    field = models.OneToOneField if one else models.ForeignKey
    return field(
        to, on_delete=on_delete, null=True, blank=True, related_name=related_name, **options
    )


class Job(models.Model):
    """State of one background job, kept in our own table (never in Celery's result backend)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for a worker")
        RUNNING = "running", _("Running")
        SUCCEEDED = "succeeded", _("Done")
        FAILED = "failed", _("Failed")

    FINISHED = (Status.SUCCEEDED, Status.FAILED)

    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    # The English msgid of what the job is doing, its values apart: translated when shown.
    message = models.CharField(_("message"), max_length=500, blank=True)
    message_params = models.JSONField(_("message values"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Written whenever the job reports; a running job silent for long lost its worker.
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(progress__lte=100),
                name="%(app_label)s_%(class)s_progress_at_most_100",
            ),
        ]

    @property
    def message_text(self) -> str:
        """The message in the reader's language."""
        return translated(self.message, self.message_params)

    @property
    def failure_text(self) -> str:
        """What a failed job tells the reader above its raw error, in their language: what
        failed and what to do ("" here: the error is shown alone; a kind of job may say)."""
        return ""

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED

    @classmethod
    def to_run(cls, pk: int, rows=None):
        """The row a job's task was sent for (from `rows`, default every row of the model), or
        None when it is gone or already finished: a task delivered again does nothing twice."""
        row = (cls.objects if rows is None else rows).filter(pk=pk).first()
        return None if row is None or row.is_finished else row

    @property
    def lost_worker(self) -> bool:
        """The job runs on paper, but its worker stopped writing its heartbeat."""
        return self.is_stale(silent_for=SILENT_AFTER)

    def is_stale(self, *, silent_for: timedelta) -> bool:
        """Tell whether the job runs on paper but has not reported for `silent_for`."""
        last = self.heartbeat_at or self.started_at
        return self.status == self.Status.RUNNING and (
            last is None or timezone.now() - last > silent_for
        )


class CreatedBy(models.Model):
    """Who made the row or started the job; the row stays when their account goes."""

    created_by = optional_key(
        settings.AUTH_USER_MODEL, models.SET_NULL, "+", verbose_name=_("created by")
    )

    class Meta:
        abstract = True


class WorkerCheck(CreatedBy, Job):
    """A tiny job sent to one queue: it succeeds only if a worker consumes that queue."""

    queue = models.CharField(_("queue"), max_length=32)
    worker = models.CharField(_("worker"), max_length=255, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("worker check")
        verbose_name_plural = _("worker checks")

    def __str__(self):
        return f"{self.queue} #{self.pk} ({self.status})"


class StoredFigure(Job):
    """A figure over big tables (corpus statistics, human performance, a release diff),
    computed by a background job and kept for the pages to read (`core.figures`).

    One row per computation; the newest succeeded row of a (name, key) is the value shown. It
    records the fingerprint of the data it was computed from, so a page tells at a glance,
    from a few indexed reads, whether the data changed since.
    """

    name = models.CharField(_("figure"), max_length=100)
    # The figure's parameters as canonical JSON ("" without any), e.g. {"new":7,"old":3}.
    key = models.CharField(_("parameters"), max_length=200, blank=True)
    fingerprint = models.CharField(_("fingerprint of the data"), max_length=500, blank=True)
    value = models.JSONField(_("value"), null=True, blank=True)
    seconds = models.FloatField(_("seconds to compute"), null=True, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("stored figure")
        verbose_name_plural = _("stored figures")
        constraints = [
            *Job.Meta.constraints,
            # One computation in flight per figure: a second page view finds it, and does not
            # start another.
            models.UniqueConstraint(
                fields=["name", "key"],
                condition=models.Q(status__in=["pending", "running"]),
                name="core_storedfigure_one_in_flight",
            ),
        ]
        indexes = [
            models.Index(fields=["name", "key", "status", "-id"], name="core_storedfigure_latest")
        ]

    def __str__(self):
        return f"{self.name} {self.key} ({self.status})"
