"""A fake French Wikipedia API for tests, built from the real PIAF paragraphs.

It answers the requests that `wikipedia-api` sends (`list=categorymembers`, `prop=extracts`,
`prop=info`) in the exact JSON shape of the recorded replies in
`shared/data/mediawiki-api/*.json`, and can be told to fail first (maxlag, 429, 503, time-out).
Use it in process through `httpx.MockTransport(fake.handler)`, or over real HTTP on 127.0.0.1
with `FakeMediaWikiServer` when another process (a worker, a management command) must reach it.
"""

from __future__ import annotations

import functools
import json
import threading
import time
import zlib
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import httpx

from core.languages import languages
from tests.needs import PIAF, require_file

PIAF_PATH = PIAF
API_PATH = "/w/api.php"
SITE = "https://fr.wikipedia.org"
SECTION_TITLES = ("Histoire", "Description")
SUBSECTION_TITLE = "Détails"
LAST_SECTION = "Notes et références"
TOUCHED = "2024-05-01T12:00:00Z"
SERVED_BY = "mw-api-ext.fake"
API_NOTICE = (
    "See https://fr.wikipedia.org/w/api.php for API usage. Subscribe to the mediawiki-api-announce "
    "mailing list at &lt;https://lists.wikimedia.org/postorius/lists/"
    "mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking "
    "changes."
)
MAIN_WARNING = (
    "Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/"
    "lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and "
    "breaking changes. Use [[Special:ApiFeatureUsage]] to see usage of deprecated features by "
    "your application."
)
NAMESPACES = {
    "Discussion": 1,
    "Utilisateur": 2,
    "User": 2,
    "Wikipédia": 4,
    "Fichier": 6,
    "File": 6,
    "Modèle": 10,
    "Template": 10,
    "Aide": 12,
    "Catégorie": 14,
    "Category": 14,
    "Portail": 100,
    "Projet": 102,
}
# French and canonical, and every other wiki's local name, so that a test may stand this wiki
# in for another language's (the registry of languages holds the names).
CATEGORY_PREFIXES = ("Catégorie", "Category", *(e.wiki.category_prefix for e in languages()))
# Wikimedia refuses generic client user agents (User-Agent policy).
GENERIC_AGENTS = ("python-httpx/", "python-urllib/", "python-requests/")
JSON_TYPE = "application/json; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"


@functools.cache
def _load_piaf() -> dict[str, list[str]] | None:
    if not PIAF_PATH.is_file():
        return None
    data = json.loads(PIAF_PATH.read_text(encoding="utf-8"))
    return {a["title"]: [p["context"] for p in a["paragraphs"]] for a in data["data"]}


def piaf_articles() -> dict[str, list[str]]:
    """Return PIAF v1.0 as {article title: its paragraphs}, in the file's order."""
    articles = _load_piaf()
    if articles is None:
        require_file(PIAF_PATH, "the shared test data sits beside the project's checkout")
    return {title: list(contexts) for title, contexts in articles.items()}  # callers may edit


def article_extract(contexts: list[str]) -> str:
    """Build an extract the way TextExtracts writes one (exsectionformat=wiki).

    The first paragraph is the introduction; the others go, one per line, under two sections
    (the second with a `=== Détails ===` sub-section when it has two paragraphs or more); a last,
    empty "Notes et références" section ends the text, as on real pages.
    """
    intro, rest = (contexts[0] if contexts else ""), list(contexts[1:])
    half = (len(rest) + 1) // 2
    blocks = [intro]
    if rest[:half]:
        blocks.append(f"== {SECTION_TITLES[0]} ==\n" + "\n".join(rest[:half]))
    second = rest[half:]
    if len(second) >= 2:
        blocks.append(f"== {SECTION_TITLES[1]} ==\n" + "\n".join(second[:-1]))
        blocks.append(f"=== {SUBSECTION_TITLE} ===\n{second[-1]}")
    elif second:
        blocks.append(f"== {SECTION_TITLES[1]} ==\n{second[0]}")
    blocks.append(f"== {LAST_SECTION} ==")
    return "\n\n\n".join(blocks)


def normalize_title(title: str) -> str:
    """MediaWiki's title normalisation: underscores are spaces, the first letter is upper-case."""
    name = " ".join(title.replace("_", " ").split())
    return name[:1].upper() + name[1:]


def namespace_of(title: str) -> int:
    prefix, sep, _rest = title.partition(":")
    return NAMESPACES.get(prefix, 0) if sep else 0


def wiki_url(title: str) -> str:
    """The canonical URL of a page, encoded the way MediaWiki's wfUrlencode does."""
    return f"{SITE}/wiki/" + quote(title.replace(" ", "_"), safe=";@$!*(),/~:")


def _category_key(title: str) -> str | None:
    prefix, sep, rest = title.partition(":")
    if not sep or prefix.strip().capitalize() not in CATEGORY_PREFIXES:
        return None
    return normalize_title(rest)


@dataclass(frozen=True)
class Failure:
    """A scripted failure: "timeout", an API error code ("maxlag"), or an HTTP status."""

    kind: str | int
    retry_after: float | None = None


