from celery import shared_task

from exports.models import Release
from exports.services.releases import release_build, release_scoring_send
from exports.services.retention import snapshot_built
from exports.services.schedules import schedules_tick
from exports.services.tokens import tokens_ahead


@shared_task(acks_late=True)
def release_build_task(*, job_pk: int) -> None:
    release = Release.objects.filter(pk=job_pk).first()
    if release is None:
        return
    if release.is_finished:  # delivered again: only the scoring runs that never started
        release_scoring_send(release=release)
        return
    release_build(release=release)
    snapshot_built(release=release)  # a scheduled snapshot: its schedule's retention


@shared_task(acks_late=True)
def tokens_ahead_task() -> None:
    """Celery beat's periodic pass (settings.CELERY_BEAT_SCHEDULE): keep the MRQA tokens of
    what was written since the last one."""
    tokens_ahead()


@shared_task(acks_late=True)
def release_schedules_tick_task() -> None:
    """Celery beat's tick (settings.RELEASE_SCHEDULE_TICK_SECONDS): the due schedules'
    snapshots, then every schedule's retention (exports.services.schedules)."""
    schedules_tick()
