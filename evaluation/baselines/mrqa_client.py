"""Ask a model served with the MRQA 2019 shared task's protocol for its answers.

The protocol is the task's `predict_server.py` and `baseline/serve.py`
(https://github.com/mrqa/MRQA-Shared-Task-2019; Fisch et al., "MRQA 2019 Shared Task:
Evaluating Generalization in Reading Comprehension", MRQA workshop 2019): the server listens
on a URL's root path; for each context line of an MRQA dataset (the header line skipped) the
client POSTs the line's JSON object, and the server answers with a JSON object
`{qid: answer}` for that context's questions. The task's script waited up to ten minutes for
the server to accept connections before the first request; `wait_until_up` does the same.

Every request goes through the egress policy (`core.egress`: the host's addresses are
checked, the connection goes to the address checked, no redirect is followed). Everything
that can go wrong is raised as one `PredictServerError`, whose message names the URL and the
kind of problem: refused by the egress policy, connection refused, timeout, a status other
than 200, a body that is not JSON, not an object of strings, or missing some of the
context's qids. It never quotes the reply's body (an admin could point the platform at an
internal service and read its answer in a run's error): the body goes to the server's log.

An empty string is a valid answer: on a SQuAD v2.0 release it says "no answer" (the official
v2.0 script's convention; MRQA itself has no unanswerable questions), and it is scored as
such. `null`, a number or a list is not an answer: the reply is refused, naming the qid.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx

from core import egress

logger = logging.getLogger(__name__)

TIMEOUT = 60.0  # seconds for one context's request
RETRIES = 2  # more tries after a connection error: a server may restart between contexts
RETRY_DELAY = 0.5  # seconds before the first retry, doubled before each next one
WAIT_SECONDS = 600.0  # the shared task's script waited ten minutes for its server
WAIT_INTERVAL = 1.0
ALLOWED_SCHEMES = frozenset({"http", "https"})
_RETRYABLE = (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError)


class PredictServerError(Exception):
    """The predict server could not be reached or answered outside the protocol."""

    def __init__(self, url: str, problem: str) -> None:
        super().__init__(f"predict server {url}: {problem}")
        self.url = url
        self.problem = problem


def predict_over_http(
    url: str,
    contexts: Iterable[dict[str, Any]],
    *,
    timeout: float = TIMEOUT,
    retries: int = RETRIES,
    withhold_answers: bool = False,
) -> dict[str, str]:
    """Return {qid: answer} for every question of the MRQA contexts, asking the server at url.

    A header object ({"header": ...}) among the contexts is skipped, as the shared task's
    script does. Each context is sent as it is, unless withhold_answers, which drops each
    question's "answers" and "detected_answers" first (the shared task sent them; a server
    run by someone else need not see them). Only the asked qids are kept from each reply.
    Raise PredictServerError on the first context that fails.
    """
    check_url(url)
    predictions: dict[str, str] = {}
    with _client(url, timeout) as http:
        for number, context in enumerate(_contexts(contexts), start=1):
            body = _without_answers(context) if withhold_answers else context
            reply = _post(http, url, body, timeout=timeout, retries=retries)
            predictions.update(_answers(url, reply, _qids(context), number))
    return predictions


def wait_until_up(
    url: str,
    seconds: float = WAIT_SECONDS,
    *,
    interval: float = WAIT_INTERVAL,
) -> None:
    """Return once the server at url answers HTTP at all; raise PredictServerError after seconds.

    Any response counts, even 405 for a GET on a POST-only route: the server is listening.
    """
    check_url(url)
    deadline = time.monotonic() + seconds
    with _client(url, interval) as http:
        while True:
            try:
                http.get(url, timeout=interval)
                return
            except httpx.TransportError as error:
                if time.monotonic() + interval > deadline:
                    raise PredictServerError(
                        url, f"not up after {seconds:g} s ({_describe(error, interval)})"
                    ) from error
            time.sleep(interval)


def check_url(url: str) -> None:
    """Raise PredictServerError unless url is an http or https URL with a host."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as error:
        raise PredictServerError(url, f"not a valid URL ({error})") from error
    if parsed.scheme not in ALLOWED_SCHEMES:
        scheme = parsed.scheme or "none"
        raise PredictServerError(url, f"only http and https URLs are allowed, not {scheme!r}")
    if not parsed.host:
        raise PredictServerError(url, "the URL has no host")


