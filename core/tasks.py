from celery import shared_task

from core.models import WorkerCheck
from core.services import worker_check_run


@shared_task(bind=True, acks_late=True)
def worker_check_run_task(self, *, job_pk: int) -> None:
    check = WorkerCheck.objects.filter(pk=job_pk).first()
    if check is None or check.is_finished:
        return
    worker_check_run(check=check, hostname=self.request.hostname)
