"""Serve a fine-tuned QA checkpoint to the annotation page: loaded once, batched.

The worker side of the model in the loop (`evaluation.services.model_loop.ask` is the web side; the
whole
design is in docs/model-in-the-loop-scorer.md). A checkpoint is served by the task
`evaluation.tasks.gpu_model_serve_task`, on the `gpu` queue: the GPU machine's worker where
there is one, the CPU worker elsewhere. The task runs `model_serve`, a loop over Redis keys of
the checkpoint's location:

- `requests`: a list of JSON requests `{"id", "location", "context", "question", "sent",
  "timeout"}` that the web processes push;
- `reply:<id>`: one JSON reply per request, `{"text", "start"}` or `{"error"}`, that the web
  process waits for with BLPOP; it expires unread after `REPLY_SECONDS`;
- `alive`: who serves the location, with a time to live. A web process that pushes a request
  sets it to "queued" if it is absent (SET NX) and then sends the task; the loop takes it with
  its own token and refreshes it while it runs; a second task sent meanwhile finds another
  token there and returns at once;
- `stats`: counters (`batches`, `requests`, `dropped`, `errors`) that the tests and the
  benchmark read to see that concurrent questions share a forward pass.

The loop waits for a request, takes every other one waiting (up to MODEL_LOOP_BATCH_SIZE),
drops those older than their time-out (the page has already said "model unavailable"),
answers the rest with one prediction over all their windows, and stops after
MODEL_LOOP_SERVE_IDLE_SECONDS without a request, or at the worker's shutdown, so that the gpu
worker is free again for fine-tuning jobs.

The model stays loaded in the worker process between tasks (`LOADED`, at most `MAX_LOADED`
checkpoints). Loading reads safetensors only (`evaluation.baselines.checkpoints`); torch and
transformers are imported on the first load, so a worker without them imports this module.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import redis
from celery.worker import state as worker_state
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from evaluation.model_names import checkpoint_location

logger = logging.getLogger(__name__)

PREFIX = "model-loop"
POLL_SECONDS = 1.0  # how often the loop looks up from an empty list (shutdown, idle time)
ALIVE_SECONDS = 30  # the alive key outlives a stopped loop by at most this
QUEUED_SECONDS = 60  # a sent task that no worker has started yet holds the key this long
REPLY_SECONDS = 60  # an unread reply (its asker gave up) is deleted after this
REQUESTS_SECONDS = 300  # requests no loop ever takes are deleted after this
STATS_SECONDS = 86_400  # a location's counters are kept a day after its last batch
QUEUED = "queued"
SOCKET_SECONDS = 75  # longer than any wait: MODEL_LOOP_TIMEOUT_SECONDS is at most 60
CPU_THREADS = min(4, max(1, len(os.sched_getaffinity(0)) // 2))  # torch threads on the CPU
MAX_LOADED = 2  # checkpoints kept in a worker's memory; the oldest used is unloaded first

# Take the alive key when it is absent, "queued" by a web process, or ours already.
_TAKE = """
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[2] or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
  return 1
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

LOADED: OrderedDict[str, tuple[Any, Any, Any]] = OrderedDict()  # location: model, tokenizer, config
_LOADING = threading.Lock()


def location_key(location: str, name: str) -> str:
    """Return the Redis key `name` of a checkpoint location (a digest: paths may be long)."""
    digest = hashlib.sha256(location.encode()).hexdigest()[:32]
    return f"{PREFIX}:{digest}:{name}"


def reply_key(request_id: str) -> str:
    return f"{PREFIX}:reply:{request_id}"


def redis_client(url: str) -> redis.Redis:
    """Return a client of url for the loop's keys: blocking reads, and no command sent twice.

    redis-py retries a command after a time-out or a lost connection; a request pushed twice
    would be answered twice, a list popped twice loses requests. Its default socket time-out
    (5 s) would also cut a BLPOP that waits longer.
    """
    return redis.Redis.from_url(
        url,
        socket_connect_timeout=2,
        socket_timeout=SOCKET_SECONDS,
        retry=Retry(NoBackoff(), 0),
    )


