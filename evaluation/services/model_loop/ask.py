"""Ask a model one question about one paragraph, for the annotation page's model in the loop.

Three kinds of model (docs/model-in-the-loop-scorer.md):

- `lexical`: the sliding-window baseline (`evaluation.baselines.lexical`), in this process;
  the analysed paragraphs are kept in a small LRU, since an annotator rephrasing a question
  asks about the same paragraph again and again;
- `http`: a predict server speaking the MRQA protocol (`evaluation.baselines.mrqa_client`),
  sent one context with one question, answers withheld, once (no retry);
- `checkpoint`: a fine-tuned transformers checkpoint, served by a worker that keeps it loaded
  (`evaluation.services.model_loop.serving`), reached through Redis; without Redis (the embedded
  mode of
  `make run`) it is loaded and run in this process instead, one question at a time.

`ask` waits at most the time-out (MODEL_LOOP_TIMEOUT_SECONDS) and turns every failure of the
model into `ModelUnavailable`, whose message says what happened, for the logs. No torch here:
the web process may not have it (only the embedded mode's checkpoint path imports it).
"""

from __future__ import annotations

import gzip
import io
import json
import logging
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass

import httpx
import redis
from celery import current_app
from django.conf import settings

from evaluation.baselines import lexical
from evaluation.baselines.mrqa_client import PredictServerError, predict_over_http
from evaluation.services.model_loop import serving as model_serving
from exports.formats.mrqa import MrqaWriter, simple_tokenizer
from exports.formats.records import ExportArticle, ExportParagraph, ExportQuestion

logger = logging.getLogger(__name__)

KINDS = ("lexical", "checkpoint", "http")
SERVE_TASK = "evaluation.tasks.gpu_model_serve_task"
QID = "q"
PASSAGES_KEPT = 64  # analysed paragraphs in the lexical LRU: a few per annotator at work


@dataclass(frozen=True)
class ModelSpec:
    """Which model answers: its kind, where it is, and its name for people."""

    kind: str  # "lexical" | "checkpoint" | "http"
    location: str  # "" for lexical; a checkpoint folder; an http(s) URL
    label: str  # e.g. "lexical", "baseline run 12 · camembert", "host:port"


@dataclass(frozen=True)
class ModelReply:
    """The model's answer ("" for none), its start in the context (code points) and the time."""

    text: str
    start: int | None  # None when the answer is not found in the context
    milliseconds: int


class ModelUnavailable(Exception):
    """The model is down, too slow (time-out), or answered outside the protocol. str(e) says why
    in English (for logs); the page only says "model unavailable"."""


def ask(
    spec: ModelSpec, context: str, question: str, *, timeout: float | None = None
) -> ModelReply:
    """Return the model's answer to the question about the context, within the time-out.

    Raise ModelUnavailable, whatever the model did wrong: refused connection, time-out, a
    reply outside the protocol, a checkpoint that cannot be loaded, a crashed worker.
    """
    timeout = settings.MODEL_LOOP_TIMEOUT_SECONDS if timeout is None else timeout
    started = time.perf_counter()
    if spec.kind == "lexical":
        text, start = _ask_lexical(context, question)
    elif spec.kind == "http":
        text, start = _ask_http(spec.location, context, question, timeout)
    elif spec.kind == "checkpoint":
        text, start = _ask_checkpoint(spec.location, context, question, timeout)
    else:
        raise ModelUnavailable(f"unknown model kind {spec.kind!r} (expected one of {KINDS})")
    milliseconds = round((time.perf_counter() - started) * 1000)
    return ModelReply(text=text, start=start, milliseconds=milliseconds)


# --- lexical -------------------------------------------------------------------------------

_passages: OrderedDict[str, lexical.Passage] = OrderedDict()
_passages_lock = threading.Lock()


def lexical_passage(context: str) -> lexical.Passage:
    """Return the context analysed for the lexical baseline, from the LRU when it is there."""
    with _passages_lock:
        passage = _passages.get(context)
        if passage is not None:
            _passages.move_to_end(context)
            return passage
    passage = lexical.Passage(context)  # outside the lock: other askers need not wait
    with _passages_lock:
        _passages[context] = passage
        while len(_passages) > PASSAGES_KEPT:
            _passages.popitem(last=False)
    return passage


def _ask_lexical(context: str, question: str) -> tuple[str, int | None]:
    return lexical.predict_passage_span(lexical_passage(context), question)


# --- http ----------------------------------------------------------------------------------


def mrqa_context(context: str, question: str) -> dict:
    """Return the MRQA record of one context with one question (qid "q"), without answers.

    Written by the release writer itself, as baseline runs send theirs, but with its simple
    tokenizer rather than spaCy's: loading spaCy takes seconds, which the first question of
    each web process would wait on past any time-out (a predict server reads the context's
    text and offsets; the tokens only cut it into words).
    """
    paragraph = ExportParagraph(
        context=context, questions=[ExportQuestion(id=QID, question=question)]
    )
    buffer = io.BytesIO()
    writer = MrqaWriter(
        dataset="model-loop", split="eval", tokenize=simple_tokenizer, include_answers=False
    )
    writer.write([ExportArticle(title="", paragraphs=[paragraph])], buffer)
    lines = gzip.decompress(buffer.getvalue()).decode().splitlines()
    return json.loads(lines[1])


