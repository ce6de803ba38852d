"""Scheduled snapshots' retention: the stored files of a schedule's snapshots older than its
last `keep_last` finished ones are deleted, their rows kept (docs/release-schedules.md says what
stays). The tick applies it to every schedule, and the build task after a snapshot's build.
"""

from __future__ import annotations

from django.utils import timezone

from core.models import Job
from exports.models import Release, ReleaseSchedule
from exports.services.releases import release_storage


def _in_use(release: Release) -> bool:
    """Tell whether an unfinished job works on the release: a job of any app whose row points
    at it (a baseline run, an analysis…), found through the release's relations so that
    exports needs no import of the apps above it."""
    for relation in Release._meta.related_objects:
        model = relation.related_model
        if relation.one_to_many and issubclass(model, Job):
            rows = model._default_manager.filter(**{relation.field.name: release})
            if rows.exclude(status__in=Job.FINISHED).exists():
                return True
    return False


def schedule_prune(*, schedule: ReleaseSchedule) -> list[Release]:
    """Delete the stored downloadable files of the schedule's snapshots older than its last
    `keep_last` finished ones; return the snapshots pruned now.

    The rows stay: the release, its file rows (names, sizes, digests, counts), manifest,
    scores, and its internal answer files (the leaderboard and the human line of the chart
    read them). A snapshot an unfinished job still works on is left for a later pass.
    Idempotent: a pruned snapshot is not looked at again, and deleting a file already gone
    is no error.
    """
    finished = schedule.snapshots.filter(status=Release.Status.SUCCEEDED).order_by(
        "-created_at", "-pk"
    )
    kept = list(finished.values_list("pk", flat=True)[: schedule.keep_last])
    storage = release_storage()
    pruned = []
    for release in finished.exclude(pk__in=kept).filter(files_pruned_at__isnull=True):
        if _in_use(release):
            continue
        for stored in release.files.filter(internal=False).values_list("storage_name", flat=True):
            storage.delete(stored)
        Release.objects.filter(pk=release.pk, files_pruned_at__isnull=True).update(
            files_pruned_at=timezone.now()
        )
        pruned.append(release)
    return pruned


def snapshot_built(*, release: Release) -> list[Release]:
    """After a snapshot's build: apply its schedule's retention (nothing for another release)."""
    release.refresh_from_db(fields=["schedule", "status"])
    if release.schedule is None or release.status != Release.Status.SUCCEEDED:
        return []
    return schedule_prune(schedule=release.schedule)
