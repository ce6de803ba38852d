"""Corpus pages: admins only, filters, split fixes, statistics, scrape-run start form."""

import pytest

from corpus.models import Article, ScrapeRun
from corpus.readers import SourceArticle
from corpus.services.articles import article_store


def make_article(title, split="train", wave="1.0", paragraphs=("x" * 600,), **extra):
    source = SourceArticle(title=title, source_title=extra.pop("source_title", title), **extra)
    return article_store(
        language="fr",
        source=source,
        paragraphs=list(paragraphs),
        wave=wave,
        split=split,
        kind="file",
    )


@pytest.mark.parametrize(
    "path", ["/manage/corpus/", "/manage/corpus/stats/", "/manage/corpus/scrape-runs/"]
)
def test_corpus_pages_are_for_admins(client, annotator, reviewer, path):
    assert client.get(path).status_code == 302
    for user in (annotator, reviewer):
        client.force_login(user)
        assert client.get(path).status_code == 403


def test_article_list_filters_by_split_and_wave(admin_client):
    make_article("Loire", split="train", wave="1.0")
    make_article("Seine", split="dev", wave="1.1")
    html = admin_client.get("/manage/corpus/?split=dev").content.decode()
    assert ">Seine</a>" in html and ">Loire</a>" not in html
    html = admin_client.get("/manage/corpus/?wave=1.0").content.decode()
    assert ">Loire</a>" in html and ">Seine</a>" not in html


def test_article_page_shows_paragraphs_escaped_and_the_wikipedia_link(admin_client):
    article = make_article(
        "Balises",
        paragraphs=["<script>alert(1)</script> " + "y" * 600],
        url="https://fr.wikipedia.org/wiki/Balises",
        revision_id=123,
        source_title="<i>Balises</i>",
    )
    html = admin_client.get(f"/manage/corpus/articles/{article.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;i&gt;Balises&lt;/i&gt;" in html
    assert 'href="https://fr.wikipedia.org/wiki/Balises"' in html
    assert "123" in html


def test_admin_moves_an_article_to_another_split(admin_client):
    article = make_article("Loire", split="train")
    response = admin_client.post(f"/manage/corpus/articles/{article.pk}/", {"split": "test"})
    assert response.status_code == 302
    article.refresh_from_db()
    assert (article.split, article.split_fixed) == ("test", True)


def test_a_bad_split_is_a_400_and_changes_nothing(admin_client):
    article = make_article("Loire", split="train")
    response = admin_client.post(f"/manage/corpus/articles/{article.pk}/", {"split": "nope"})
    assert response.status_code == 400
    assert b'role="alert"' in response.content
    article.refresh_from_db()
    assert (article.split, article.split_fixed) == ("train", False)


def test_stats_count_articles_and_paragraphs_per_split_and_wave(admin_client):
    make_article("A", split="train", wave="1.0", paragraphs=["a" * 500, "b" * 600])
    make_article("B", split="train", wave="1.1", paragraphs=["c" * 700])
    make_article("C", split="dev", wave="1.0", paragraphs=["d" * 800])
    response = admin_client.get("/manage/corpus/stats/")
    assert response.context["totals"] == [
        {"split": "train", "articles": 2, "paragraphs": 3, "chars": 1800, "questions": 0},
        {"split": "dev", "articles": 1, "paragraphs": 1, "chars": 800, "questions": 0},
        {"split": "test", "articles": 0, "paragraphs": 0, "chars": 0, "questions": 0},
    ]
    assert response.context["rows"] == [
        {
            "split": "train",
            "wave": "1.0",
            "articles": 1,
            "paragraphs": 2,
            "chars": 1100,
            "questions": 0,
        },
        {
            "split": "train",
            "wave": "1.1",
            "articles": 1,
            "paragraphs": 1,
            "chars": 700,
            "questions": 0,
        },
        {
            "split": "dev",
            "wave": "1.0",
            "articles": 1,
            "paragraphs": 1,
            "chars": 800,
            "questions": 0,
        },
    ]
    html = response.content.decode()
    # Bars in percent of the largest value: 2 articles → 100, 1 → 50.
    assert '<rect width="100.0" height="10" class="chart-bar">' in html
    assert '<rect width="50.0" height="10" class="chart-bar">' in html


def test_starting_a_scrape_run_from_the_page(admin_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_client.post(
            "/manage/corpus/scrape-runs/",
            {"category": "Article de qualité", "sample": "145", "seed": "2020", "wave": "1.0"},
        )
    run = ScrapeRun.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/manage/corpus/scrape-runs/{run.pk}/"
    assert (run.sample_size, run.seed, run.wave, run.status) == (145, 2020, "1.0", "pending")
    assert len(callbacks) == 1
    page = admin_client.get(response["Location"])
    assert f'hx-get="/manage/corpus/scrape-runs/{run.pk}/status/"'.encode() in page.content


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"sample": "-3"}, "sample"),
        ({"sample": "0"}, "sample"),
        ({"sample": "x"}, "sample"),
        ({"wave": "a b"}, "wave"),
        ({"category": ""}, "category"),
    ],
)
def test_bad_scrape_run_input_is_a_400_naming_the_field(admin_client, data, field):
    form = {"category": "Article de qualité", "sample": "10", "seed": "1", "wave": "1.0"} | data
    response = admin_client.post("/manage/corpus/scrape-runs/", form)
    assert response.status_code == 400
    assert field in response.context["form"].errors
    assert ScrapeRun.objects.count() == 0
    assert Article.objects.count() == 0


