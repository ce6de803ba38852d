"""A checkpoint served to the annotation page by a real worker (evaluation/services/model_loop/serving.py):
a tiny BERT trained in the test, saved, then asked through Redis (`evaluation.services.model_loop.ask.ask`)
while a real Celery worker on every queue runs the serve loop against the test database."""

import json
import math
import threading
import time
import uuid

import pytest
import redis
from django.conf import settings

from evaluation.baselines.features import postprocess_with_null, postprocess_with_spans
from evaluation.services.model_loop import ask as model_loop
from evaluation.services.model_loop import serving as model_serving
from evaluation.services.model_loop.ask import ModelSpec, ModelUnavailable, ask
from tests.evaluation.test_model_loop import CONTEXT, QUESTION, trained_zola_checkpoint
from tests.needs import require_service
from tests.services import wait_until

pytestmark = pytest.mark.usefixtures("models_under_basetemp")

IDLE_SECONDS = 3  # the worker's serve loop stops after this long without a question
# The idle test reads the loop's token right after its answer: a loop that stops 3 s later
# was sometimes gone already on a loaded 2-core machine (the test process starved that long).
LONGER_IDLE_SECONDS = 10
FIRST_TIMEOUT = 60.0  # the first question waits for the worker to import torch and load


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """(folder, {question: (text, start)} as the model predicts in this process)."""
    return trained_zola_checkpoint(tmp_path_factory.mktemp("served") / "zola")


@pytest.fixture
def redis_client():
    if not settings.REDIS_URL:
        require_service("REDIS_URL is not set: the checkpoint is served through Redis")
    return redis.Redis.from_url(settings.REDIS_URL)


@pytest.fixture
def serving_worker(redis_worker_factory, models_under_basetemp):
    return redis_worker_factory(
        MODEL_LOOP_SERVE_IDLE_SECONDS=str(IDLE_SECONDS), MODELS_DIR=str(models_under_basetemp)
    )


@pytest.fixture
def slow_to_idle_worker(redis_worker_factory, models_under_basetemp):
    return redis_worker_factory(
        MODEL_LOOP_SERVE_IDLE_SECONDS=str(LONGER_IDLE_SECONDS),
        MODELS_DIR=str(models_under_basetemp),
    )


def spec_of(folder) -> ModelSpec:
    return ModelSpec(kind="checkpoint", location=str(folder), label="tiny")


def stats(client, location) -> dict[str, int]:
    raw = client.hgetall(model_serving.location_key(str(location), "stats"))
    return {key.decode(): int(value) for key, value in raw.items()}


def fresh_location(client, folder) -> None:
    """Forget what an earlier run left in Redis for this checkpoint (the folder is reused)."""
    client.delete(
        *(model_serving.location_key(str(folder), name) for name in ("requests", "alive", "stats"))
    )