def loaded(location: str):
    """Return (model, tokenizer, config) of the checkpoint at location, loading it once.

    Raise what loading raises: FileNotFoundError for a folder without a checkpoint, ImportError
    where torch or transformers is missing, OSError or ValueError for unreadable files.
    """
    with _LOADING:
        if location in LOADED:
            LOADED.move_to_end(location)
            return LOADED[location]
        # The gpu extra: torch and transformers, imported only where a checkpoint is served.
        from evaluation.baselines.checkpoints import load_checkpoint
        from evaluation.baselines.training import TrainConfig

        started = time.perf_counter()
        model, tokenizer = load_checkpoint(checkpoint_location(location))
        config = TrainConfig(eval_batch_size=64)  # CUDA when there is one, bf16 on it
        model.to(config.resolve_device()).eval()
        while len(LOADED) >= MAX_LOADED:
            LOADED.popitem(last=False)
        LOADED[location] = (model, tokenizer, config)
        logger.info("loaded %s in %.1f s", location, time.perf_counter() - started)
        return LOADED[location]


def predict_spans(location: str, pairs: Sequence[tuple[str, str]]) -> list[tuple[str, int | None]]:
    """Return the checkpoint's (answer, start) for each (context, question), in one prediction.

    All the pairs' windows go through the model together (`training.predict_with_spans`); the
    start is the answer's offset in its context in code points, None when no span fits.
    """
    from evaluation.baselines.training import predict_with_spans

    model, tokenizer, config = loaded(location)
    examples = [
        {"id": str(index), "context": context, "question": question}
        for index, (context, question) in enumerate(pairs)
    ]
    with _cpu_threads(config.resolve_device().type):
        spans = predict_with_spans(model, tokenizer, examples, config)
    return [(spans[str(index)][0], spans[str(index)][1]) for index in range(len(pairs))]


@contextmanager
def _cpu_threads(device_type: str) -> Iterator[None]:
    """Run torch on at most CPU_THREADS threads on the CPU, then give the worker its own back.

    One question's windows are too small to share well among many threads, and a thread
    that waits for a busy core holds up all the others: on a 2-core VM shared with other
    work, a BERT-mini answer took 13-143 ms at the median and 156-280 ms at p95 with 2
    threads, 20-25 ms and 33-54 ms with one. The count is restored for the next job.
    """
    if device_type != "cpu":
        yield
        return
    import torch  # loaded() has imported it already

    before = torch.get_num_threads()
    torch.set_num_threads(CPU_THREADS)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def model_serve(*, location: str) -> int:
    """Answer the page's questions on the checkpoint at location until idle; return how many.

    Returns at once (0) when another loop already serves the location.
    """
    loop = _Loop(redis_client(settings.REDIS_URL), location)
    if not loop.take():
        logger.info("%s is already served", location)
        return 0
    try:
        loaded(location)
    except Exception as error:  # whatever the reason, every waiting asker must hear it
        loop.fail(f"the checkpoint {location} could not be loaded: {_describe(error)}")
        return 0
    return loop.run(settings.MODEL_LOOP_SERVE_IDLE_SECONDS)