@pytest.mark.parametrize(
    ("existing", "suggested"),
    [([], "1.0"), (["1.0"], "1.1"), (["1.0", "1.1", "2.3"], "2.4"), (["printemps"], "")],
)
def test_the_scrape_form_suggests_the_next_wave(admin_client, existing, suggested):
    for i, wave in enumerate(existing):
        Article.objects.create(
            language="fr", title=f"A{i}", wave=wave, split="train", source="file", text_sha256=""
        )
    form = admin_client.get("/manage/corpus/scrape-runs/").context["form"]
    assert (form.initial["wave"], form.initial["sample"]) == (suggested, 12)
    assert form["category"].value() == "Article de qualité"


def test_the_scrape_page_says_where_articles_come_from(admin_client, settings):
    settings.OFFLINE_WIKIPEDIA_FILE = "/data/piaf-dataset-2020-02-24.json"
    settings.WIKIPEDIA_API_URL = "http://127.0.0.1:8000/offline-wikipedia/w/api.php"
    offline = admin_client.get("/manage/corpus/scrape-runs/", HTTP_ACCEPT_LANGUAGE="en")
    assert "offline copy of Wikipedia on this machine (piaf-dataset-2020-02-24.json)" in (
        offline.content.decode()
    )
    settings.OFFLINE_WIKIPEDIA_FILE, settings.WIKIPEDIA_API_URL = "", ""
    settings.WIKIPEDIA_USER_AGENT = ""
    off = admin_client.get("/manage/corpus/scrape-runs/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Scraping is off until an operator sets WIKIPEDIA_USER_AGENT" in off.content.decode()


def test_an_imported_article_links_to_its_title_and_says_its_revision_is_unknown(admin_client):
    article = Article.objects.create(
        language="fr",
        title="Loire (fleuve)",
        wave="1.0",
        split="dev",
        source="file",
        text_sha256="",
    )
    listed = admin_client.get("/manage/corpus/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    page = admin_client.get(f"/manage/corpus/articles/{article.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    url = "https://fr.wikipedia.org/wiki/Loire_(fleuve)"
    assert f'<a href="{url}" rel="noopener noreferrer">unknown (imported)</a>' in listed
    assert "made from the title: the source gave no address" in page.content.decode()
