"""Reads of the corpus: article pages, scrape-run pages, and the statistics figure.

Lists that grow with the corpus (articles, scrape runs, a run's log) are read a page at a time
by keyset (`core.pagination`), each through an index on its ordering, so a page costs the same
at 200,000 articles as at 20. The statistics read every paragraph: a stored figure
(`core.figures`), computed during the request only while the corpus is small.
"""

from pathlib import Path

from django.conf import settings
from django.db import connection
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.db.models.functions import Length

from core.figures import Figure, bounded_count
from core.languages import wiki_api_url
from core.pagination import KeysetPage, keyset_page
from corpus.models import Article, Paragraph, ScrapeLogEntry, ScrapeRun, Split

ARTICLE_ORDER = ("title", "pk")  # indexes corpus_article_title_id and _wave_title
ARTICLES_PER_PAGE = 50
RUN_ORDER = ("-created_at", "-pk")  # index corpus_scraperun_created
RUNS_PER_PAGE = 50
LOG_ORDER = ("created_at", "pk")  # index corpus_scrapelog_run_time (run, created_at, id)
LOG_ENTRIES_PER_PAGE = 100


def article_list(*, split: str = "", wave: str = "", query: str = "") -> QuerySet:
    """Return the articles filtered by split, wave and title (unordered: a page orders them)."""
    articles = Article.objects.all()
    if split:
        articles = articles.filter(split=split)
    if wave:
        articles = articles.filter(wave=wave)
    if query:
        articles = articles.filter(Q(title__icontains=query))
    return articles


def article_list_page(
    *, split: str = "", wave: str = "", query: str = "", after: str = "", before: str = ""
) -> KeysetPage:
    """Return a page of articles in title order, each with its `paragraph_count`.

    Two or three queries whatever the corpus holds: the page (an index walk from the cursor,
    `ARTICLES_PER_PAGE` + 1 rows), the paragraphs of the page's articles counted by id (the
    (article, position) index), and the start of the list when a "previous" page reaches it.
    """
    page = keyset_page(
        article_list(split=split, wave=wave, query=query),
        order=ARTICLE_ORDER,
        size=ARTICLES_PER_PAGE,
        after=after,
        before=before,
    )
    counts = {}
    if page.rows:
        counts = dict(
            Paragraph.objects.filter(article_id__in=[article.pk for article in page.rows])
            .order_by()
            .values("article_id")
            .annotate(n=Count("id"))
            .values_list("article_id", "n")
        )
    for article in page.rows:
        article.paragraph_count = counts.get(article.pk, 0)
    return page


def scrape_run_list_page(*, after: str = "", before: str = "") -> KeysetPage:
    """Return a page of scrape runs, newest first (without their frozen plans)."""
    runs = ScrapeRun.objects.select_related("created_by").defer("plan")
    return keyset_page(runs, order=RUN_ORDER, size=RUNS_PER_PAGE, after=after, before=before)


def scrape_log_page(run: ScrapeRun, *, after: str = "", before: str = "") -> KeysetPage:
    """Return a page of a run's log (one entry per article), in the order it was written."""
    entries = ScrapeLogEntry.objects.filter(run=run)
    return keyset_page(
        entries, order=LOG_ORDER, size=LOG_ENTRIES_PER_PAGE, after=after, before=before
    )


WAVES_SQL = """
WITH RECURSIVE found(wave) AS (
    SELECT MIN(wave) FROM {table}
    UNION ALL
    SELECT (SELECT MIN(a.wave) FROM {table} a WHERE a.wave > found.wave)
    FROM found WHERE found.wave IS NOT NULL
)
SELECT wave FROM found WHERE wave IS NOT NULL
"""