def test_a_served_checkpoint_answers_as_it_does_in_process_and_batches(
    checkpoint, serving_worker, redis_client
):
    folder, expected = checkpoint
    fresh_location(redis_client, folder)
    spec = spec_of(folder)

    first = ask(spec, CONTEXT, QUESTION, timeout=FIRST_TIMEOUT)

    assert (first.text, first.start) == expected[QUESTION] == ("Médan-sur-Seine", 102)
    assert stats(redis_client, folder) == {"batches": 1, "requests": 1}

    # 8 annotators at once: their questions share forward passes.
    questions = [*expected] * 3  # 9 questions, 3 distinct
    replies: dict[int, tuple] = {}
    barrier = threading.Barrier(len(questions))

    def asker(index: int) -> None:
        barrier.wait()
        reply = ask(spec, CONTEXT, questions[index], timeout=20.0)
        replies[index] = (reply.text, reply.start)

    threads = [threading.Thread(target=asker, args=(i,)) for i in range(len(questions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert replies == {i: expected[q] for i, q in enumerate(questions)}
    counters = stats(redis_client, folder)
    assert counters["requests"] == 1 + len(questions)
    assert counters["batches"] - 1 < len(questions)  # fewer forward passes than questions
    assert set(counters) == {"batches", "requests"}  # nothing dropped, no error


def test_the_serve_loop_stops_when_idle_and_the_next_question_starts_another(
    checkpoint, slow_to_idle_worker, redis_client
):
    folder, expected = checkpoint
    fresh_location(redis_client, folder)
    spec = spec_of(folder)
    alive = model_serving.location_key(str(folder), "alive")
    ask(spec, CONTEXT, QUESTION, timeout=FIRST_TIMEOUT)
    assert redis_client.get(alive) not in (None, b"queued")  # the loop's own token

    stopped = wait_until(lambda: redis_client.get(alive), lambda v: v is None)
    assert stopped is None

    reply = ask(spec, CONTEXT, QUESTION, timeout=FIRST_TIMEOUT)
    assert (reply.text, reply.start) == expected[QUESTION]
    assert stats(redis_client, folder) == {"batches": 2, "requests": 2}


def test_a_question_that_waited_past_its_time_out_is_dropped_unanswered(
    checkpoint, serving_worker, redis_client
):
    folder, expected = checkpoint
    fresh_location(redis_client, folder)
    stale_id = uuid.uuid4().hex
    stale = {
        "id": stale_id,
        "location": str(folder),
        "context": CONTEXT,
        "question": QUESTION,
        "sent": time.time() - 10,
        "timeout": 3.0,
    }
    redis_client.rpush(model_serving.location_key(str(folder), "requests"), json.dumps(stale))

    reply = ask(spec_of(folder), CONTEXT, QUESTION, timeout=FIRST_TIMEOUT)

    assert (reply.text, reply.start) == expected[QUESTION]
    assert stats(redis_client, folder) == {"dropped": 1, "batches": 1, "requests": 1}
    assert redis_client.exists(model_serving.reply_key(stale_id)) == 0


def test_a_missing_checkpoint_is_unavailable_with_the_reason(tmp_path, serving_worker):
    location = tmp_path / "no-such-run"

    with pytest.raises(ModelUnavailable) as error:
        ask(spec_of(location), CONTEXT, QUESTION, timeout=FIRST_TIMEOUT)

    assert str(error.value) == (
        f"checkpoint {location}: the checkpoint {location} could not be loaded: "
        f"FileNotFoundError: no checkpoint in {location} (config.json is missing)"
    )
    client = redis.Redis.from_url(settings.REDIS_URL)
    assert client.get(model_serving.location_key(str(location), "alive")) is None


def test_only_the_first_question_sends_the_serve_task(sent_tasks, redis_client, tmp_path):
    location = str(tmp_path / "ckpt")

    for _ in range(3):
        with pytest.raises(ModelUnavailable, match=r"no answer within 0\.1 s"):
            ask(spec_of(location), CONTEXT, QUESTION, timeout=0.1)

    assert sent_tasks.calls == [
        (model_loop.SERVE_TASK, {"kwargs": {"location": location}, "retry": False})
    ]
    assert redis_client.get(model_serving.location_key(location, "alive")) == b"queued"
    assert redis_client.llen(model_serving.location_key(location, "requests")) == 3


def test_a_second_serve_task_leaves_the_location_to_the_loop_that_serves_it(redis_client, tmp_path):
    location = str(tmp_path / "ckpt")
    alive = model_serving.location_key(location, "alive")
    redis_client.set(alive, "another-loop", ex=30)

    started = time.monotonic()
    assert model_serving.model_serve(location=location) == 0

    assert time.monotonic() - started < 1.0
    assert redis_client.get(alive) == b"another-loop"


def test_a_checkpoint_that_fails_to_load_answers_every_waiting_question(redis_client, tmp_path):
    location = str(tmp_path / "empty")
    requests = model_serving.location_key(location, "requests")
    ids = [uuid.uuid4().hex for _ in range(3)]
    for request_id in ids:
        request = {"id": request_id, "context": CONTEXT, "question": QUESTION}
        redis_client.rpush(requests, json.dumps(request | {"sent": time.time(), "timeout": 9}))
    redis_client.set(model_serving.location_key(location, "alive"), "queued", ex=30)

    assert model_serving.model_serve(location=location) == 0

    message = (
        f"the checkpoint {location} could not be loaded: FileNotFoundError: "
        f"no checkpoint in {location} (config.json is missing)"
    )
    replies = [redis_client.lpop(model_serving.reply_key(i)) for i in ids]
    assert [json.loads(reply) for reply in replies] == [{"error": message}] * 3
    assert redis_client.llen(requests) == 0
    assert redis_client.get(model_serving.location_key(location, "alive")) is None


def test_spans_come_with_the_start_the_null_scores_are_the_same():
    # tokens: [CLS] question [SEP] zola 😀 vivait à médan . [SEP] (test_baselines_qa's window)
    context = "Zola 😀 vivait à Médan."
    offsets = [None, None, None, (0, 4), (5, 6), (7, 13), (14, 15), (16, 21), (21, 22), None]
    examples = [
        {"id": "medan", "question": "?", "context": context},
        {"id": "none", "question": "?", "context": context},
    ]
    features = {"example_id": ["medan", "none"], "offset_mapping": [offsets] * 2}
    starts = [[1.0, 0, 0, 0, 0, 0, 0, 6.0, 0, 0], [9.0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
    ends = [[1.0, 0, 0, 0, 0, 0, 0, 4.0, 0, 0], [9.0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]

    spans = postprocess_with_spans(examples, features, starts, ends, n_best=1)

    assert spans == {"medan": ("Médan", 16, -8.0), "none": ("", None, math.inf)}
    assert postprocess_with_null(examples, features, starts, ends, n_best=1) == {
        "medan": ("Médan", -8.0),
        "none": ("", math.inf),
    }