class _Loop:
    """One checkpoint's serve loop: the alive key, the requests list, the replies."""

    def __init__(self, client: redis.Redis, location: str) -> None:
        self.client, self.location = client, location
        self.token = uuid.uuid4().hex
        self.requests = location_key(location, "requests")
        self.alive = location_key(location, "alive")
        self.stats = location_key(location, "stats")
        self._take = client.register_script(_TAKE)
        self._release = client.register_script(_RELEASE)

    def take(self) -> bool:
        """Own the alive key (or refresh it) for ALIVE_SECONDS; False if another loop does."""
        return bool(self._take(keys=[self.alive], args=[self.token, QUEUED, ALIVE_SECONDS]))

    def release(self) -> None:
        self._release(keys=[self.alive], args=[self.token])

    def run(self, idle_seconds: float) -> int:
        answered = 0
        last = time.monotonic()
        while True:
            batch = self._next_batch()
            if batch:
                answered += self._answer(batch)
                last = time.monotonic()
            elif time.monotonic() - last >= idle_seconds or _shutting_down():
                # A question pushed while the key was still ours sent no task: look once more.
                self.release()
                if not self.client.llen(self.requests) or _shutting_down() or not self.take():
                    logger.info("%s: idle, answered %d questions", self.location, answered)
                    return answered
            self.take()

    def _next_batch(self) -> list[dict]:
        """Wait up to POLL_SECONDS for a request; return it with those waiting behind it."""
        first = self.client.blpop([self.requests], timeout=POLL_SECONDS)
        if first is None:
            return []
        more = self.client.lpop(self.requests, settings.MODEL_LOOP_BATCH_SIZE - 1) or []
        return [request for raw in [first[1], *more] if (request := _parse(raw)) is not None]

    def _answer(self, batch: list[dict]) -> int:
        now = time.time()
        fresh = [r for r in batch if now - r["sent"] <= r["timeout"]]
        counts = {"dropped": len(batch) - len(fresh)} if len(fresh) < len(batch) else {}
        if not fresh:
            self._reply([], [], counts)
            return 0
        try:
            spans = predict_spans(self.location, [(r["context"], r["question"]) for r in fresh])
        except Exception as error:  # a bad batch must not leave its askers without a word
            logger.exception("%s: prediction failed", self.location)
            replies = [{"error": f"the model failed: {_describe(error)}"}] * len(fresh)
            self._reply(fresh, replies, counts | {"errors": 1})
            return 0
        replies = [{"text": text, "start": start} for text, start in spans]
        self._reply(fresh, replies, counts | {"batches": 1, "requests": len(fresh)})
        return len(fresh)

    def _reply(self, requests: list[dict], replies: list[dict], counts: dict[str, int]) -> None:
        """Push the replies and add to the counters, in one transaction (counted when read)."""
        pipe = self.client.pipeline(transaction=True)
        for name, count in counts.items():
            pipe.hincrby(self.stats, name, count)
        if counts:
            pipe.expire(self.stats, STATS_SECONDS)
        for request, reply in zip(requests, replies, strict=True):
            key = reply_key(request["id"])
            pipe.rpush(key, json.dumps(reply))
            pipe.expire(key, REPLY_SECONDS)
        pipe.execute()

    def fail(self, message: str) -> None:
        """Answer every waiting request with the error, then give the location up."""
        logger.error("%s", message)
        waiting = self.client.lpop(self.requests, 10_000) or []
        requests = [request for raw in waiting if (request := _parse(raw)) is not None]
        self._reply(requests, [{"error": message}] * len(requests), {})
        self.release()


def _parse(raw: bytes) -> dict | None:
    """Return a request, or None (logged) for one that does not hold what the loop needs."""
    try:
        request = json.loads(raw)
        if not isinstance(request["id"], str) or not isinstance(request["context"], str):
            raise TypeError("id and context must be strings")
        if not isinstance(request["question"], str):
            raise TypeError("the question must be a string")
        request["sent"], request["timeout"] = float(request["sent"]), float(request["timeout"])
    except (ValueError, KeyError, TypeError) as error:
        logger.warning("a malformed model-loop request was dropped: %s", error)
        return None
    return request


def _shutting_down() -> bool:
    """Tell whether the worker was asked to stop (SIGTERM: warm shutdown, or cold).

    The flags hold the exit code once set, 0 for a clean stop: compared as Celery does.
    """
    flags = (worker_state.should_stop, worker_state.should_terminate)
    return any(flag is not None and flag is not False for flag in flags)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"
