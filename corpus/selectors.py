"""Reads of the corpus: filtered article lists and the statistics tables."""

from pathlib import Path

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Length

from corpus.models import Article, Paragraph, Split


def article_list(*, split: str = "", wave: str = "", query: str = "") -> QuerySet:
    """Return articles with their paragraph count, filtered by split, wave and title."""
    articles = Article.objects.annotate(paragraph_count=Count("paragraphs"))
    if split:
        articles = articles.filter(split=split)
    if wave:
        articles = articles.filter(wave=wave)
    if query:
        articles = articles.filter(Q(title__icontains=query))
    return articles.order_by("title")


def waves() -> list[str]:
    return list(Article.objects.order_by("wave").values_list("wave", flat=True).distinct())


def next_wave() -> str:
    """Suggest the wave of a new scrape: 1.0 for an empty corpus, else the latest one + 0.1
    (1.1 after 1.0, 2.4 after 2.3); "" when the waves are not numbered that way."""
    numbered = []
    for wave in waves():
        major, dot, minor = wave.partition(".")
        if dot and major.isdigit() and minor.isdigit():
            numbered.append((int(major), int(minor)))
    if not numbered:
        return "" if waves() else "1.0"
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
        "api_url": settings.WIKIPEDIA_API_URL
        or f"https://{settings.WIKIPEDIA_LANGUAGE}.wikipedia.org/w/api.php",
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
