"""Ask a model one question (evaluation/services/model_loop/ask.py): lexical, HTTP predict server, and a
checkpoint run in this process (no Redis). The checkpoint served by a real worker through
Redis is in test_model_serving.py.

The predict servers are real stdlib HTTP servers on 127.0.0.1, in a thread of the test.
"""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest

from evaluation.baselines import lexical
from evaluation.services.model_loop import ask as model_loop
from evaluation.services.model_loop.ask import ModelReply, ModelSpec, ModelUnavailable, ask
from tests.evaluation.test_mrqa_client import QuietServer, closed_port_url
from tests.needs import PIAF, require_file, require_module

pytestmark = pytest.mark.usefixtures("loopback_allowed")

LEXICAL = ModelSpec(kind="lexical", location="", label="lexical")
CONTEXT = (
    "Le peintre 😀 Émile Zola aimait la campagne. Il écrivait des romans très célèbres. "
    "Sa maison 🏠 était à Médan-sur-Seine."
)
QUESTION = "Où était sa maison ?"


def pair(reply: ModelReply) -> tuple[str, int | None]:
    return reply.text, reply.start


def piaf_first_paragraph() -> dict:
    document = json.loads(require_file(PIAF).read_text(encoding="utf-8"))
    return document["data"][0]["paragraphs"][0]  # "Sport": 615 characters


@pytest.fixture
def empty_lru(monkeypatch):
    monkeypatch.setattr(model_loop, "_passages", type(model_loop._passages)())


def test_the_lexical_model_answers_with_the_occurrence_it_chose(empty_lru):
    paragraph = piaf_first_paragraph()
    context = paragraph["context"]
    question = paragraph["qas"][1]["question"]

    reply = ask(LEXICAL, context, question)

    assert question == "Combien d'employeurs"
    assert (reply.text, reply.start) == ("000", 600)  # the second "000" (of "20 000")
    assert context.find("000") == 476
    assert reply.text == lexical.predict(context, question)
    assert context[600:603] == "000"
    assert 0 <= reply.milliseconds < 1000


def test_the_lexical_model_analyses_a_paragraph_once_for_all_its_questions(empty_lru, monkeypatch):
    paragraph = piaf_first_paragraph()
    built = []

    class CountedPassage(lexical.Passage):
        def __init__(self, context, *args, **kwargs):
            built.append(context)
            super().__init__(context, *args, **kwargs)

    monkeypatch.setattr(lexical, "Passage", CountedPassage)

    replies = [ask(LEXICAL, paragraph["context"], qa["question"]) for qa in paragraph["qas"]]

    assert len(replies) == len(paragraph["qas"]) == 5
    assert built == [paragraph["context"]]
    expected = [lexical.predict(paragraph["context"], qa["question"]) for qa in paragraph["qas"]]
    assert [reply.text for reply in replies] == expected


def test_the_lexical_lru_forgets_the_paragraph_used_longest_ago(empty_lru, monkeypatch):
    monkeypatch.setattr(model_loop, "PASSAGES_KEPT", 2)
    first = model_loop.lexical_passage("Alpha est une ville.")
    model_loop.lexical_passage("Beta est une ville.")
    assert model_loop.lexical_passage("Alpha est une ville.") is first  # now the latest used

    model_loop.lexical_passage("Gamma est une ville.")  # Beta goes

    assert list(model_loop._passages) == ["Alpha est une ville.", "Gamma est une ville."]


def test_a_context_without_any_candidate_gets_no_answer(empty_lru):
    assert pair(ask(LEXICAL, "… !", "Quoi ?")) == ("", None)


@pytest.fixture
def serve():
    """Start servers whose `respond(body) -> (status, bytes)` answers each POST; return
    (url, the bodies received)."""
    servers = []

    def start(respond):
        received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                received.append(body)
                status, content = respond(body)
                self.send_response(status)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args):
                pass

        server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/", received

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def http_spec(url: str) -> ModelSpec:
    return ModelSpec(kind="http", location=url, label="test server")


