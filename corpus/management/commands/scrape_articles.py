from django.conf import settings
from django.core.management.base import CommandError

from core.commands import PlatformCommand
from corpus.models import ScrapeRun
from corpus.services.scraping import (
    scrape_run_can_resume,
    scrape_run_execute,
    scrape_run_resume,
    scrape_run_start,
)


class Command(PlatformCommand):
    help = "Sample a Wikipedia category's articles and scrape them into the corpus; wait."

    def add_command_arguments(self, parser):
        parser.add_argument("--category", default=settings.CORPUS_CATEGORY)
        parser.add_argument("--sample", type=int, help="How many articles (required).")
        parser.add_argument("--seed", type=int, help="Seed of the sample and splits (required).")
        parser.add_argument("--wave", help="Wave of the new articles, e.g. 1.1 (required).")
        parser.add_argument("--language", default=None, help="Default: WIKIPEDIA_LANGUAGE.")
        parser.add_argument(
            "--resume",
            type=int,
            default=None,
            metavar="RUN_ID",
            help="Resume an unfinished run instead of starting one.",
        )

    def run(self, *, category, sample, seed, wave, language, resume, **options):
        if resume is not None:
            run = ScrapeRun.objects.filter(pk=resume).first()
            if run is None:
                raise CommandError(f"No scrape run {resume}.")
            if scrape_run_can_resume(run):
                run = scrape_run_resume(run=run, enqueue=False)
        elif None in (sample, seed, wave):
            raise CommandError("--sample, --seed and --wave are required (or --resume RUN_ID).")
        else:
            run = scrape_run_start(
                category=category,
                sample_size=sample,
                seed=seed,
                wave=wave,
                language=language,
                enqueue=False,
            )
        # The command does the job itself (same service as the worker), so it needs no worker.
        scrape_run_execute(run=run)
        run.refresh_from_db()
        if run.status != ScrapeRun.Status.SUCCEEDED:
            raise CommandError(f"Scrape run {run.pk} failed: {run.error}")
        return {
            "run": run.pk,
            "status": run.status,
            "articles_total": run.articles_total,
            "articles_done": run.articles_done,
            "articles_failed": run.articles_failed,
            "paragraphs_kept": run.paragraphs_kept,
            "message": run.message_text,
        }

    def summary(self, result):
        return f"Scrape run {result['run']}: {result['message']}"
