"""Read Wikipedia through its MediaWiki API: a category's articles, and one article's text.

This is the only code of the platform that talks to Wikipedia. It is built on the
`wikipedia-api` package (0.16), which builds every request (`action=query`, `list=categorymembers`
with `cmlimit=500` and `cmcontinue` paging, `prop=extracts` with `explaintext=1` and
`exsectionformat=wiki`, `prop=info`) and parses every reply (missing pages, page ids, lists).

What we configure, and what we had to wrap, to keep Wikimedia's API etiquette:

- `maxlag=5` goes on every request through the package's `extra_api_params`; the User-Agent
  through its `user_agent` (the package appends its own name to ours); the time-out, the httpx
  `transport` (tests pass an `httpx.MockTransport`) and `follow_redirects=False` go straight to
  the `httpx.Client` it creates.
- The package sends every request to `https://{language}.wikipedia.org/w/api.php`: `_MediaWiki`
  overrides `_build_url` so that every request goes to the one configured, validated `api_url`.
  Titles only ever travel as query parameters, so nothing a user types can change the host, and
  redirects are refused rather than followed.
- Its retry machinery (tenacity inside `SyncHTTPClient._get`) does not fit: it sleeps with the real
  `time.sleep` (no injected clock), honours `Retry-After` on 429 only (not on 503), and takes a
  maxlag error (HTTP 200 with `{"error": {"code": "maxlag"}}`) for a success, which the parsers
  then fail on. It has no pacing between requests and no lock either. So the package runs with
  `max_retries=0`, and `_MediaWiki` overrides `_get` (the single method all its requests go
  through) to add one lock, the minimum interval, and our retries around the package's own
  `_do_get`; `_process_response` is extended to classify 429/5xx and API errors first.
- `page.text` rebuilds the article from parsed sections and drops the `== … ==` heading marks;
  `_build_extracts` is extended to keep the raw extract as the API sent it.
"""

from __future__ import annotations

import email.utils
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
import wikipediaapi
from django.conf import settings

log = logging.getLogger(__name__)

MAXLAG_SECONDS = 5
BACKOFF_BASE_SECONDS = 1.0
# The longest pause between two attempts. A server asking for more is not waited for: the job
# fails (and can be resumed later) instead of holding a worker for an hour.
MAX_WAIT_SECONDS = 300.0
MAIN_NAMESPACE = wikipediaapi.Namespace.MAIN
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRYABLE_API_ERRORS = frozenset({"maxlag", "ratelimited"})
CATEGORY_PREFIXES = {
    "fr": "Catégorie",
    "en": "Category",
    "de": "Kategorie",
    "es": "Categoría",
    "it": "Categoria",
}
CANONICAL_CATEGORY_PREFIX = "Category"  # understood by every MediaWiki, whatever its language
USER_AGENT_MISSING = (
    "WIKIPEDIA_USER_AGENT is not set: Wikimedia asks for a descriptive user agent with a "
    "contact, e.g. 'qaplatform/1.0 (https://example.org; you@example.org)'"
)
LANGUAGE_RE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})*$")
# "|" separates titles in one request; control characters are never part of a title.
BAD_TITLE_RE = re.compile(r"[|\x00-\x1f\x7f]")


@dataclass(frozen=True)
class ArticlePage:
    """One article as fetched: its identity, its revision, and its plain text with headings."""

    title: str
    page_id: int
    revision_id: int
    url: str
    language: str
    text: str


class WikipediaError(Exception):
    """Wikipedia could not be read; the message says what failed and why."""


class PageMissing(WikipediaError):
    """The article does not exist."""


class CategoryMissing(WikipediaError):
    """The category does not exist or holds no article."""


