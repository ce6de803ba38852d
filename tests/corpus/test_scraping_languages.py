"""Scraping another language's Wikipedia: the registry's wiki, end matter and paragraph rule.

The stand-in wiki (FakeMediaWiki) serves XQuAD's Chinese and Arabic paragraphs as articles of
those wikis' quality categories; the real `wikipedia-api` client scrapes them.
"""

import json

import pytest

from core.languages import language
from corpus.models import Article, ScrapeRun
from corpus.segmentation import normalize
from corpus.services.scraping import scrape_run_execute, scrape_run_start
from corpus.wikipedia import WikipediaClient
from tests.corpus.conftest import AGENT
from tests.corpus.fake_mediawiki import FakeMediaWiki
from tests.needs import SHARED_DATA, require_file


def xquad_articles(code: str, count: int) -> dict[str, list[str]]:
    path = require_file(SHARED_DATA / "xquad" / f"xquad.{code}.json", "XQuAD paragraphs")
    data = json.loads(path.read_text(encoding="utf-8"))["data"][:count]
    return {a["title"]: [p["context"] for p in a["paragraphs"]] for a in data}


def extract(code: str, contexts: list[str]) -> str:
    """An article as TextExtracts writes it, ending with the language's end matter."""
    end_title = language(code).end_matter[0]
    reference = "Reference one, a line of the notes that must not be kept. " * 10
    return "\n\n\n".join(
        [contexts[0], "== 1 ==\n" + "\n".join(contexts[1:]), f"== {end_title} ==\n{reference}"]
    )


def scrape(code: str, category: str, count: int = 4):
    articles = xquad_articles(code, count)
    fake = FakeMediaWiki(
        pages={t: extract(code, c) for t, c in articles.items()},
        category=f"{language(code).wiki.category_prefix}:{category}",
        members=list(articles),
    )
    client = WikipediaClient(
        language=code,
        api_url=language(code).wiki.api_url,
        user_agent=AGENT,
        min_interval=0,
        transport=fake.transport(),
        sleep=lambda seconds: None,
    )
    run = scrape_run_start(
        category=category, sample_size=count, seed=3, wave="1.0", language=code, enqueue=False
    )
    scrape_run_execute(run=run, client=client)
    run.refresh_from_db()
    return run, articles, fake


@pytest.mark.parametrize(
    ("code", "category", "min_chars"),
    [("zh", "典范条目", 162), ("ar", "مقالات مختارة", 442), ("de", "Wikipedia:Exzellent", 582)],
)
def test_a_scrape_keeps_the_paragraphs_the_languages_rule_keeps(db, code, category, min_chars):
    run, articles, fake = scrape(code, category)

    assert run.status == "succeeded", run.error
    assert (run.language, run.min_chars) == (code, min_chars)
    cmtitles = {r.url.params["cmtitle"] for r in fake.requests if "cmtitle" in r.url.params}
    assert cmtitles == {f"{language(code).wiki.category_prefix}:{category}"}
    for title, contexts in articles.items():
        stored = Article.objects.filter(language=code, title=title).first()
        expected = [normalize(c) for c in contexts if len(normalize(c)) >= min_chars]
        if not expected:
            assert stored is None
            continue
        assert [p.text for p in stored.paragraphs.order_by("position")] == expected
    texts = "".join(Article.objects.values_list("paragraphs__text", flat=True))
    assert "must not be kept" not in texts


def test_chinese_keeps_what_a_flat_500_would_drop(db):
    """Under FQuAD's flat 500, 4 of XQuAD's 240 Chinese paragraphs pass; the first four articles'
    20 paragraphs would all go. Scaled to 162 characters, 14 of them are kept."""
    run, articles, _fake = scrape("zh", "典范条目")

    contexts = [normalize(c) for cs in articles.values() for c in cs]
    assert sum(len(c) >= 500 for c in contexts) == 0
    assert run.paragraphs_kept == sum(len(c) >= 162 for c in contexts) == 14


def test_the_settings_bound_is_french_characters_scaled_for_each_language(db, settings):
    settings.CORPUS_MIN_PARAGRAPH_CHARS = 1000
    settings.CORPUS_MAX_PARAGRAPH_CHARS = 2000
    options = {"category": "x", "sample_size": 1, "seed": 1, "wave": "1.0", "enqueue": False}
    chinese = scrape_run_start(language="zh", **options)
    french = scrape_run_start(language="fr", **options)

    assert (chinese.min_chars, chinese.max_chars) == (324, 648)
    assert (french.min_chars, french.max_chars) == (1000, 2000)
    assert ScrapeRun.objects.count() == 2