@contextmanager
def _client(url: str, timeout: float) -> Iterator[httpx.Client]:
    """Yield a client whose requests go through the egress policy; turn a refusal by the
    policy into a PredictServerError."""
    try:
        with egress.client(timeout=timeout) as own:
            yield own
    except egress.EgressRefused as refusal:
        logger.warning("predict server %s: %s (%s)", url, refusal, refusal.detail)
        raise PredictServerError(url, str(refusal)) from None


def _contexts(contexts: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield the context objects, leaving out a header line's object."""
    return (context for context in contexts if "header" not in context)


def _qids(context: dict[str, Any]) -> list[str]:
    """Return the qids of a context's questions, in order."""
    return [qa["qid"] for qa in context.get("qas", [])]


def _without_answers(context: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of the context whose questions hold no answers."""
    hidden = {"answers", "detected_answers"}
    qas = [{key: value for key, value in qa.items() if key not in hidden} for qa in context["qas"]]
    return {**context, "qas": qas}


def _post(
    http: httpx.Client, url: str, body: dict[str, Any], *, timeout: float, retries: int
) -> httpx.Response:
    """POST body as JSON, retrying connection errors; raise PredictServerError if it fails.

    A prediction changes nothing on the server, so sending a context again is safe.
    """
    delay = RETRY_DELAY
    for attempt in range(retries + 1):
        try:
            return http.post(url, json=body, timeout=timeout)
        except _RETRYABLE as error:
            if attempt == retries:
                raise PredictServerError(url, _describe(error, timeout)) from error
        except httpx.TransportError as error:
            raise PredictServerError(url, _describe(error, timeout)) from error
        time.sleep(delay)
        delay *= 2
    raise AssertionError("unreachable: the last attempt returns or raises")


def _describe(error: httpx.TransportError, timeout: float) -> str:
    """Return the kind of a transport error: refused, timed out, or which class of failure.

    Never its text: a service that does not speak HTTP (Redis, PostgreSQL) gets its first
    reply quoted in the parser's error, which would map and read internal services. The
    text goes to the log.
    """
    logger.warning("predict server transport error: %s: %s", type(error).__name__, error)
    if isinstance(error, httpx.TimeoutException):
        return f"timed out after {timeout:g} s ({type(error).__name__})"
    if isinstance(error, httpx.ConnectError) and "refused" in str(error).lower():
        return "connection refused"
    if isinstance(error, httpx.ConnectError):
        return "could not connect (ConnectError)"
    if isinstance(error, httpx.RemoteProtocolError | httpx.LocalProtocolError):
        return f"the reply is not HTTP ({type(error).__name__})"
    return f"the exchange failed ({type(error).__name__})"


def _answers(url: str, reply: httpx.Response, qids: list[str], number: int) -> dict[str, str]:
    """Return the reply's answers to qids, or raise PredictServerError naming what is wrong."""
    where = f"context {number}"
    if reply.status_code != 200:
        _log_body(url, reply, where)
        raise PredictServerError(url, f"{where}: answered HTTP {reply.status_code}, not 200")
    try:
        answers = json.loads(reply.content)
    except ValueError:
        _log_body(url, reply, where)
        raise PredictServerError(url, f"{where}: the reply is not JSON") from None
    _check_strings(url, answers, where)
    missing = [qid for qid in qids if qid not in answers]
    if missing:
        raise PredictServerError(url, f"{where}: no answer for qids {', '.join(missing)}")
    return {qid: answers[qid] for qid in qids}


def _check_strings(url: str, answers: Any, where: str) -> None:
    """Raise PredictServerError unless answers is a JSON object whose values are strings."""
    if not isinstance(answers, dict):
        kind = type(answers).__name__
        raise PredictServerError(url, f"{where}: the reply is not an object of strings ({kind})")
    for qid, answer in answers.items():
        if not isinstance(answer, str):
            kind = type(answer).__name__
            raise PredictServerError(
                url, f"{where}: the reply is not an object of strings (qid {qid}: {kind})"
            )


def _log_body(url: str, reply: httpx.Response, where: str, limit: int = 2000) -> None:
    """Write the start of a reply outside the protocol to the server's log, never to a page."""
    text = reply.text
    logger.warning(
        "predict server %s, %s: HTTP %s, body: %r",
        url,
        where,
        reply.status_code,
        text if len(text) <= limit else text[:limit] + "…",
    )
