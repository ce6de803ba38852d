"""Scrape runs with the real Wikipedia client against a fake French Wikipedia."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from core.errors import ServiceError
from corpus.models import Article, Paragraph, ScrapeLogEntry, ScrapeRun
from corpus.segmentation import segment
from corpus.services.scraping import scrape_run_execute, scrape_run_resume, scrape_run_start
from corpus.splits import assign_splits, sample_titles
from corpus.wikipedia import WikipediaClient
from tests.corpus.conftest import AGENT
from tests.corpus.fake_mediawiki import (
    FakeMediaWiki,
    FakeMediaWikiServer,
    article_extract,
    piaf_articles,
)
from tests.services import wait_until


@pytest.fixture
def twelve():
    """A category of 12 PIAF articles."""
    titles = sorted(piaf_articles())[:12]
    return FakeMediaWiki(
        pages={t: article_extract(piaf_articles()[t]) for t in titles}, members=titles, page_size=5
    )


def client_for(fake):
    return WikipediaClient(
        language="fr",
        api_url="https://fr.wikipedia.org/w/api.php",
        user_agent=AGENT,
        min_interval=0,
        transport=fake.transport(),
        sleep=lambda seconds: None,
    )


def start(**kwargs):
    options = {"category": "Article de qualité", "sample_size": 10, "seed": 7, "wave": "1.0"}
    return scrape_run_start(**(options | kwargs), enqueue=False)


def extract_requests(fake):
    return [r for r in fake.requests if r.url.params.get("prop") == "extracts"]


def test_a_run_samples_fetches_segments_and_splits(db, twelve):
    run = start()
    scrape_run_execute(run=run, client=client_for(twelve))
    run.refresh_from_db()
    expected_titles = sample_titles(twelve.members, n=10, seed=7)
    assert run.status == "succeeded", run.error
    assert [title for title, _split in run.plan] == expected_titles
    assert dict(run.plan) == assign_splits(
        expected_titles, existing={}, seed=7, ratios={"train": 83, "dev": 9, "test": 8}
    )
    assert (run.articles_total, run.articles_done, run.articles_failed) == (10, 10, 0)
    kept = sum(len(segment(twelve.pages[t]).paragraphs) for t in expected_titles)
    assert run.paragraphs_kept == kept == Paragraph.objects.count()
    assert run.progress == 100
    article = Article.objects.get(title=expected_titles[0])
    assert (article.page_id, article.revision_id) == (
        twelve.page_id(article.title),
        twelve.revision_id(article.title),
    )
    assert article.url.startswith("https://fr.wikipedia.org/wiki/")
    assert (article.wave, article.source, article.scrape_run_id) == ("1.0", "wikipedia", run.pk)
    assert [p.text for p in article.paragraphs.all()] == segment(
        twelve.pages[article.title]
    ).paragraphs
    entries = list(run.log_entries.all())
    assert entries[0].message_text == (
        "Tirage de 10 sur les 12 articles de la catégorie, hors 0 d’autres vagues\u202f; "
        "0 d’entre eux est déjà dans le corpus."  # French: 0 takes the singular
    )
    assert len(entries) == 11
    assert all(e.dropped for e in entries[1:])  # headings and end matter are reported
    assert {d["reason"] for d in entries[1].dropped} >= {"heading"}


def test_a_failed_article_is_logged_and_the_run_goes_on(db, twelve):
    twelve.members.append("Page disparue")
    run = start(sample_size=13)
    scrape_run_execute(run=run, client=client_for(twelve))
    run.refresh_from_db()
    assert run.status == "succeeded"
    assert (run.articles_done, run.articles_failed) == (12, 1)
    error = ScrapeLogEntry.objects.get(level="error")
    assert error.title == "Page disparue"
    assert "Page disparue" in error.message


def test_a_killed_run_resumes_without_duplicates(db, twelve):
    run = start()
    client = client_for(twelve)
    original = client.fetch_article
    calls = []

    def dies_on_the_fourth(title):
        calls.append(title)
        if len(calls) == 4:
            raise KeyboardInterrupt  # the worker is killed in the middle of the run
        return original(title)

    client.fetch_article = dies_on_the_fourth
    with pytest.raises(KeyboardInterrupt):
        scrape_run_execute(run=run, client=client)
    assert Article.objects.count() == 3
    assert ScrapeRun.objects.get(pk=run.pk).status == "running"

    again = client_for(twelve)
    scrape_run_execute(run=ScrapeRun.objects.get(pk=run.pk), client=again)
    run.refresh_from_db()
    assert run.status == "succeeded"
    assert Article.objects.count() == 10
    assert len(extract_requests(twelve)) == 3 + 7  # the first three were not fetched again
    assert run.attempts == 2


def test_running_a_finished_run_again_adds_no_row(db, twelve):
    run = start()
    scrape_run_execute(run=run, client=client_for(twelve))
    counts = (Article.objects.count(), Paragraph.objects.count(), ScrapeLogEntry.objects.count())
    ScrapeRun.objects.filter(pk=run.pk).update(status="running")  # as if redelivered
    scrape_run_execute(run=ScrapeRun.objects.get(pk=run.pk), client=client_for(twelve))
    assert (Article.objects.count(), Paragraph.objects.count()) == counts[:2]


def test_the_same_scrape_run_twice_gives_the_same_titles_and_adds_nothing(db, twelve):
    first = start(sample_size=6)
    scrape_run_execute(run=first, client=client_for(twelve))
    stored = dict(Article.objects.values_list("title", "split"))

    again = start(sample_size=6)  # same category, sample, seed and wave
    scrape_run_execute(run=again, client=client_for(twelve))
    first.refresh_from_db()
    again.refresh_from_db()

    assert again.status == "succeeded", again.error
    assert again.plan == first.plan
    assert dict(Article.objects.values_list("title", "split")) == stored
    assert Article.objects.filter(wave="1.0").count() == 6
    params = again.log_entries.first().message_params  # "6 of them are already…" within
    assert (params["n"], params["total"], params["known"], params["stored"]["n"]) == (6, 12, 0, 6)


def test_a_second_wave_samples_only_new_articles_and_keeps_the_first(db, twelve):
    first = start(sample_size=6, wave="1.0")
    scrape_run_execute(run=first, client=client_for(twelve))
    before = dict(Article.objects.values_list("title", "split"))
    second = start(sample_size=6, wave="1.1", seed=8)
    scrape_run_execute(run=second, client=client_for(twelve))
    second.refresh_from_db()
    assert second.status == "succeeded", second.error
    assert not set(before) & {title for title, _s in second.plan}
    assert Article.objects.count() == 12
    assert {t: s for t, s in Article.objects.values_list("title", "split") if t in before} == before


def test_an_unknown_category_fails_clearly_and_writes_no_article(db, twelve):
    run = start(category="Catégorie inexistante")
    scrape_run_execute(run=run, client=client_for(twelve))
    run.refresh_from_db()
    assert run.status == "failed"
    assert run.error.startswith("CategoryMissing: ")
    assert "Catégorie inexistante" in run.error
    assert Article.objects.count() == 0


def test_a_sample_larger_than_the_category_fails_clearly(db, twelve):
    run = start(sample_size=20)
    scrape_run_execute(run=run, client=client_for(twelve))
    run.refresh_from_db()
    assert run.status == "failed"
    assert "sample 20 is larger than the 12 articles it can be drawn from" in run.error
    assert Article.objects.count() == 0


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"sample_size": -5}, "sample"),
        ({"sample_size": 0}, "sample"),
        ({"sample_size": 10_000}, "sample"),
        ({"category": "  "}, "category"),
        ({"wave": ""}, "wave"),
        ({"language": "xx_YY"}, "language"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(db, kwargs, field):
    with pytest.raises(ServiceError) as error:
        start(**kwargs)
    assert list(error.value.errors) == [field]
    assert ScrapeRun.objects.count() == 0


def test_a_missing_user_agent_is_refused_at_start(db, settings):
    settings.WIKIPEDIA_USER_AGENT = ""
    with pytest.raises(ServiceError) as error:
        start()
    assert list(error.value.errors) == ["wikipedia"]
    assert ScrapeRun.objects.count() == 0


def test_scrape_articles_command_over_http(db, settings, twelve):
    with FakeMediaWikiServer(twelve) as server:
        settings.WIKIPEDIA_API_URL = server.url
        out = StringIO()
        call_command(
            "scrape_articles", "--sample", "4", "--seed", "3", "--wave", "1.0", "--json", stdout=out
        )
    result = json.loads(out.getvalue())
    assert (result["status"], result["articles_done"], result["articles_failed"]) == (
        "succeeded",
        4,
        0,
    )
    assert Article.objects.count() == 4
    assert all(r.headers["User-Agent"].startswith(AGENT) for r in twelve.requests)
    assert all(r.url.params["maxlag"] == "5" for r in twelve.requests)


def test_scrape_articles_command_reports_a_failure(db, settings, twelve):
    with FakeMediaWikiServer(twelve) as server:
        settings.WIKIPEDIA_API_URL = server.url
        with pytest.raises(CommandError, match="larger than the 12 articles"):
            call_command(
                "scrape_articles",
                "--sample",
                "50",
                "--seed",
                "3",
                "--wave",
                "1.0",
                stdout=StringIO(),
            )
    assert Article.objects.count() == 0


def test_scrape_articles_needs_its_options(db):
    with pytest.raises(CommandError, match="--sample, --seed and --wave are required"):
        call_command("scrape_articles", "--sample", "4", stdout=StringIO())


@pytest.mark.worker
def test_a_real_worker_runs_a_scrape_from_the_scrape_queue(redis_worker_factory, twelve):
    with FakeMediaWikiServer(twelve) as server:
        redis_worker_factory(
            WIKIPEDIA_API_URL=server.url, WIKIPEDIA_USER_AGENT=AGENT, WIKIPEDIA_MIN_INTERVAL_MS="0"
        )
        run = scrape_run_start(category="Article de qualité", sample_size=5, seed=11, wave="1.0")
        run = wait_until(lambda: ScrapeRun.objects.get(pk=run.pk), lambda r: r.is_finished)
    assert run.status == "succeeded", run.error
    assert (run.articles_done, run.progress) == (5, 100)
    assert Article.objects.filter(scrape_run=run).count() == 5


def test_a_failed_run_resumes_with_its_plan(db, twelve):
    run = start(sample_size=4)
    client = client_for(twelve)
    original, calls = client.fetch_article, []

    def wikipedia_goes_down(title):
        calls.append(title)
        if len(calls) >= 3:
            raise RuntimeError("Wikipedia is down")
        return original(title)

    client.fetch_article = wikipedia_goes_down
    scrape_run_execute(run=run, client=client)
    run.refresh_from_db()
    assert (run.status, run.error) == ("failed", "RuntimeError: Wikipedia is down")
    plan = run.plan

    resumed = scrape_run_resume(run=run, enqueue=False)
    assert (resumed.status, resumed.error) == ("pending", "")
    scrape_run_execute(run=resumed, client=client_for(twelve))
    run.refresh_from_db()
    assert (run.status, run.plan, run.articles_done) == ("succeeded", plan, 4)
    assert Article.objects.count() == 4


def test_only_a_failed_run_can_be_resumed(db, twelve):
    run = start(sample_size=2)
    scrape_run_execute(run=run, client=client_for(twelve))
    with pytest.raises(ServiceError) as error:
        scrape_run_resume(run=ScrapeRun.objects.get(pk=run.pk))
    assert (list(error.value.errors), error.value.status) == (["run"], 409)
    assert ScrapeRun.objects.get(pk=run.pk).status == "succeeded"


def test_resume_from_the_page_and_the_api(admin_client, django_capture_on_commit_callbacks):
    run = start(sample_size=2)
    ScrapeRun.objects.filter(pk=run.pk).update(status="failed", error="boom")
    page = admin_client.get(f"/manage/corpus/scrape-runs/{run.pk}/")
    assert f'action="/manage/corpus/scrape-runs/{run.pk}/resume/"'.encode() in page.content
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_client.post(f"/manage/corpus/scrape-runs/{run.pk}/resume/")
    assert response.status_code == 302
    assert ScrapeRun.objects.get(pk=run.pk).status == "pending"
    assert len(callbacks) == 1
    again = admin_client.post(f"/api/v1/scrape-runs/{run.pk}/resume/")
    assert again.status_code == 409
    assert list(again.json()["errors"]) == ["run"]


def test_a_language_segmentation_does_not_know_is_refused(db):
    with pytest.raises(ServiceError) as error:
        start(language="pt")
    assert list(error.value.errors) == ["language"]
    assert error.value.errors["language"] == [
        "La plateforme ne connaît que les langues fr, en, de, es, it, ro, tr, vi, ru, el, ar, hi, "
        "th, zh, ko\u202f; ajoutez d’abord la langue au registre (core/languages/catalogue.py, "
        "voir docs/languages.md)."
    ]
    assert ScrapeRun.objects.count() == 0


def test_two_resumes_of_the_same_failed_run_queue_it_once(db, django_capture_on_commit_callbacks):
    run = start(sample_size=2)
    ScrapeRun.objects.filter(pk=run.pk).update(status="failed", error="boom")
    first, second = ScrapeRun.objects.get(pk=run.pk), ScrapeRun.objects.get(pk=run.pk)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        scrape_run_resume(run=first)
        with pytest.raises(ServiceError) as error:
            scrape_run_resume(run=second)  # loaded while the run was still failed
    assert error.value.status == 409
    assert len(callbacks) == 1


def test_a_run_whose_worker_died_can_be_resumed_but_not_a_live_one(db):
    from datetime import timedelta

    from django.utils import timezone

    run = start(sample_size=2)
    now = timezone.now()
    ScrapeRun.objects.filter(pk=run.pk).update(
        status="running", started_at=now, heartbeat_at=now - timedelta(minutes=2)
    )
    with pytest.raises(ServiceError) as error:
        scrape_run_resume(run=ScrapeRun.objects.get(pk=run.pk), enqueue=False)
    assert error.value.status == 409
    ScrapeRun.objects.filter(pk=run.pk).update(heartbeat_at=now - timedelta(minutes=16))
    resumed = scrape_run_resume(run=ScrapeRun.objects.get(pk=run.pk), enqueue=False)
    assert resumed.status == "pending"


def test_progress_is_a_sign_of_life(db):
    from core.services.jobs import job_progress, job_start

    run = start(sample_size=2)
    job_start(run)
    first = ScrapeRun.objects.get(pk=run.pk).heartbeat_at
    job_progress(run, 10, "x")
    assert ScrapeRun.objects.get(pk=run.pk).heartbeat_at >= first is not None
