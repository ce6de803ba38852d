"""Corpus pages at scale (issue 13): the articles, a run's log and the runs a page at a time
(keyset: every row once, in order, filters kept; a forged cursor is a 400 naming it; an old
`?page=N` link shows the first page), and the statistics as a stored figure."""

import dataclasses
import html
import re

import pytest
from django.conf import settings

from core import figures
from core.models import StoredFigure
from core.services.figure_jobs import figure_compute
from corpus import selectors
from corpus.models import Article, ScrapeLogEntry, ScrapeRun
from corpus.selectors import STATS_FIGURE
from tests.corpus.test_views import make_article

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'<a rel="next" href="\?([^"]*)"')
PREVIOUS = re.compile(r'<a rel="prev" href="\?([^"]*)"')


def rows_of(page_html: str, kind: str) -> list[int]:
    return [int(pk) for pk in re.findall(rf'<tr data-{kind}="(\d+)"', page_html)]


def walk(client, path: str, query: str, kind: str, link=NEXT) -> list[tuple[str, list[int]]]:
    """Follow the `link` links from `path?query`: each page's query string and its rows."""
    pages, url_query = [], query
    while True:
        response = client.get(f"{path}?{url_query}")
        assert response.status_code == 200
        body = response.content.decode()
        pages.append((url_query, rows_of(body, kind)))
        found = link.search(body)
        if found is None:
            return pages
        url_query = html.unescape(found.group(1))
        assert len(pages) < 100


@pytest.fixture
def corpus():
    """Articles in three splits; the same title in two languages (the ordering's tie)."""
    titles = ["Loire", "Seine", "Rhône", "Garonne", "Meuse", "Somme", "Aude", "Ain", "Isère"]
    for i, title in enumerate(titles):
        split = ["train", "dev", "test"][i % 3] if i % 2 else "train"
        make_article(title, split=split, wave="1.0" if i < 5 else "1.1")
    Article.objects.create(
        language="en", title="Loire", wave="1.1", split="train", source="file", text_sha256="x"
    )
    return Article.objects.order_by("title", "pk")


@pytest.mark.parametrize(("size", "sizes"), [(3, [3, 3, 3, 1]), (5, [5, 5])])
def test_article_pages_walk_every_article_once_in_title_order(
    admin_client, corpus, monkeypatch, size, sizes
):
    """Page sizes 3 and 5: the two "Loire" on one page, then on both sides of a boundary."""
    monkeypatch.setattr(selectors, "ARTICLES_PER_PAGE", size)
    expected = list(corpus.values_list("pk", flat=True))
    assert [a.title for a in corpus][4:6] == ["Loire", "Loire"]
    pages = walk(admin_client, "/manage/corpus/", "", "article")
    assert [len(rows) for _query, rows in pages] == sizes
    assert [pk for _query, rows in pages for pk in rows] == expected
    # Back from the last page by the "previous" links: the same pages, the other way.
    back = walk(admin_client, "/manage/corpus/", pages[-1][0], "article", link=PREVIOUS)
    assert [rows for _query, rows in back] == [rows for _query, rows in reversed(pages)]


def test_article_pages_keep_the_filters_in_their_links(admin_client, corpus, monkeypatch):
    monkeypatch.setattr(selectors, "ARTICLES_PER_PAGE", 2)
    train = corpus.filter(split="train", wave="1.1")
    pages = walk(admin_client, "/manage/corpus/", "split=train&wave=1.1", "article")
    assert [pk for _query, rows in pages for pk in rows] == list(train.values_list("pk", flat=True))
    assert len(pages) == 2
    for query, _rows in pages[1:]:
        assert query.startswith("split=train&wave=1.1&after=")
    searched = walk(admin_client, "/manage/corpus/", "q=o", "article")
    titled = corpus.filter(title__icontains="o")
    assert [pk for _query, rows in searched for pk in rows] == list(
        titled.values_list("pk", flat=True)
    )
    assert all(query.startswith("q=o&") for query, _rows in searched[1:])