def answer(text):
    """A predict server that answers text to every question."""

    def respond(body):
        return 200, json.dumps({qa["qid"]: text for qa in body["qas"]}).encode()

    return respond


def test_a_predict_server_gets_one_mrqa_context_without_answers_and_is_answered(serve):
    url, received = serve(answer("Émile Zola"))

    reply = ask(http_spec(url), CONTEXT, QUESTION)

    assert isinstance(reply, ModelReply)
    assert (reply.text, reply.start) == ("Émile Zola", 13)
    assert len(received) == 1
    body = received[0]
    assert body["context"] == CONTEXT
    assert [token for token, _offset in body["context_tokens"][:4]] == [
        "Le",
        "peintre",
        "😀",
        "Émile",
    ]
    assert [list(qa) for qa in body["qas"]] == [["qid", "question", "question_tokens"]]
    assert (body["qas"][0]["qid"], body["qas"][0]["question"]) == ("q", QUESTION)


def test_an_answer_not_in_the_context_keeps_its_text_without_a_start(serve):
    url, _ = serve(answer("à Paris"))

    assert pair(ask(http_spec(url), CONTEXT, QUESTION)) == ("à Paris", None)


def test_an_empty_answer_is_no_answer(serve):
    url, _ = serve(answer(""))

    assert pair(ask(http_spec(url), CONTEXT, QUESTION)) == ("", None)


def test_a_slow_predict_server_is_unavailable_after_the_time_out(serve, settings):
    def slow(body):
        time.sleep(2.0)
        return answer("Zola")(body)

    url, received = serve(slow)
    settings.MODEL_LOOP_TIMEOUT_SECONDS = 0.4  # the default time-out of ask

    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match=r"timed out after 0\.4 s") as error:
        ask(http_spec(url), CONTEXT, QUESTION)
    waited = time.monotonic() - started

    assert 0.4 <= waited < 1.2
    assert len(received) == 1  # no retry
    assert str(error.value).startswith(f"predict server {url}: ")


@pytest.mark.parametrize(
    ("status", "content", "problem"),
    [
        (
            200,
            b"<html><body>It works!</body></html>",
            "the reply is not JSON",
        ),
        (200, b"{}", "no answer for qids q"),
        (200, b"42", "the reply is not an object of strings (int)"),
        (200, b'{"q": 3}', "the reply is not an object of strings (qid q: int)"),
        (500, b"oops", "answered HTTP 500, not 200"),
    ],
)
def test_a_reply_outside_the_protocol_makes_the_model_unavailable(serve, status, content, problem):
    url, _ = serve(lambda body: (status, content))

    with pytest.raises(ModelUnavailable) as error:
        ask(http_spec(url), CONTEXT, QUESTION, timeout=2.0)

    assert str(error.value) == f"predict server {url}: context 1: {problem}"


def test_a_refused_connection_makes_the_model_unavailable_at_once():
    url = closed_port_url()

    started = time.monotonic()
    with pytest.raises(ModelUnavailable) as error:
        ask(http_spec(url), CONTEXT, QUESTION, timeout=2.0)

    assert str(error.value) == f"predict server {url}: connection refused"
    assert time.monotonic() - started < 1.0  # no retry, no wait


def test_an_address_that_is_not_http_makes_the_model_unavailable():
    with pytest.raises(ModelUnavailable) as error:
        ask(http_spec("file:///etc/passwd"), CONTEXT, QUESTION)

    assert str(error.value) == (
        "predict server file:///etc/passwd: only http and https URLs are allowed, not 'file'"
    )


def test_an_unknown_kind_makes_the_model_unavailable():
    with pytest.raises(ModelUnavailable, match=r"unknown model kind 'oracle'"):
        ask(ModelSpec(kind="oracle", location="", label="?"), CONTEXT, QUESTION)


