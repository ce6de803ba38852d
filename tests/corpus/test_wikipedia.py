"""The Wikipedia client, run for real against a fake French Wikipedia built from PIAF."""

import json
import threading
import time

import httpx
import pytest

from corpus.wikipedia import (
    USER_AGENT_MISSING,
    ArticlePage,
    CategoryMissing,
    PageMissing,
    WikipediaClient,
    WikipediaError,
    client_from_settings,
)
from tests.corpus.fake_mediawiki import (
    FakeMediaWiki,
    FakeMediaWikiServer,
    article_extract,
    piaf_articles,
)
from tests.needs import SHARED_DATA, require_file

API_URL = "https://fr.wikipedia.org/w/api.php"
UA = "qaplatform-tests/1.0 (https://example.org; tests@example.org)"
CATEGORY = "Catégorie:Article de qualité"
RECORDINGS = SHARED_DATA / "mediawiki-api"


class FakeTime:
    """A clock that only moves when the client sleeps (or a test says so)."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def clock(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def fake_time():
    return FakeTime()


@pytest.fixture
def fake():
    return FakeMediaWiki()


def make_client(fake, fake_time, **options):
    settings = {
        "language": "fr",
        "api_url": API_URL,
        "user_agent": UA,
        "min_interval": 0.0,
        "transport": fake.transport(),
        "sleep": fake_time.sleep,
        "clock": fake_time.clock,
    }
    return WikipediaClient(**(settings | options))


def params_of(request):
    return dict(request.url.params)


# Category members


def test_category_members_pages_through_the_whole_category_in_order(fake_time):
    titles = list(piaf_articles())
    members = (
        titles[:100]
        + ["Catégorie:Article de qualité sur la chimie", "Utilisateur:Exemple"]
        + titles[100:]
    )
    fake = FakeMediaWiki(members=members, page_size=50)

    result = make_client(fake, fake_time).category_members("Article de qualité")

    assert result == titles
    assert len(result) == len(set(result)) == 191
    assert len(fake.requests) == 4  # 193 members, 50 a reply
    sent = [params_of(r) for r in fake.requests]
    assert [p.get("cmcontinue") for p in sent] == [
        None,
        f"page|00000032|{fake.page_id(members[50])}",
        f"page|00000064|{fake.page_id(members[100])}",
        f"page|00000096|{fake.page_id(members[150])}",
    ]
    assert {(p["list"], p["cmtitle"], p["cmlimit"]) for p in sent} == {
        ("categorymembers", CATEGORY, "500")
    }


@pytest.mark.parametrize(
    "name",
    [
        "Article de qualité",
        "Catégorie:Article de qualité",
        "catégorie:Article de qualité",
        "Category:Article de qualité",
        "  Article de qualité  ",
    ],
)
def test_category_given_with_or_without_its_prefix(fake, fake_time, name):
    result = make_client(fake, fake_time).category_members(name)

    assert result == list(piaf_articles())
    assert params_of(fake.requests[0])["cmtitle"] == CATEGORY


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", "Catégorie:Article de qualité"),
        ("en", "Category:Article de qualité"),
        ("de", "Kategorie:Article de qualité"),
        ("es", "Categoría:Article de qualité"),
        ("it", "Categoria:Article de qualité"),
        ("nl", "Category:Article de qualité"),
    ],
)
def test_category_prefix_follows_the_language(fake, fake_time, language, expected):
    client = make_client(fake, fake_time, language=language)

    assert client.category_title("Article de qualité") == expected
    assert client.category_title("Category:Article de qualité") == expected


def test_missing_category_raises_category_missing(fake, fake_time):
    with pytest.raises(CategoryMissing) as error:
        make_client(fake, fake_time).category_members("Article qui n'existe pas")

    assert str(error.value) == (
        'category "Catégorie:Article qui n\'existe pas" at '
        f"{API_URL} does not exist or holds no article"
    )
    assert len(fake.requests) == 1


def test_category_without_any_article_raises_category_missing(fake_time):
    fake = FakeMediaWiki(pages={}, members=["Catégorie:Sous-catégorie", "Portail:Sport"])

    with pytest.raises(CategoryMissing, match="does not exist or holds no article"):
        make_client(fake, fake_time).category_members("Article de qualité")


# Articles


def test_fetch_article_returns_text_ids_and_url(fake, fake_time):
    title = "Saint-Paul (île)"
    c0, c1, c2, c3, c4 = piaf_articles()[title]

    page = make_client(fake, fake_time).fetch_article(title)

    assert page == ArticlePage(
        title=title,
        page_id=fake.page_id(title),
        revision_id=fake.revision_id(title),
        url="https://fr.wikipedia.org/wiki/Saint-Paul_(%C3%AEle)",
        language="fr",
        text=(
            f"{c0}\n\n\n== Histoire ==\n{c1}\n{c2}\n\n\n== Description ==\n{c3}"
            f"\n\n\n=== Détails ===\n{c4}\n\n\n== Notes et références =="
        ),
    )
    extracts, info = (params_of(r) for r in fake.requests)
    assert (
        extracts["prop"],
        extracts["titles"],
        extracts["explaintext"],
        extracts["exsectionformat"],
    ) == ("extracts", title, "1", "wiki")
    assert (info["prop"], info["titles"]) == ("info", title)
    assert "url" in info["inprop"].split("|")


def test_fetch_article_with_a_single_paragraph(fake, fake_time):
    page = make_client(fake, fake_time).fetch_article("Sport")

    assert page.text == piaf_articles()["Sport"][0] + "\n\n\n== Notes et références =="
    assert (page.title, page.url) == ("Sport", "https://fr.wikipedia.org/wiki/Sport")


def test_fetch_article_keeps_every_paragraph_as_a_line(fake, fake_time):
    contexts = piaf_articles()["Algérie"]

    page = make_client(fake, fake_time).fetch_article("Algérie")

    lines = page.text.split("\n")
    assert [line for line in lines if line in contexts] == contexts
    assert page.url == "https://fr.wikipedia.org/wiki/Alg%C3%A9rie"


def test_fetch_article_returns_the_normalized_title(fake, fake_time):
    page = make_client(fake, fake_time).fetch_article("Transnistrie_(État)")

    assert page.title == "Transnistrie (État)"
    assert page.url == "https://fr.wikipedia.org/wiki/Transnistrie_(%C3%89tat)"
    assert page.page_id == fake.page_id("Transnistrie (État)")


def test_missing_page_raises_page_missing(fake, fake_time):
    with pytest.raises(PageMissing) as error:
        make_client(fake, fake_time).fetch_article("Page qui n'existe pas")

    assert str(error.value) == f'no article titled "Page qui n\'existe pas" at {API_URL}'
    assert len(fake.requests) == 1


@pytest.mark.parametrize("title", ["", "   ", "Sport|Algérie", "Sport\nAlgérie"])
def test_invalid_title_is_refused_before_any_request(fake, fake_time, title):
    with pytest.raises(WikipediaError, match="is not a valid page title"):
        make_client(fake, fake_time).fetch_article(title)

    assert fake.requests == []


# Retries


def test_maxlag_error_is_retried_after_retry_after(fake, fake_time):
    fake.fail_next("maxlag", retry_after=3)

    page = make_client(fake, fake_time).fetch_article("Sport")

    assert page.title == "Sport"
    assert fake_time.sleeps == [3]
    assert len(fake.requests) == 3


def test_503_is_retried_after_retry_after(fake, fake_time):
    fake.fail_next(503, retry_after=2)

    result = make_client(fake, fake_time).category_members(CATEGORY)

    assert result == list(piaf_articles())
    assert fake_time.sleeps == [2]
    assert len(fake.requests) == 2


@pytest.mark.parametrize(("retry_after", "sleeps"), [(None, [1.0]), (7, [7])])
def test_429_is_retried(fake, fake_time, retry_after, sleeps):
    fake.fail_next(429, retry_after=retry_after)

    page = make_client(fake, fake_time).fetch_article("Sport")

    assert page.page_id == fake.page_id("Sport")
    assert fake_time.sleeps == sleeps


def test_time_out_is_retried(fake, fake_time):
    fake.fail_next("timeout")

    page = make_client(fake, fake_time).fetch_article("Sport")

    assert page.text == article_extract(piaf_articles()["Sport"])
    assert fake_time.sleeps == [1.0]
    assert len(fake.requests) == 3


def test_back_off_is_exponential_without_retry_after(fake, fake_time):
    fake.fail_next(503, times=3)

    make_client(fake, fake_time).fetch_article("Sport")

    assert fake_time.sleeps == [1.0, 2.0, 4.0]


def test_back_off_waits_at_least_retry_after(fake, fake_time):
    fake.fail_next(503, retry_after=1, times=3)

    make_client(fake, fake_time).fetch_article("Sport")

    assert fake_time.sleeps == [1.0, 2.0, 4.0]


@pytest.mark.parametrize(
    ("failure", "reason"),
    [
        (503, "HTTP 503 Service Unavailable"),
        (429, "HTTP 429 Too Many Requests"),
        ("maxlag", "API error 'maxlag' (Waiting for 10.64.48.35: 1 seconds lagged.)"),
        ("timeout", "no answer within the 30s time-out"),
    ],
)
def test_retries_exhausted_raise_what_kept_failing(fake, fake_time, failure, reason):
    fake.fail_next(failure, retry_after=1, times=3)

    with pytest.raises(WikipediaError) as error:
        make_client(fake, fake_time, max_retries=2).fetch_article("Sport")

    assert str(error.value) == (
        f"the extracts query for 'Sport' at {API_URL} kept failing: {reason}, "
        "3 attempts in all (WIKIPEDIA_MAX_RETRIES=2)"
    )
    assert len(fake.requests) == 3
    assert fake_time.sleeps == [1.0, 2.0]


def test_no_retry_when_max_retries_is_zero(fake, fake_time):
    fake.fail_next(503)

    with pytest.raises(WikipediaError, match="kept failing: HTTP 503"):
        make_client(fake, fake_time, max_retries=0).category_members(CATEGORY)

    assert len(fake.requests) == 1
    assert fake_time.sleeps == []


def test_retry_after_longer_than_the_client_waits_fails_at_once(fake, fake_time):
    fake.fail_next(503, retry_after=3600)

    with pytest.raises(WikipediaError) as error:
        make_client(fake, fake_time).fetch_article("Sport")

    assert str(error.value) == (
        f"the extracts query for 'Sport' at {API_URL} failed (HTTP 503 Service Unavailable) and "
        "the server asks to wait 3600s, more than 300s: try again later"
    )
    assert fake_time.sleeps == []


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        (
            "readonly",
            f"{API_URL} refused the request: API error 'readonly': Scripted API error 'readonly'.",
        ),
        (404, f"{API_URL} answered the extracts query for 'Sport' with HTTP 404"),
        (403, f"{API_URL} answered the extracts query for 'Sport' with HTTP 403"),
    ],
)
def test_other_errors_are_not_retried(fake, fake_time, failure, message):
    fake.fail_next(failure)

    with pytest.raises(WikipediaError) as error:
        make_client(fake, fake_time).fetch_article("Sport")

    assert str(error.value) == message
    assert len(fake.requests) == 1
    assert fake_time.sleeps == []


def test_network_errors_are_retried_then_reported(fake_time):
    def refuse(request):
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

    client = make_client(
        FakeMediaWiki(pages={}), fake_time, max_retries=1, transport=httpx.MockTransport(refuse)
    )

    with pytest.raises(WikipediaError) as error:
        client.category_members(CATEGORY)

    assert str(error.value) == (
        f"the categorymembers query for {CATEGORY!r} at {API_URL} kept failing: network error "
        "(ConnectError: [Errno 111] Connection refused), 2 attempts in all "
        "(WIKIPEDIA_MAX_RETRIES=1)"
    )
    assert fake_time.sleeps == [1.0]


def test_a_reply_that_is_not_json_is_an_error(fake_time):
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text="<html>"))

    with pytest.raises(WikipediaError, match="is not JSON: is WIKIPEDIA_API_URL"):
        make_client(FakeMediaWiki(pages={}), fake_time, transport=transport).fetch_article("X")


# Etiquette: user agent, maxlag, host, pacing, one request at a time


def test_every_request_carries_user_agent_maxlag_and_goes_to_the_configured_url(fake_time):
    api_url = "http://wiki.internal:8080/w/api.php"
    fake = FakeMediaWiki(page_size=100)
    client = make_client(fake, fake_time, api_url=api_url, transport=fake.transport())

    client.category_members("Article de qualité")
    client.fetch_article("Sport")
    with pytest.raises(PageMissing):
        client.fetch_article("https://evil.example.org/w/api.php")
    with pytest.raises(PageMissing):
        client.fetch_article("//evil.example.org/x")

    assert len(fake.requests) == 6
    for request in fake.requests:
        assert (
            request.method,
            request.url.scheme,
            request.url.host,
            request.url.port,
            request.url.path,
        ) == ("GET", "http", "wiki.internal", 8080, "/w/api.php")
        assert request.headers["User-Agent"].startswith(UA + " Wikipedia-API/")
        assert (request.url.params["maxlag"], request.url.params["format"]) == ("5", "json")


def test_redirects_are_not_followed(fake_time):
    seen = []

    def handler(request):
        seen.append(request)
        return httpx.Response(301, headers={"Location": "https://evil.example.org/w/api.php"})

    client = make_client(FakeMediaWiki(pages={}), fake_time, transport=httpx.MockTransport(handler))

    with pytest.raises(WikipediaError, match="redirects are not followed"):
        client.fetch_article("Sport")
    assert [r.url.host for r in seen] == ["fr.wikipedia.org"]


def test_requests_are_spaced_by_min_interval(fake_time):
    fake = FakeMediaWiki(page_size=50)
    started = []
    transport = httpx.MockTransport(lambda r: (started.append(fake_time.now), fake.handler(r))[1])
    client = make_client(fake, fake_time, min_interval=1.0, transport=transport)

    client.category_members(CATEGORY)
    fake_time.now += 0.25  # the caller works a little between two calls
    client.fetch_article("Sport")

    assert fake_time.sleeps == [1.0, 1.0, 1.0, 0.75, 1.0]
    assert started == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_retry_waits_count_towards_min_interval(fake_time):
    fake = FakeMediaWiki()
    fake.fail_next(503, retry_after=2)
    client = make_client(fake, fake_time, min_interval=1.0)

    client.fetch_article("Sport")

    assert fake_time.sleeps == [2, 1.0]  # the retry, then the pause before the info query


def test_one_request_at_a_time_across_threads():
    fake = FakeMediaWiki()
    in_flight, peak, lock = [0], [0], threading.Lock()

    def handler(request):
        with lock:
            in_flight[0] += 1
            peak[0] = max(peak[0], in_flight[0])
        time.sleep(0.005)
        with lock:
            in_flight[0] -= 1
        return fake.handler(request)

    client = WikipediaClient(
        language="fr",
        api_url=API_URL,
        user_agent=UA,
        min_interval=0.0,
        transport=httpx.MockTransport(handler),
    )
    titles = list(piaf_articles())[:8]
    results = {}
    threads = [
        threading.Thread(target=lambda t=t: results.update({t: client.fetch_article(t)}))
        for t in titles
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(results) == sorted(titles)
    assert len(fake.requests) == 16
    assert peak[0] == 1


# Configuration


@pytest.mark.parametrize(
    ("api_url", "message"),
    [
        (
            "ftp://fr.wikipedia.org/w/api.php",
            "Wikipedia API URL 'ftp://fr.wikipedia.org/w/api.php' "
            "must start with https:// or http:// (e.g. https://fr.wikipedia.org/w/api.php)",
        ),
        (
            "fr.wikipedia.org/w/api.php",
            "Wikipedia API URL 'fr.wikipedia.org/w/api.php' must start "
            "with https:// or http:// (e.g. https://fr.wikipedia.org/w/api.php)",
        ),
        (
            "",
            "Wikipedia API URL '' must start with https:// or http:// "
            "(e.g. https://fr.wikipedia.org/w/api.php)",
        ),
        ("https:///w/api.php", "Wikipedia API URL 'https:///w/api.php' has no host name"),
        (
            "https://bot:secret@fr.wikipedia.org/w/api.php",
            "Wikipedia API URL "
            "'https://bot:secret@fr.wikipedia.org/w/api.php' must be a plain address: no user name, "
            "password, query string or fragment",
        ),
        (
            "https://fr.wikipedia.org/w/api.php?origin=*",
            "Wikipedia API URL "
            "'https://fr.wikipedia.org/w/api.php?origin=*' must be a plain address: no user name, "
            "password, query string or fragment",
        ),
    ],
)
def test_api_url_must_be_http_with_a_host(api_url, message):
    with pytest.raises(WikipediaError) as error:
        WikipediaClient(language="fr", api_url=api_url, user_agent=UA)

    assert str(error.value) == message


def test_user_agent_and_language_are_required():
    with pytest.raises(WikipediaError) as error:
        WikipediaClient(language="fr", api_url=API_URL, user_agent="  ")
    assert str(error.value) == USER_AGENT_MISSING

    with pytest.raises(WikipediaError, match="'f r' is not a Wikipedia language code"):
        WikipediaClient(language="f r", api_url=API_URL, user_agent=UA)


def test_client_from_settings_refuses_an_empty_user_agent(settings):
    settings.WIKIPEDIA_USER_AGENT = ""

    with pytest.raises(WikipediaError) as error:
        client_from_settings()

    assert str(error.value) == (
        "WIKIPEDIA_USER_AGENT is not set: Wikimedia asks for a descriptive user agent with a "
        "contact, e.g. 'qaplatform/1.0 (https://example.org; you@example.org)'"
    )


def test_client_from_settings_reads_the_settings(settings, fake, fake_time):
    settings.WIKIPEDIA_LANGUAGE = "fr"
    settings.WIKIPEDIA_API_URL = "http://mirror.internal/w/api.php"
    settings.WIKIPEDIA_USER_AGENT = UA
    settings.WIKIPEDIA_MIN_INTERVAL = 0.5
    settings.WIKIPEDIA_MAX_RETRIES = 1

    client = client_from_settings(
        transport=fake.transport(), sleep=fake_time.sleep, clock=fake_time.clock
    )
    fake.fail_next(503, times=2)

    with pytest.raises(WikipediaError, match="2 attempts in all"):
        client.fetch_article("Sport")
    assert (client.api_url, client.language) == ("http://mirror.internal/w/api.php", "fr")
    assert [r.url.host for r in fake.requests] == ["mirror.internal"] * 2
    assert fake_time.sleeps == [1.0]


def test_client_from_settings_language_override(settings):
    settings.WIKIPEDIA_LANGUAGE = "fr"
    settings.WIKIPEDIA_API_URL = "https://fr.wikipedia.org/w/api.php"
    settings.WIKIPEDIA_USER_AGENT = UA

    assert client_from_settings(language="en").api_url == "https://en.wikipedia.org/w/api.php"

    settings.WIKIPEDIA_API_URL = "http://127.0.0.1:9/w/api.php"
    assert client_from_settings(language="en").api_url == "http://127.0.0.1:9/w/api.php"


# The fake against the recorded replies


def _recorded(name):
    path = require_file(RECORDINGS / name, "the recorded MediaWiki replies")
    interaction = json.loads(path.read_text())["interactions"][0]
    return httpx.URL(interaction["request"]["uri"]), json.loads(
        interaction["response"]["body"]["string"]
    )


def _shape(value):
    """Keys and value types, not values (nor the title-dependent `normalized` list)."""
    if isinstance(value, dict):
        return {
            key: "dict" if key == "varianttitles" else _shape(item)
            for key, item in value.items()
            if key != "normalized"
        }
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return type(value).__name__


@pytest.mark.parametrize(
    ("recording", "title"),
    [
        ("TestVcrWikiExtracts.test_extracts.json", "Sport"),
        ("TestVcrPageInfoProps.test_lastrevid.json", "Sport"),
        ("TestVcrPageExistence.test_exists_false.json", "Page qui n'existe pas"),
    ],
)
def test_fake_answers_in_the_recorded_shape(fake, recording, title):
    url, recorded = _recorded(recording)
    params = dict(url.params) | {"titles": title}
    request = httpx.Request("GET", httpx.URL(API_URL, params=params), headers={"User-Agent": UA})

    reply = fake.handler(request).json()

    got, want = _shape(reply), _shape(recorded)
    for shape in (got, want):
        shape["query"]["pages"] = {
            ("-1" if key.startswith("-") else "id"): entry
            for key, entry in shape["query"]["pages"].items()
        }
    assert got == want


def test_fake_categorymembers_in_the_recorded_shape(fake):
    url, recorded = _recorded("TestVcrWikiCategorymembers.test_categorymembers.json")
    params = dict(url.params) | {"cmtitle": CATEGORY}
    request = httpx.Request("GET", httpx.URL(API_URL, params=params), headers={"User-Agent": UA})

    reply = fake.handler(request).json()

    assert _shape(reply) == _shape(recorded)
    assert reply["query"]["categorymembers"][0] == {
        "pageid": fake.page_id("Sport"),
        "ns": 0,
        "title": "Sport",
    }


def test_client_sends_the_recorded_requests_plus_maxlag(fake, fake_time):
    client = make_client(fake, fake_time)
    client.category_members(CATEGORY)
    client.fetch_article("Sport")

    for request, name in zip(
        fake.requests,
        [
            "TestVcrWikiCategorymembers.test_categorymembers.json",
            "TestVcrWikiExtracts.test_extracts.json",
            "TestVcrPageInfoProps.test_fullurl.json",
        ],
        strict=True,
    ):
        recorded_url, _reply = _recorded(name)
        assert list(request.url.params) == [*recorded_url.params, "maxlag"]


# Over real HTTP


def test_client_against_the_fake_served_over_http(fake_time):
    fake = FakeMediaWiki(page_size=100)
    fake.fail_next("timeout")

    with FakeMediaWikiServer(fake, stall=0.3) as server:
        client = WikipediaClient(
            language="fr",
            api_url=server.url,
            user_agent=UA,
            min_interval=0.0,
            timeout=0.1,
            sleep=fake_time.sleep,
            clock=fake_time.clock,
        )
        try:
            members = client.category_members("Article de qualité")
            page = client.fetch_article("Algérie")
        finally:
            client.close()

    assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/w/api.php")
    assert members == list(piaf_articles())
    assert page.text == article_extract(piaf_articles()["Algérie"])
    assert page.url == "https://fr.wikipedia.org/wiki/Alg%C3%A9rie"
    assert fake_time.sleeps == [1.0]  # the time-out, retried once
    assert len(fake.requests) == 5  # time-out, 2 pages of members, extracts, info
    assert {r.url.host for r in fake.requests} == {"127.0.0.1"}
    assert all(r.headers["User-Agent"].startswith(UA) for r in fake.requests)