def test_each_article_row_counts_its_own_paragraphs(admin_client):
    make_article("Loire", paragraphs=["a" * 600, "b" * 600, "c" * 600])
    make_article("Seine", paragraphs=["d" * 600])
    page = admin_client.get("/manage/corpus/").context["page"]
    assert [(a.title, a.paragraph_count) for a in page.rows] == [("Loire", 3), ("Seine", 1)]


@pytest.mark.parametrize("parameter", ["after", "before"])
@pytest.mark.parametrize("cursor", ["garbage!", "WyJMb2lyZSJd", "WyJMb2lyZSIsIngiXQ"])
def test_a_forged_cursor_is_a_400_naming_it_with_the_first_page(
    admin_client, corpus, monkeypatch, parameter, cursor
):
    monkeypatch.setattr(selectors, "ARTICLES_PER_PAGE", 3)
    response = admin_client.get(f"/manage/corpus/?split=train&{parameter}={cursor}")
    assert response.status_code == 400
    body = response.content.decode()
    assert f'data-field="{parameter}"' in body
    first = list(corpus.filter(split="train").values_list("pk", flat=True)[:3])
    assert rows_of(body, "article") == first


def test_an_old_page_number_shows_the_first_page(admin_client, corpus, monkeypatch):
    monkeypatch.setattr(selectors, "ARTICLES_PER_PAGE", 3)
    response = admin_client.get("/manage/corpus/?page=7")
    assert response.status_code == 200
    body = response.content.decode()
    assert rows_of(body, "article") == list(corpus.values_list("pk", flat=True)[:3])
    assert "page=" not in NEXT.search(body).group(1)


def test_the_waves_are_listed_in_order(admin_client, corpus):
    assert admin_client.get("/manage/corpus/").context["waves"] == ["1.0", "1.1"]
    assert selectors.waves() == ["1.0", "1.1"]


def make_run(**extra) -> ScrapeRun:
    fields = {"category": "Fleuve", "language": "fr", "sample_size": 3, "seed": 0, "wave": "1.0"}
    return ScrapeRun.objects.create(**fields | extra)


def test_a_runs_log_is_shown_a_page_at_a_time(admin_client, monkeypatch):
    monkeypatch.setattr(selectors, "LOG_ENTRIES_PER_PAGE", 3)
    run, other = make_run(), make_run(wave="1.1")
    for i in range(7):
        for owner in (run, other):
            ScrapeLogEntry.objects.create(run=owner, level="info", title=f"T{i}", message="Kept.")
    path = f"/manage/corpus/scrape-runs/{run.pk}/"
    pages = walk(admin_client, path, "", "entry")
    assert [len(rows) for _query, rows in pages] == [3, 3, 1]
    mine = list(run.log_entries.order_by("created_at", "pk").values_list("pk", flat=True))
    assert [pk for _query, rows in pages for pk in rows] == mine
    back = walk(admin_client, path, pages[-1][0], "entry", link=PREVIOUS)
    assert [pk for _query, rows in reversed(back) for pk in rows] == mine
    response = admin_client.get(f"{path}?before=nonsense")
    assert response.status_code == 400
    assert 'data-field="before"' in response.content.decode()
    assert rows_of(response.content.decode(), "entry") == mine[:3]


def test_the_polled_status_reloads_the_page_once_the_run_ends(admin_client):
    # The counters and the log do not poll: a run seen to end shows its log after one reload.
    run = make_run(status=ScrapeRun.Status.RUNNING)
    path = f"/manage/corpus/scrape-runs/{run.pk}/status/"
    polled = admin_client.get(path, HTTP_HX_REQUEST="true")
    assert polled.status_code == 200
    assert "HX-Refresh" not in polled.headers
    ScrapeRun.objects.filter(pk=run.pk).update(status=ScrapeRun.Status.SUCCEEDED, progress=100)
    ended = admin_client.get(path, HTTP_HX_REQUEST="true")
    assert ended.status_code == 200
    assert ended.headers["HX-Refresh"] == "true"
    assert "HX-Refresh" not in admin_client.get(path).headers  # not asked by htmx: no reload