def waves() -> list[str]:
    """Return the waves of the corpus in order: one index probe per wave (the (wave, title,
    id) index), not a read of every article as DISTINCT would be."""
    table = connection.ops.quote_name(Article._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(WAVES_SQL.format(table=table))
        return [row[0] for row in cursor.fetchall()]


def next_wave() -> str:
    """Suggest the wave of a new scrape: 1.0 for an empty corpus, else the latest one + 0.1
    (1.1 after 1.0, 2.4 after 2.3); "" when the waves are not numbered that way."""
    numbered = []
    known = waves()
    for wave in known:
        major, dot, minor = wave.partition(".")
        if dot and major.isdigit() and minor.isdigit():
            numbered.append((int(major), int(minor)))
    if not numbered:
        return "" if known else "1.0"
    major, minor = max(numbered)
    return f"{major}.{minor + 1}"


def scraping_source() -> dict:
    """Say where scrapes read from, for the scrape page: the offline demo or Wikipedia."""
    offline = bool(settings.OFFLINE_WIKIPEDIA_FILE) and "/offline-wikipedia/" in (
        settings.WIKIPEDIA_API_URL or ""
    )
    return {
        "offline": offline,
        "file": Path(settings.OFFLINE_WIKIPEDIA_FILE).name if offline else "",
        "api_url": settings.WIKIPEDIA_API_URL or wiki_api_url(settings.WIKIPEDIA_LANGUAGE),
        "user_agent_missing": not settings.WIKIPEDIA_USER_AGENT.strip(),
    }


COUNTS = ("articles", "paragraphs", "chars", "questions")


def corpus_stats() -> dict:
    """Return articles, paragraphs, characters and questions per split and wave, and totals."""
    paragraphs = Paragraph.objects.values("article__split", "article__wave").annotate(
        paragraphs=Count("id"), chars=Sum(Length("text"))
    )
    articles = Article.objects.values("split", "wave").annotate(articles=Count("id"))
    # Questions hang off paragraphs (annotation app); counted through the reverse relation.
    questions = Paragraph.objects.values("article__split", "article__wave").annotate(
        questions=Count("questions")
    )
    cells = {
        (a["split"], a["wave"]): {
            "articles": a["articles"],
            "paragraphs": 0,
            "chars": 0,
            "questions": 0,
        }
        for a in articles
    }
    for p in paragraphs:
        cell = cells[(p["article__split"], p["article__wave"])]
        cell["paragraphs"], cell["chars"] = p["paragraphs"], p["chars"] or 0
    for q in questions:
        cells[(q["article__split"], q["article__wave"])]["questions"] = q["questions"]
    rows = [
        {"split": s, "wave": w, **cells[(s, w)]}
        for s in Split.values
        for w in sorted({w for _s, w in cells})
        if (s, w) in cells
    ]
    totals = []
    for split in Split.values:
        mine = [r for r in rows if r["split"] == split]
        totals.append(
            {
                "split": split,
                **{k: sum(r[k] for r in mine) for k in COUNTS},
            }
        )
    return {"rows": rows, "totals": totals}


STATS_FIGURE = "corpus.stats"
# Up to this many paragraphs, the statistics are computed during the request (a few
# milliseconds); beyond, a background job computes them when the corpus changed.
SMALL_CORPUS = 20_000


def _questions_model():
    """The questions, which hang off paragraphs (the annotation app, above this one)."""
    return Paragraph._meta.get_field("questions").related_model


def corpus_is_small(**_params) -> bool:
    """Whether the corpus holds at most `SMALL_CORPUS` paragraphs (a count that stops there):
    small enough for a figure over it to be computed during the request."""
    return bounded_count(Paragraph.objects.all(), SMALL_CORPUS) <= SMALL_CORPUS


def hand_moved_articles() -> str:
    """The articles moved to another split by hand, as a text that changes whenever one is
    moved: their count and the sum of their ids, per split (the partial index
    `corpus_article_fixed`). For the fingerprints of figures that read splits: every other
    article keeps the split it was stored with."""
    moved = (
        Article.objects.filter(split_fixed=True)
        .order_by("split")
        .values_list("split")
        .annotate(count=Count("pk"), total=Sum("pk"))
    )
    return ",".join(f"{split}={count}/{total}" for split, count, total in moved)


def _stats_fingerprint() -> str:
    """What changes when the statistics do, in a few index reads: the newest article,
    paragraph and question (rows are added, not edited), and the articles moved by hand.
    Rows deleted by hand are caught by the figure's maximum age."""
    newest = [
        model.objects.aggregate(newest=Max("pk"))["newest"]
        for model in (Article, Paragraph, _questions_model())
    ]
    return ":".join([*map(str, newest), hand_moved_articles()])


def stats_figure() -> Figure:
    """The statistics figure, registered by the app (`CorpusConfig.ready`); pages read it
    with `core.services.figure_jobs.figure_read(STATS_FIGURE)`."""
    return Figure(STATS_FIGURE, corpus_stats, _stats_fingerprint, corpus_is_small)
