"""Scrape runs: sample a category's articles, fetch, segment and store them, resumably.

A run draws its sample once and freezes it (titles and splits) in `plan`; running the job
again skips the titles already stored, so a killed worker loses nothing and adds no row.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import ServiceError
from core.i18n import Text, as_text
from core.services.jobs import Report, job_enqueue, job_reopen, job_run
from corpus.models import Article, Paragraph, ScrapeLogEntry, ScrapeRun
from corpus.readers import SourceArticle
from corpus.segmentation import segment
from corpus.services.articles import (
    article_store,
    check_language,
    check_wave,
    corpus_analyze,
    current_splits,
    paragraph_bounds,
)
from corpus.splits import SamplingError, assign_splits, sample_titles
from corpus.wikipedia import WikipediaError, client_from_settings

MAX_SAMPLE = 5000
SCRAPE_TASK = "corpus.tasks.scrape_run_task"


def _check_start(*, category: str, sample_size, seed) -> dict[str, list[str]]:
    errors = {}
    if not category or len(category) > 255:
        errors["category"] = [_("Give the category's name (at most 255 characters).")]
    if not isinstance(sample_size, int) or not 1 <= sample_size <= MAX_SAMPLE:
        message = _("The sample is a whole number from 1 to %(max)d.") % {"max": MAX_SAMPLE}
        errors["sample"] = [message]
    if not isinstance(seed, int) or abs(seed) >= 2**63:
        errors["seed"] = [_("The seed is a whole number.")]
    return errors


def scrape_run_start(
    *,
    category: str,
    sample_size: int,
    seed: int,
    wave: str,
    language: str | None = None,
    created_by=None,
    enqueue: bool = True,
) -> ScrapeRun:
    """Record a scrape run and send it to the `scrape` queue once committed."""
    category, language = (category or "").strip(), language or settings.WIKIPEDIA_LANGUAGE
    errors = _check_start(category=category, sample_size=sample_size, seed=seed)
    errors |= check_wave(wave) | check_language(language)
    if not settings.WIKIPEDIA_USER_AGENT.strip():
        errors["wikipedia"] = [
            _(
                "WIKIPEDIA_USER_AGENT is not set: Wikimedia asks every client "
                "for a descriptive user agent with a contact address."
            )
        ]
    if errors:
        raise ServiceError(errors)
    # The run records the bounds of its language: the settings' French characters, scaled.
    min_chars, max_chars = paragraph_bounds(language)
    with transaction.atomic():
        run = ScrapeRun.objects.create(
            category=category,
            language=language,
            sample_size=sample_size,
            seed=seed,
            wave=wave,
            ratios=settings.CORPUS_SPLIT_RATIOS,
            created_by=created_by,
            min_chars=min_chars,
            max_chars=max_chars,
        )
        if enqueue:
            job_enqueue(job=run, task=SCRAPE_TASK, queue="scrape")
    return run


def _log(run: ScrapeRun, level: str, message: Text | str, *, title="", dropped=()) -> None:
    text = as_text(message)
    ScrapeLogEntry.objects.create(
        run=run,
        level=level,
        title=title,
        message=text.msgid,
        message_params=text.params,
        dropped=list(dropped),
    )


def _draw_plan(run: ScrapeRun, client) -> None:
    """Sample the titles and their splits once, and freeze them in the run.

    The sample is drawn among the category's articles that no other wave holds: the same
    category, sample, seed and wave give the same titles, so running it again adds nothing,
    and a new wave never takes an article of an earlier one.
    """
    members = client.category_members(run.category)
    existing = current_splits(run.language)
    other_waves = set(
        Article.objects.filter(language=run.language)
        .exclude(wave=run.wave)
        .values_list("title", flat=True)
    )
    try:
        titles = sample_titles(members, n=run.sample_size, seed=run.seed, exclude=other_waves)
    except SamplingError as error:
        raise SamplingError(
            _("%(error)s (category “%(category)s” has %(count)d articles)")
            % {"error": error, "category": run.category, "count": len(set(members))}
        ) from None
    new = [title for title in titles if title not in existing]
    splits = existing | assign_splits(new, existing=existing, seed=run.seed, ratios=run.ratios)
    run.plan = [[title, splits[title]] for title in titles]
    ScrapeRun.objects.filter(pk=run.pk).update(plan=run.plan, articles_total=len(titles))
    run.articles_total = len(titles)
    _log(run, "info", _sampled_message(titles, members, other_waves, stored=len(titles) - len(new)))


def _sampled_message(titles, members, other_waves, *, stored: int) -> Text:
    """Say how many titles were sampled, of how many, leaving out how many, and how many of
    them the corpus already holds."""
    return Text.counted(
        gettext_noop(
            "Sampled %(n)d of %(total)d article in the category, leaving out %(known)d "
            "of other waves; %(stored)s."
        ),
        gettext_noop(
            "Sampled %(n)d of %(total)d articles in the category, leaving out %(known)d "
            "of other waves; %(stored)s."
        ),
        "total",
        {
            "n": len(titles),
            "total": len(set(members)),
            "known": len(other_waves),
            "stored": Text.counted(
                gettext_noop("%(n)d of them is already in the corpus"),
                gettext_noop("%(n)d of them are already in the corpus"),
                "n",
                {"n": stored},
            ),
        },
    )


def _dropped_summary(dropped) -> list[dict]:
    return [
        {"reason": d.reason, "section": d.section, "excerpt": d.excerpt, "chars": d.chars}
        for d in dropped
    ]


def _fetch_one(run: ScrapeRun, client, title: str, split: str) -> bool:
    """Fetch, segment and store one article; log what happened. Return False on failure."""
    try:
        page = client.fetch_article(title)
    except WikipediaError as error:
        _log(run, "error", str(error), title=title)
        return False
    result = segment(
        page.text, language=run.language, min_chars=run.min_chars, max_chars=run.max_chars
    )
    source = SourceArticle(
        title=title,
        source_title=page.title,
        url=page.url,
        page_id=page.page_id,
        revision_id=page.revision_id,
    )
    if not result.paragraphs:
        left_out = Text.counted(
            gettext_noop("No paragraph of at least %(n)d character: article left out."),
            gettext_noop("No paragraph of at least %(n)d characters: article left out."),
            "n",
            {"n": run.min_chars},
        )
        _log(run, "warning", left_out, title=title, dropped=_dropped_summary(result.dropped))
        return True
    stored = article_store(
        language=run.language,
        source=source,
        paragraphs=result.paragraphs,
        wave=run.wave,
        split=split,
        kind=Article.Source.WIKIPEDIA,
        scrape_run=run,
        fetched_at=timezone.now(),
    )
    message = _kept_message(result) if stored else Text(ALREADY_STORED)
    _log(run, "info", message, title=title, dropped=_dropped_summary(result.dropped))
    return True


ALREADY_STORED = gettext_noop("Already in the corpus: left as it is.")


def _kept_message(result) -> Text:
    """Say how many paragraphs of a stored article were kept and how many blocks dropped."""
    return Text.counted(
        gettext_noop("Kept %(kept)d paragraph, %(dropped)s."),
        gettext_noop("Kept %(kept)d paragraphs, %(dropped)s."),
        "kept",
        {
            "kept": len(result.paragraphs),
            "dropped": Text.counted(
                gettext_noop("dropped %(n)d block"),
                gettext_noop("dropped %(n)d blocks"),
                "n",
                {"n": len(result.dropped)},
            ),
        },
    )


def _update_counters(run: ScrapeRun, failed: int) -> None:
    titles = [title for title, _split in run.plan]
    done = Article.objects.filter(language=run.language, title__in=titles).count()
    kept = Paragraph.objects.filter(article__scrape_run=run).count()
    ScrapeRun.objects.filter(pk=run.pk).update(
        articles_done=done, articles_failed=failed, paragraphs_kept=kept
    )


def _scrape(run: ScrapeRun, report: Report, client) -> str:
    client = client or client_from_settings(language=run.language)
    if not run.plan:
        report(1, Text(gettext_noop("Listing the category")))
        _draw_plan(run, client)
    stored = set(
        Article.objects.filter(
            language=run.language, title__in=[t for t, _s in run.plan]
        ).values_list("title", flat=True)
    )
    failed = 0
    for index, (title, split) in enumerate(run.plan, start=1):
        if title not in stored and not _fetch_one(run, client, title, split):
            failed += 1
        _update_counters(run, failed)
        report(2 + 98 * index // max(1, len(run.plan)), title)
    corpus_analyze()
    run.refresh_from_db()
    return Text.counted(
        gettext_noop("%(done)d of %(total)d article in the corpus, %(failed)d failed, %(kept)s."),
        gettext_noop("%(done)d of %(total)d articles in the corpus, %(failed)d failed, %(kept)s."),
        "total",
        {
            "done": run.articles_done,
            "total": run.articles_total,
            "failed": run.articles_failed,
            "kept": Text.counted(
                gettext_noop("%(n)d paragraph kept"),
                gettext_noop("%(n)d paragraphs kept"),
                "n",
                {"n": run.paragraphs_kept},
            ),
        },
    )


STALE_AFTER = timedelta(minutes=15)  # a run reports after every article, within seconds


def scrape_run_can_resume(run: ScrapeRun) -> bool:
    """A run can start again when it failed, or when its worker died (silent for long)."""
    return run.status == ScrapeRun.Status.FAILED or run.is_stale(silent_for=STALE_AFTER)


def scrape_run_resume(*, run: ScrapeRun, enqueue: bool = True) -> ScrapeRun:
    """Start a failed or abandoned run again: its frozen plan is kept, stored articles skipped.

    The state is checked in the update itself, so two resumes cannot both win.
    """
    with transaction.atomic():
        if not job_reopen(run, silent_for=STALE_AFTER):
            raise ServiceError(
                {
                    "run": [
                        _(
                            "Only a failed run, or one silent for 15 minutes, can be resumed; "
                            "this one is %(status)s."
                        )
                        % {"status": run.get_status_display()}
                    ]
                },
                status=409,
            )
        if enqueue:
            job_enqueue(job=run, task=SCRAPE_TASK, queue="scrape")
    return run


def scrape_run_execute(*, run: ScrapeRun, client=None) -> None:
    """Run (or resume) a scrape run as a job; `client` replaces Wikipedia in tests."""
    job_run(run, lambda job, report: _scrape(job, report, client))