class _Transient(Exception):
    """A failure worth another attempt, once `retry_after` seconds (if given) have passed."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def validate_api_url(api_url: str) -> str:
    """Return `api_url` if it is an http(s) URL with a host, else raise WikipediaError."""
    try:
        parts = urlsplit(api_url or "")
        host = parts.hostname
    except ValueError as error:
        raise WikipediaError(f"Wikipedia API URL {api_url!r} is not a valid URL: {error}") from None
    if parts.scheme not in ("http", "https"):
        raise WikipediaError(
            f"Wikipedia API URL {api_url!r} must start with https:// or http:// "
            "(e.g. https://fr.wikipedia.org/w/api.php)"
        )
    if not host:
        raise WikipediaError(f"Wikipedia API URL {api_url!r} has no host name")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise WikipediaError(
            f"Wikipedia API URL {api_url!r} must be a plain address: "
            "no user name, password, query string or fragment"
        )
    return api_url


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """Read a `Retry-After` header (seconds, or an HTTP date) as seconds; None if absent."""
    value = (headers.get("Retry-After") or "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _describe(params: dict[str, Any]) -> str:
    """Name a request for error messages: which query, about what."""
    module = params.get("list") or params.get("prop") or params.get("action")
    subject = params.get("titles") or params.get("cmtitle")
    return f"the {module} query for {subject!r}" if subject else f"the {module} query"


class _Pacer:
    """Let one request through at a time, at most one every `min_interval` seconds."""

    def __init__(self, *, min_interval: float, sleep: Callable, clock: Callable) -> None:
        self.lock = threading.Lock()
        self.sleep = sleep
        self._min_interval = min_interval
        self._clock = clock
        self._last_start: float | None = None

    def wait_turn(self) -> None:
        """Sleep until `min_interval` has passed since the previous request started."""
        if self._last_start is not None:
            delay = self._min_interval - (self._clock() - self._last_start)
            if delay > 0:
                self.sleep(delay)
        self._last_start = self._clock()


class _MediaWiki(wikipediaapi.Wikipedia):
    """wikipedia-api's client, bound to one API URL, with our pacing and retry rules."""

    def __init__(self, *, api_url: str, pacer: _Pacer, max_retries: int, **kwargs: Any) -> None:
        self._api_url = api_url
        self._pacer = pacer
        self._attempts = 1 + max_retries
        super().__init__(
            max_retries=0,
            extra_api_params={"maxlag": MAXLAG_SECONDS},
            follow_redirects=False,
            **kwargs,
        )

    def _build_url(self, language: str) -> str:
        # Never the package's per-language host: always the configured, validated URL.
        return self._api_url

    def _build_extracts(self, extract: Any, page: Any) -> str:
        if "extract" not in extract:
            raise WikipediaError(
                f"{self._api_url} sent no text for {extract.get('title')!r}: "
                "does this wiki have the TextExtracts extension?"
            )
        page._attributes["extract"] = extract["extract"]  # the raw text, headings included
        return super()._build_extracts(extract, page)

    def _process_response(self, r: httpx.Response, url: str) -> dict[str, Any]:
        if r.status_code in RETRYABLE_STATUSES:
            reason = f"HTTP {r.status_code} {r.reason_phrase}".strip()
            raise _Transient(reason, retry_after_seconds(r.headers))
        if r.is_redirect:
            raise WikipediaError(
                f"{url} answered HTTP {r.status_code}, a redirect to "
                f"{r.headers.get('Location')!r}; redirects are not followed: set "
                "WIKIPEDIA_API_URL to the final api.php address"
            )
        data = super()._process_response(r, url)
        error = data.get("error") if isinstance(data, dict) else None
        if error:
            code, info = error.get("code"), error.get("info")
            if code in RETRYABLE_API_ERRORS:
                raise _Transient(f"API error {code!r} ({info})", retry_after_seconds(r.headers))
            raise WikipediaError(f"{url} refused the request: API error {code!r}: {info}")
        return data

    def _get(self, language: str, params: dict[str, Any]) -> dict[str, Any]:
        url = self._build_url(language)
        with self._pacer.lock:
            for attempt in range(1, self._attempts + 1):
                self._pacer.wait_turn()
                try:
                    return self._attempt(url, params)
                except _Transient as failure:
                    last = failure
                if attempt < self._attempts:
                    self._back_off(attempt, last, url, params)
        raise WikipediaError(
            f"{_describe(params)} at {url} kept failing: {last.reason}, "
            f"{self._attempts} attempts in all (WIKIPEDIA_MAX_RETRIES={self._attempts - 1})"
        )

    def _attempt(self, url: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request through the package; turn its errors into ours."""
        try:
            return self._do_get(url, params)
        except wikipediaapi.WikiHttpTimeoutError:
            timeout = self._client.timeout.read
            raise _Transient(f"no answer within the {timeout:g}s time-out") from None
        except (wikipediaapi.WikiConnectionError, httpx.TransportError) as error:
            cause = error.__cause__ or error
            raise _Transient(f"network error ({type(cause).__name__}: {cause})") from None
        except wikipediaapi.WikiInvalidJsonError:
            raise WikipediaError(
                f"{url} answered {_describe(params)} with something that is not JSON: "
                "is WIKIPEDIA_API_URL the address of api.php?"
            ) from None
        except wikipediaapi.WikiHttpError as error:
            raise WikipediaError(
                f"{url} answered {_describe(params)} with HTTP {error.status_code}"
            ) from None

    def _back_off(self, attempt: int, failure: _Transient, url: str, params: dict) -> None:
        """Wait before the next attempt: exponential back-off, at least Retry-After."""
        wait = min(BACKOFF_BASE_SECONDS * 2 ** (attempt - 1), MAX_WAIT_SECONDS)
        if failure.retry_after is not None:
            if failure.retry_after > MAX_WAIT_SECONDS:
                raise WikipediaError(
                    f"{_describe(params)} at {url} failed ({failure.reason}) and the server asks "
                    f"to wait {failure.retry_after:g}s, more than {MAX_WAIT_SECONDS:g}s: "
                    "try again later"
                )
            wait = max(wait, failure.retry_after)
        log.warning(
            "%s at %s failed (%s); retrying in %gs", _describe(params), url, failure.reason, wait
        )
        self._pacer.sleep(wait)


def _checked_title(title: str) -> str:
    name = (title or "").strip()
    if not name or BAD_TITLE_RE.search(name):
        raise WikipediaError(f"{title!r} is not a valid page title")
    return name


def _attribute(page: Any, name: str, api_url: str) -> Any:
    # Read the parsed reply directly: the package's properties would send another request
    # when a field is absent.
    value = page._attributes.get(name)
    if value in (None, ""):
        raise WikipediaError(f"{api_url} sent no {name} for {page.title!r}")
    return value


class WikipediaClient:
    """List a category's articles and fetch articles, politely, from one MediaWiki API."""

    def __init__(
        self,
        *,
        language: str,
        api_url: str,
        user_agent: str,
        min_interval: float = 1.0,
        timeout: float = 30.0,
        max_retries: int = 5,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], Any] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.language = (language or "").strip().lower()
        if not LANGUAGE_RE.match(self.language):
            raise WikipediaError(f"{language!r} is not a Wikipedia language code (e.g. 'fr')")
        if not (user_agent or "").strip():
            raise WikipediaError(USER_AGENT_MISSING)
        if min_interval < 0 or timeout <= 0 or max_retries < 0:
            raise WikipediaError(
                "min_interval must be >= 0, timeout > 0 and max_retries >= 0 "
                f"(got {min_interval}, {timeout}, {max_retries})"
            )
        self.api_url = validate_api_url(api_url)
        options: dict[str, Any] = {"timeout": timeout}
        if transport is not None:
            options["transport"] = transport
        self._wiki = _MediaWiki(
            api_url=self.api_url,
            max_retries=max_retries,
            pacer=_Pacer(min_interval=min_interval, sleep=sleep, clock=clock),
            user_agent=user_agent.strip(),
            language=self.language,
            **options,
        )

    def category_title(self, category: str) -> str:
        """Return the category's full title, adding this wiki's namespace prefix if absent."""
        name = _checked_title(category)
        local = CATEGORY_PREFIXES.get(self.language, CANONICAL_CATEGORY_PREFIX)
        prefix, sep, rest = name.partition(":")
        if sep and prefix.strip().casefold() in {local.casefold(), "category"} and rest.strip():
            return f"{local}:{rest.strip()}"
        return f"{local}:{name}"

    def category_members(self, category: str) -> list[str]:
        """Return the titles of the category's articles (namespace 0), in the API's order."""
        title = self.category_title(category)
        page = self._wiki.page(title, ns=wikipediaapi.Namespace.CATEGORY)
        with self._understood_reply():
            members = self._wiki.categorymembers(page)
        titles = [name for name, member in members.items() if member.ns == MAIN_NAMESPACE]
        if not titles:
            raise CategoryMissing(
                f"category {title!r} at {self.api_url} does not exist or holds no article"
            )
        return titles

    def fetch_article(self, title: str) -> ArticlePage:
        """Fetch an article's plain text (with `== … ==` headings), ids and canonical URL."""
        page = self._wiki.page(_checked_title(title))
        with self._understood_reply():
            self._wiki.extracts(page)
            self._raise_if_missing(page, title)
            self._wiki.info(page)
            self._raise_if_missing(page, title)
        return ArticlePage(
            title=page.title,
            page_id=int(_attribute(page, "pageid", self.api_url)),
            revision_id=int(_attribute(page, "lastrevid", self.api_url)),
            url=str(_attribute(page, "fullurl", self.api_url)),
            language=self.language,
            text=page._attributes.get("extract", ""),
        )

    def close(self) -> None:
        """Close the HTTP connections (the client is unusable afterwards)."""
        self._wiki._client.close()

    @contextmanager
    def _understood_reply(self) -> Iterator[None]:
        """Turn a reply of an unexpected shape (the package's KeyError...) into WikipediaError."""
        try:
            yield
        except (KeyError, TypeError, AttributeError) as error:
            raise WikipediaError(
                f"{self.api_url} sent a reply this client does not understand "
                f"({type(error).__name__}: {error}): is it a MediaWiki api.php?"
            ) from error

    def _raise_if_missing(self, page: Any, title: str) -> None:
        if int(page._attributes.get("pageid", -1)) < 0:
            raise PageMissing(f"no article titled {title!r} at {self.api_url}")


