"""wikipedia-api's client bound to one MediaWiki API URL, paced and retried our way.

What we configure, and what we had to wrap, to keep Wikimedia's API etiquette:

- `maxlag=5` goes on every request through the package's `extra_api_params`; the User-Agent
  through its `user_agent` (the package appends its own name to ours); the time-out, the httpx
  `transport` (tests pass an `httpx.MockTransport`) and `follow_redirects=False` go straight to
  the `httpx.Client` it creates.
- The package sends every request to `https://{language}.wikipedia.org/w/api.php`: `MediaWiki`
  overrides `_build_url` so that every request goes to the one configured, validated `api_url`.
  Titles only ever travel as query parameters, so nothing a user types can change the host, and
  redirects are refused rather than followed.
- Its retry machinery (tenacity inside `SyncHTTPClient._get`) does not fit: it sleeps with the real
  `time.sleep` (no injected clock), honours `Retry-After` on 429 only (not on 503), and takes a
  maxlag error (HTTP 200 with `{"error": {"code": "maxlag"}}`) for a success, which the parsers
  then fail on. It has no pacing between requests and no lock either. So the package runs with
  `max_retries=0`, and `MediaWiki` overrides `_get` (the single method all its requests go
  through) to add one lock, the minimum interval, and our retries around the package's own
  `_do_get`; `_process_response` is extended to classify 429/5xx and API errors first.
- `page.text` rebuilds the article from parsed sections and drops the `== … ==` heading marks;
  `_build_extracts` is extended to keep the raw extract as the API sent it.
"""

from __future__ import annotations

import email.utils
import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import httpx
import wikipediaapi

log = logging.getLogger(__name__)

MAXLAG_SECONDS = 5
BACKOFF_BASE_SECONDS = 1.0
# The longest pause between two attempts. A server asking for more is not waited for: the job
# fails (and can be resumed later) instead of holding a worker for an hour.
MAX_WAIT_SECONDS = 300.0
RETRYABLE_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRYABLE_API_ERRORS = frozenset({"maxlag", "ratelimited"})


class WikipediaError(Exception):
    """Wikipedia could not be read; the message says what failed and why."""


class _Transient(Exception):
    """A failure worth another attempt, once `retry_after` seconds (if given) have passed."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


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


class Pacer:
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


class MediaWiki(wikipediaapi.Wikipedia):
    """wikipedia-api's client, bound to one API URL, with our pacing and retry rules."""

    def __init__(self, *, api_url: str, pacer: Pacer, max_retries: int, **kwargs: Any) -> None:
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