def trained_zola_checkpoint(folder):
    """Train a tiny BERT on one question until it answers it; save it; return its predictions.

    Returns (folder, {question: (text, start)}) as the model predicts in this process.
    """
    require_module("torch", "a tiny model is trained in the test (dev extra)")
    from evaluation.baselines.checkpoints import save_checkpoint
    from evaluation.baselines.tiny import tiny_model_and_tokenizer
    from evaluation.baselines.training import TrainConfig, predict_with_spans, train

    example = {
        "id": "zola",
        "question": QUESTION,
        "context": CONTEXT,
        "answers": {"text": ["Médan-sur-Seine"], "answer_start": [102]},
    }
    questions = [QUESTION, "Qui aimait la campagne ?", "Que faisait-il ?"]
    model, tokenizer = tiny_model_and_tokenizer([CONTEXT, *questions], vocab_size=1000)
    config = TrainConfig(max_steps=30, batch_size=2, learning_rate=1e-3, device="cpu")
    train(model, tokenizer, [example], config)
    save_checkpoint(model, tokenizer, folder)
    examples = [{"id": q, "question": q, "context": CONTEXT} for q in questions]
    spans = predict_with_spans(model, tokenizer, examples, config)
    return folder, {q: (text, start) for q, (text, start, _na) in spans.items()}


def test_without_redis_a_checkpoint_answers_in_the_web_process(
    settings, tmp_path, models_under_basetemp
):
    folder, expected = trained_zola_checkpoint(tmp_path / "zola")
    settings.REDIS_URL = ""
    spec = ModelSpec(kind="checkpoint", location=str(folder), label="tiny")

    replies = [pair(ask(spec, CONTEXT, question, timeout=30)) for question in expected]

    assert expected[QUESTION] == ("Médan-sur-Seine", 102)
    assert CONTEXT[102:117] == "Médan-sur-Seine"
    assert replies == list(expected.values())


def test_without_redis_a_missing_checkpoint_makes_the_model_unavailable(
    settings, tmp_path, models_under_basetemp
):
    require_module("torch", "the checkpoint is loaded in this process (dev extra)")
    settings.REDIS_URL = ""
    spec = ModelSpec(kind="checkpoint", location=str(tmp_path / "gone"), label="gone")

    with pytest.raises(ModelUnavailable) as error:
        ask(spec, CONTEXT, QUESTION)

    assert str(error.value) == (
        f"checkpoint {tmp_path / 'gone'}: FileNotFoundError: no checkpoint in "
        f"{tmp_path / 'gone'} (config.json is missing)"
    )


@pytest.mark.parametrize(
    ("value", "expected"), [(None, 3.0), ("0.5", 0.5), ("10", 10.0), (" 2.25 ", 2.25)]
)
def test_the_time_out_setting_takes_decimal_seconds(monkeypatch, value, expected):
    from config import settings as config_settings

    if value is None:
        monkeypatch.delenv("MODEL_LOOP_TIMEOUT_SECONDS", raising=False)
    else:
        monkeypatch.setenv("MODEL_LOOP_TIMEOUT_SECONDS", value)

    assert config_settings._seconds("MODEL_LOOP_TIMEOUT_SECONDS", 3.0, 0.1, 60.0) == expected


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("soon", "expected a number of seconds, got 'soon'"),
        ("0", "expected a number between 0.1 and 60, got 0"),
        ("nan", "expected a number between 0.1 and 60, got nan"),
        ("61", "expected a number between 0.1 and 60, got 61"),
    ],
)
def test_a_bad_time_out_setting_is_refused_naming_it(monkeypatch, value, problem):
    from config import settings as config_settings
    from config.env import EnvError

    monkeypatch.setenv("MODEL_LOOP_TIMEOUT_SECONDS", value)

    with pytest.raises(EnvError) as error:
        config_settings._seconds("MODEL_LOOP_TIMEOUT_SECONDS", 3.0, 0.1, 60.0)

    assert str(error.value) == f"MODEL_LOOP_TIMEOUT_SECONDS: {problem}"
