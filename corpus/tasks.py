from celery import shared_task

from corpus.models import ScrapeRun
from corpus.services.scraping import scrape_run_execute


@shared_task(acks_late=True)
def scrape_run_task(*, job_pk: int) -> None:
    run = ScrapeRun.to_run(job_pk)
    if run is not None:
        scrape_run_execute(run=run)