def _ask_http(url: str, context: str, question: str, timeout: float) -> tuple[str, int | None]:
    try:
        answers = predict_over_http(
            url,
            [mrqa_context(context, question)],
            timeout=timeout,
            retries=0,
            withhold_answers=True,
        )
    except PredictServerError as error:
        raise ModelUnavailable(str(error)) from error
    except httpx.HTTPError as error:  # what the client does not word itself (a bad URL…)
        raise ModelUnavailable(f"predict server {url}: {type(error).__name__}: {error}") from error
    text = answers[QID]
    position = context.find(text) if text else -1
    return text, position if position >= 0 else None


# --- checkpoint ----------------------------------------------------------------------------

_in_process_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}


def _ask_checkpoint(
    location: str, context: str, question: str, timeout: float
) -> tuple[str, int | None]:
    if not settings.REDIS_URL:
        return _ask_in_process(location, context, question, timeout)
    try:
        return _ask_served(_redis(settings.REDIS_URL), location, context, question, timeout)
    except redis.RedisError as error:
        raise ModelUnavailable(
            f"checkpoint {location}: Redis cannot be reached ({type(error).__name__}: {error})"
        ) from error


def _redis(url: str) -> redis.Redis:
    """Return this process's client of url (its connection pool is shared by threads)."""
    client = _clients.get(url)
    if client is None:
        client = _clients.setdefault(url, model_serving.redis_client(url))
    return client


def _ask_served(
    client: redis.Redis, location: str, context: str, question: str, timeout: float
) -> tuple[str, int | None]:
    """Push the request for the location's serve loop, start one if none is alive, wait."""
    request_id = uuid.uuid4().hex
    request = {
        "id": request_id,
        "location": location,
        "context": context,
        "question": question,
        "sent": time.time(),  # wall clock: the worker may be another machine
        "timeout": timeout,
    }
    requests_key = model_serving.location_key(location, "requests")
    pipe = client.pipeline()
    pipe.rpush(requests_key, json.dumps(request))
    pipe.expire(requests_key, model_serving.REQUESTS_SECONDS)
    pipe.execute()
    # Pushed first, then looked for a loop: a loop that stops looks at the list once more.
    alive_key = model_serving.location_key(location, "alive")
    if client.set(alive_key, model_serving.QUEUED, nx=True, ex=model_serving.QUEUED_SECONDS):
        _send_serve_task(client, alive_key, location)
    reply = client.blpop([model_serving.reply_key(request_id)], timeout=timeout)
    if reply is None:
        raise ModelUnavailable(f"checkpoint {location}: no answer within {timeout:g} s")
    return _served_answer(location, reply[1])


def _send_serve_task(client: redis.Redis, alive_key: str, location: str) -> None:
    try:
        current_app.send_task(SERVE_TASK, kwargs={"location": location}, retry=False)
    except Exception as error:  # any broker failure: the next question tries again
        client.delete(alive_key)
        raise ModelUnavailable(
            f"checkpoint {location}: the serve task could not be sent ({error})"
        ) from error
    logger.info("sent the serve task of %s", location)


def _served_answer(location: str, raw: bytes) -> tuple[str, int | None]:
    """Return (text, start) from a serve loop's reply; raise ModelUnavailable for an error."""
    try:
        reply = json.loads(raw)
    except ValueError:
        raise ModelUnavailable(f"checkpoint {location}: a reply that is not JSON") from None
    if not isinstance(reply, dict):
        raise ModelUnavailable(f"checkpoint {location}: a reply that is not an object")
    if "error" in reply:
        raise ModelUnavailable(f"checkpoint {location}: {reply['error']}")
    text, start = reply.get("text"), reply.get("start")
    if not isinstance(text, str) or not (start is None or isinstance(start, int)):
        raise ModelUnavailable(f"checkpoint {location}: a reply without a text and a start")
    return text, start


def _ask_in_process(
    location: str, context: str, question: str, timeout: float
) -> tuple[str, int | None]:
    """Load (once) and run the checkpoint here, one question at a time (no Redis, no worker).

    The time-out bounds the wait for another question's turn; the first question also waits
    for the checkpoint to load.
    """
    if not _in_process_lock.acquire(timeout=timeout):
        raise ModelUnavailable(f"checkpoint {location}: busy for more than {timeout:g} s")
    try:
        return model_serving.predict_spans(location, [(context, question)])[0]
    except Exception as error:  # a model's code may raise anything: the page goes on without it
        logger.warning("checkpoint %s failed in process: %s", location, error)
        raise ModelUnavailable(f"checkpoint {location}: {type(error).__name__}: {error}") from error
    finally:
        _in_process_lock.release()