def test_the_runs_are_listed_newest_first_a_page_at_a_time(admin_client, monkeypatch):
    monkeypatch.setattr(selectors, "RUNS_PER_PAGE", 2)
    runs = [make_run(wave=f"1.{i}") for i in range(5)]
    pages = walk(admin_client, "/manage/corpus/scrape-runs/", "", "run")
    assert [pk for _query, rows in pages for pk in rows] == [run.pk for run in reversed(runs)]
    response = admin_client.get("/manage/corpus/scrape-runs/?after=WyJ4Il0")
    assert response.status_code == 400
    assert 'data-field="after"' in response.content.decode()


def test_small_corpus_statistics_are_computed_during_the_request(admin_client, sent_tasks):
    make_article("A", split="dev", wave="1.0", paragraphs=["a" * 500, "b" * 600])
    response = admin_client.get("/manage/corpus/stats/")
    assert response.context["totals"][1] == {
        "split": "dev",
        "articles": 1,
        "paragraphs": 2,
        "chars": 1100,
        "questions": 0,
    }
    assert 'id="stats-figure"' not in response.content.decode()
    assert StoredFigure.objects.count() == 0
    assert sent_tasks.calls == []


@pytest.fixture
def large(monkeypatch):
    """The statistics figure as if the corpus were too large to count during a request."""
    figure = figures.REGISTRY[STATS_FIGURE]
    monkeypatch.setitem(
        figures.REGISTRY, STATS_FIGURE, dataclasses.replace(figure, small=lambda **params: False)
    )


def test_large_corpus_statistics_are_a_stored_figure(
    admin_client, large, sent_tasks, django_capture_on_commit_callbacks
):
    admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    make_article("A", split="train", wave="1.0", paragraphs=["a" * 500, "b" * 600])

    def get():
        with django_capture_on_commit_callbacks(execute=True):
            return admin_client.get("/manage/corpus/stats/")

    response = get()
    assert response.status_code == 200
    body = response.content.decode()
    assert re.search(r'id="stats-figure">[^<]*being counted', body)
    assert 'id="split-totals"' not in body
    assert (response.context["totals"], response.context["rows"]) == ([], [])
    row = StoredFigure.objects.get(name=STATS_FIGURE)
    assert sent_tasks.calls == [
        ("core.tasks.stored_figure_task", {"kwargs": {"job_pk": row.pk}, "retry": False})
    ]
    get()  # being computed: no second job
    assert len(sent_tasks.calls) == 1

    figure_compute(row=row)
    row.refresh_from_db()
    response = get()
    assert len(sent_tasks.calls) == 1
    train = {"split": "train", "articles": 1, "paragraphs": 2, "chars": 1100, "questions": 0}
    assert response.context["totals"][0] == train
    assert response.context["rows"] == [{"wave": "1.0", **train}]
    figure = response.context["figure"]
    assert (figure.computed_at, figure.current, figure.computing) == (row.finished_at, True, False)
    body = response.content.decode()
    assert re.search(r'id="stats-figure">Counted on [^<·]*</p>', body)
    assert 'id="split-totals"' in body

    # The corpus changes: the stored figures stay on the page until a job counted again.
    article = make_article("B", split="dev", wave="1.1", paragraphs=["c" * 700])
    response = get()
    assert response.context["totals"][0] == train
    assert "the corpus changed since: counting again" in response.content.decode()
    assert len(sent_tasks.calls) == 2
    figure_compute(row=StoredFigure.objects.get(name=STATS_FIGURE, status="pending"))
    response = get()
    assert response.context["totals"][1]["articles"] == 1
    assert response.context["figure"].current

    # An article moved to another split by hand changes the fingerprint too.
    admin_client.post(f"/manage/corpus/articles/{article.pk}/", {"split": "test"})
    assert not get().context["figure"].current
    assert len(sent_tasks.calls) == 3
