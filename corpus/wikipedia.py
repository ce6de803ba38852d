"""Read Wikipedia through its MediaWiki API: a category's articles, and one article's text.

This is the only code of the platform that talks to Wikipedia. It is built on the
`wikipedia-api` package (0.16), which builds every request (`action=query`, `list=categorymembers`
with `cmlimit=500` and `cmcontinue` paging, `prop=extracts` with `explaintext=1` and
`exsectionformat=wiki`, `prop=info`) and parses every reply (missing pages, page ids, lists).

The package, bound to one API URL with our pacing and retries, is `corpus.mediawiki`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
import wikipediaapi
from django.conf import settings

from core.languages import languages, wiki_api_url
from corpus.mediawiki import MediaWiki, Pacer, WikipediaError

MAIN_NAMESPACE = wikipediaapi.Namespace.MAIN
# The local name of each wiki's Category namespace, from the registry of languages.
CATEGORY_PREFIXES = {entry.code: entry.wiki.category_prefix for entry in languages()}
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


class PageMissing(WikipediaError):
    """The article does not exist."""


class CategoryMissing(WikipediaError):
    """The category does not exist or holds no article."""


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
        self._wiki = MediaWiki(
            api_url=self.api_url,
            max_retries=max_retries,
            pacer=Pacer(min_interval=min_interval, sleep=sleep, clock=clock),
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
    default_url = wiki_api_url(settings.WIKIPEDIA_LANGUAGE)
    if "language" in overrides and "api_url" not in overrides and options["api_url"] == default_url:
        # Another language on the default address means that language's Wikipedia; an address
        # set on purpose (a mirror, a local server) is kept.
        language = str(overrides["language"] or "").strip().lower()
        if LANGUAGE_RE.match(language):
            options["api_url"] = wiki_api_url(language)
    options.update(overrides)
    if not str(options["user_agent"] or "").strip():
        raise WikipediaError(USER_AGENT_MISSING)
    return WikipediaClient(**options)
