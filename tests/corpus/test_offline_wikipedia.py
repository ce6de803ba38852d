"""The demo's offline Wikipedia: the real client scrapes it over HTTP, as `make run` does."""

import json

import pytest

from corpus.models import Article
from corpus.services.scraping import scrape_run_execute, scrape_run_start
from corpus.wikipedia import CategoryMissing, WikipediaClient
from tests.needs import PIAF_2020, require_file

API = "/offline-wikipedia/w/api.php"


@pytest.fixture
def offline(settings, tmp_path):
    path = tmp_path / "mini.jsonl"
    lines = [
        {"title": f"Article {i}", "paragraphs": [f"Paragraphe {i}. " + "mot " * 150]}
        for i in range(7)
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    settings.OFFLINE_WIKIPEDIA_FILE = str(path)
    return path


def test_it_is_off_unless_a_file_is_named(client, db, settings):
    settings.OFFLINE_WIKIPEDIA_FILE = ""
    assert client.get(API, {"action": "query", "list": "categorymembers"}).status_code == 404


def test_the_real_client_reads_the_category_and_the_pages(offline, live_server, db):
    wiki = WikipediaClient(
        language="fr",
        api_url=live_server.url + API,
        user_agent="qaplatform-tests/1.0 (tests@example.org)",
        min_interval=0,
    )

    members = wiki.category_members("Article de qualité")
    page = wiki.fetch_article("Article 3")

    assert sorted(members) == [f"Article {i}" for i in range(7)]
    assert page.text.startswith("Paragraphe 3. mot mot")
    assert page.text.endswith("== Notes et références ==")
    assert (page.revision_id, page.url) == (0, "https://fr.wikipedia.org/wiki/Article_3")
    with pytest.raises(CategoryMissing):
        wiki.category_members("Autre catégorie")


def test_a_scrape_run_over_the_offline_wikipedia_stores_articles(offline, live_server, settings):
    settings.WIKIPEDIA_API_URL = live_server.url + API
    settings.WIKIPEDIA_USER_AGENT = "qaplatform-demo/1.0 (offline demo)"
    settings.WIKIPEDIA_MIN_INTERVAL = 0
    run = scrape_run_start(
        category="Article de qualité", sample_size=4, seed=1, wave="1.1", enqueue=False
    )

    scrape_run_execute(run=run)
    run.refresh_from_db()

    assert run.status == "succeeded", run.error
    assert (run.articles_done, Article.objects.filter(wave="1.1").count()) == (4, 4)
    assert set(Article.objects.values_list("revision_id", flat=True)) == {0}


def test_piafs_2020_export_holds_articles_the_demo_corpus_lacks(client, db, settings):
    settings.OFFLINE_WIKIPEDIA_FILE = str(require_file(PIAF_2020))
    response = client.get(
        API,
        {
            "action": "query",
            "format": "json",
            "list": "categorymembers",
            "cmtitle": "Catégorie:Article de qualité",
            "cmlimit": "max",
        },
    )
    assert len(response.json()["query"]["categorymembers"]) == 300
