from celery import shared_task

from core.models import StoredFigure, WorkerCheck
from core.services.figure_jobs import figure_compute
from core.services.workers import worker_check_run


@shared_task(bind=True, acks_late=True)
def worker_check_run_task(self, *, job_pk: int) -> None:
    check = WorkerCheck.to_run(job_pk)
    if check is not None:
        worker_check_run(check=check, hostname=self.request.hostname)


@shared_task(acks_late=True)
def stored_figure_task(*, job_pk: int) -> None:
    row = StoredFigure.to_run(job_pk)
    if row is not None:
        figure_compute(row=row)