def _header_seconds(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else str(seconds)


def _json(body: dict, status: int = 200, headers: dict | None = None) -> httpx.Response:
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    return httpx.Response(
        status, content=content, headers={"content-type": JSON_TYPE, **(headers or {})}
    )


def api_error(code: str, info: str, headers: dict | None = None, **extra) -> httpx.Response:
    """An API error as MediaWiki sends it: HTTP 200, a JSON `error`, a MediaWiki-API-Error header."""
    body = {"error": {"code": code, "info": info, **extra, "*": API_NOTICE}, "servedby": SERVED_BY}
    return _json(body, headers={"MediaWiki-API-Error": code, **(headers or {})})


class FakeMediaWiki:
    """French Wikipedia's api.php, in memory: a category, its members, and pages."""

    def __init__(
        self,
        pages: dict[str, str] | None = None,
        category: str = "Catégorie:Article de qualité",
        members: list[str] | None = None,
        page_size: int = 500,
    ) -> None:
        if pages is None:
            pages = {title: article_extract(ctx) for title, ctx in piaf_articles().items()}
        self.pages = {normalize_title(title): text for title, text in pages.items()}
        self.category = category
        self.members = list(pages) if members is None else list(members)
        self.page_size = page_size
        self.requests: list[httpx.Request] = []
        self.failures: list[Failure] = []
        self._lock = threading.Lock()

    # What tests script and assert on.

    def fail_next(self, kind: str | int, retry_after: float | None = None, times: int = 1) -> None:
        """Fail the next `times` requests: "timeout", an API error code, or an HTTP status."""
        with self._lock:
            self.failures.extend([Failure(kind, retry_after)] * times)

    def page_id(self, title: str) -> int:
        return 1_000 + zlib.crc32(normalize_title(title).encode()) % 90_000_000

    def revision_id(self, title: str) -> int:
        text = self.pages.get(normalize_title(title), "")
        return 200_000_000 + zlib.crc32(f"{title}\n{text}".encode()) % 90_000_000

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handler)

    # The API.

    def handler(self, request: httpx.Request) -> httpx.Response:
        with self._lock:
            self.requests.append(request)
            failure = self.failures.pop(0) if self.failures else None
        if failure is not None:
            return self._fail(request, failure)
        if request.url.path != API_PATH:
            return httpx.Response(
                404, text=f"Not Found: {request.url.path}", headers={"content-type": HTML_TYPE}
            )
        agent = request.headers.get("User-Agent", "")
        if not agent or agent.lower().startswith(GENERIC_AGENTS):
            return httpx.Response(
                403,
                text="Please set a user-agent and respect our robot policy https://w.wiki/4wJS.",
                headers={"content-type": HTML_TYPE},
            )
        return self._query(request.url.params)

    def _query(self, params: httpx.QueryParams) -> httpx.Response:
        if params.get("action") != "query":
            return api_error(
                "badvalue", f'Unrecognized value for parameter "action": {params.get("action")}.'
            )
        if params.get("format") != "json":
            return api_error("fake-unsupported", "FakeMediaWiki only answers format=json.")
        if params.get("list") == "categorymembers":
            return self._categorymembers(params)
        if params.get("prop") == "extracts":
            return self._pages(params, self._extract_entry)
        if params.get("prop") == "info":
            return self._pages(params, self._info_entry, warnings=self._info_warnings(params))
        return api_error(
            "fake-unsupported", f"FakeMediaWiki does not answer this query: {dict(params)}"
        )

    def _fail(self, request: httpx.Request, failure: Failure) -> httpx.Response:
        headers = {}
        if failure.retry_after is not None:
            headers["Retry-After"] = _header_seconds(failure.retry_after)
        if failure.kind == "timeout":
            raise httpx.ReadTimeout("timed out (scripted by FakeMediaWiki)", request=request)
        if failure.kind == "maxlag":
            lag = 5 if failure.retry_after is None else failure.retry_after
            seconds = _header_seconds(lag)
            return api_error(
                "maxlag",
                f"Waiting for 10.64.48.35: {seconds} seconds lagged.",
                headers={"Retry-After": seconds, "X-Database-Lag": seconds},
                host="10.64.48.35",
                lag=lag,
                type="db",
            )
        if isinstance(failure.kind, str):
            return api_error(failure.kind, f"Scripted API error {failure.kind!r}.", headers)
        text = f"<!DOCTYPE html><title>Wikimedia Error</title><p>HTTP {failure.kind}</p>"
        return httpx.Response(
            failure.kind, text=text, headers={"content-type": HTML_TYPE, **headers}
        )

    def _categorymembers(self, params: httpx.QueryParams) -> httpx.Response:
        key = _category_key(params.get("cmtitle", ""))
        if key is None:
            return api_error("invalidcategory", "The category name you entered is not valid.")
        members = self.members if key == _category_key(self.category) else []
        limit = self._limit(params.get("cmlimit", "10"))
        start = self._continue_offset(params.get("cmcontinue"), members)
        if start is None:
            return api_error(
                "badcontinue",
                "Invalid continue param. You should pass the original "
                "value returned by the previous query.",
            )
        body: dict = {"batchcomplete": ""}
        if start + limit < len(members):
            body["continue"] = {
                "cmcontinue": self._continue_token(start + limit, members),
                "continue": "-||",
            }
        chunk = members[start : start + limit]
        body["query"] = {
            "categorymembers": [
                {"pageid": self.page_id(t), "ns": namespace_of(t), "title": t} for t in chunk
            ]
        }
        return _json(body)

    def _limit(self, value: str) -> int:
        limit = 500 if value == "max" else max(1, min(int(value), 500))
        return min(limit, self.page_size)

    def _continue_token(self, offset: int, members: list[str]) -> str:
        return f"page|{offset:08X}|{self.page_id(members[offset])}"

    def _continue_offset(self, token: str | None, members: list[str]) -> int | None:
        if token is None:
            return 0
        try:
            offset = int(token.split("|")[1], 16)
        except (IndexError, ValueError):
            return None
        valid = 0 < offset < len(members) and token == self._continue_token(offset, members)
        return offset if valid else None

    def _pages(self, params: httpx.QueryParams, entry, warnings: dict | None = None):
        asked = [t for t in params.get("titles", "").split("|") if t]
        normalized = [
            {"from": t, "to": normalize_title(t)} for t in asked if normalize_title(t) != t
        ]
        pages, missing = {}, 0
        for title in dict.fromkeys(normalize_title(t) for t in asked):
            if title in self.pages:
                pages[str(self.page_id(title))] = entry(title)
            else:
                missing -= 1
                pages[str(missing)] = {**entry(title, missing=True)}
        body: dict = {"batchcomplete": ""}
        if warnings:
            body["warnings"] = warnings
        body["query"] = {**({"normalized": normalized} if normalized else {}), "pages": pages}
        return _json(body)

    def _extract_entry(self, title: str, missing: bool = False) -> dict:
        if missing:
            return {"ns": namespace_of(title), "title": title, "missing": ""}
        return {
            "pageid": self.page_id(title),
            "ns": 0,
            "title": title,
            "extract": self.pages[title],
        }

    def _info_entry(self, title: str, missing: bool = False) -> dict:
        head = (
            {"ns": namespace_of(title), "title": title, "missing": ""}
            if missing
            else {"pageid": self.page_id(title), "ns": 0, "title": title}
        )
        entry = {
            **head,
            "contentmodel": "wikitext",
            "pagelanguage": "fr",
            "pagelanguagehtmlcode": "fr",
            "pagelanguagedir": "ltr",
        }
        if not missing:
            text = self.pages[title]
            entry |= {
                "touched": TOUCHED,
                "lastrevid": self.revision_id(title),
                "length": len(text.encode()),
                "protection": [],
                "restrictiontypes": ["edit", "move"],
                "watchers": 30 + self.page_id(title) % 300,
                "visitingwatchers": self.page_id(title) % 30,
                "notificationtimestamp": "",
                "talkid": self.page_id(f"Discussion:{title}"),
            }
        else:
            entry |= {"protection": [], "restrictiontypes": ["create"], "notificationtimestamp": ""}
        url = wiki_url(title)
        entry |= {
            "fullurl": url,
            "editurl": f"{SITE}/w/index.php?title={url.rsplit('/', 1)[1]}&action=edit",
            "canonicalurl": url,
            "readable": "",
            "preload": None if missing else "",
            "displaytitle": title,
        }
        if not missing:
            entry["varianttitles"] = {"fr": title}
        return entry

    @staticmethod
    def _info_warnings(params: httpx.QueryParams) -> dict:
        props = params.get("inprop", "").split("|")
        deprecated = [p for p in ("readable", "preload") if p in props]
        warnings: dict = {"main": {"*": MAIN_WARNING}}
        if deprecated:
            warnings["info"] = {
                "*": "\n".join(
                    f'The value "{p}" to parameter "inprop" has been deprecated.'
                    for p in deprecated
                )
            }
        return warnings


class FakeMediaWikiServer:
    """Serve a FakeMediaWiki over HTTP on 127.0.0.1 (a free port), in a background thread.

    A scripted "timeout" holds the request for `stall` seconds and then drops the connection,
    so give the client a shorter time-out than that.
    """

    def __init__(self, fake: FakeMediaWiki, stall: float = 1.0) -> None:
        self.fake = fake
        self.stall = stall
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}{API_PATH}"
        self._thread: threading.Thread | None = None

    def __enter__(self) -> FakeMediaWikiServer:
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name="fake-mediawiki", daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                request = httpx.Request(
                    "GET",
                    f"http://{self.headers.get('Host')}{self.path}",
                    headers=list(self.headers.items()),
                )
                try:
                    response = server.fake.handler(request)
                except httpx.TimeoutException:
                    time.sleep(server.stall)
                    self.close_connection = True
                    return
                self._send(response)

            def _send(self, response: httpx.Response) -> None:
                body = response.content
                self.send_response(response.status_code)
                for name, value in response.headers.items():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format, *args) -> None:
                pass

        return Handler
