from celery import shared_task

from exports.models import Release
from exports.services import release_build


@shared_task(acks_late=True)
def release_build_task(*, job_pk: int) -> None:
    release = Release.objects.filter(pk=job_pk).first()
    if release is None or release.is_finished:
        return
    release_build(release=release)