def client_from_settings(**overrides: Any) -> WikipediaClient:
    """Build the client from the WIKIPEDIA_* settings; keyword arguments replace any of them."""

    options: dict[str, Any] = {
        "language": settings.WIKIPEDIA_LANGUAGE,
        "api_url": settings.WIKIPEDIA_API_URL,
        "user_agent": settings.WIKIPEDIA_USER_AGENT,
        "min_interval": float(settings.WIKIPEDIA_MIN_INTERVAL),
        "timeout": float(settings.WIKIPEDIA_TIMEOUT),
        "max_retries": int(settings.WIKIPEDIA_MAX_RETRIES),
    }
    default_url = f"https://{settings.WIKIPEDIA_LANGUAGE}.wikipedia.org/w/api.php"
    if "language" in overrides and "api_url" not in overrides and options["api_url"] == default_url:
        # Another language on the default address means that language's Wikipedia; an address
        # set on purpose (a mirror, a local server) is kept.
        language = str(overrides["language"] or "").strip().lower()
        if LANGUAGE_RE.match(language):
            options["api_url"] = f"https://{language}.wikipedia.org/w/api.php"
    options.update(overrides)
    if not str(options["user_agent"] or "").strip():
        raise WikipediaError(USER_AGENT_MISSING)
    return WikipediaClient(**options)
