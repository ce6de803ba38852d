"""The MRQA predict-server client (evaluation/baselines/mrqa_client.py), against real servers.

Each test starts a stdlib HTTP server on 127.0.0.1 (port 0: the system picks a free one) in a
thread; a `respond(body) -> (status, bytes)` function decides what it answers to each POST.
"""

import gzip
import io
import json
import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from evaluation.baselines import mrqa_client
from evaluation.baselines.mrqa_client import PredictServerError, predict_over_http, wait_until_up
from exports.formats.mrqa import MrqaWriter, simple_tokenizer
from exports.formats.records import ExportAnswer, ExportArticle, ExportParagraph, ExportQuestion

pytestmark = pytest.mark.usefixtures("loopback_allowed")

DROP = object()  # what respond returns to close the connection without any response


def first_word(body):
    """The fixed rule of the test model: every question's answer is the context's first word."""
    answer = body["context"].split()[0]
    return 200, json.dumps({qa["qid"]: answer for qa in body["qas"]}).encode()


class QuietServer(ThreadingHTTPServer):
    """A threaded server that says nothing when a client it kept waiting has hung up."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # the slow-server test hangs up on purpose: its broken pipe is expected


@pytest.fixture
def serve():
    """Start servers that answer with `respond`; return (url, the bodies they received)."""
    servers = []

    def start(respond):
        received = []

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers["Content-Length"])
                body = json.loads(self.rfile.read(length))
                received.append(body)
                reply = respond(body)
                if reply is DROP:
                    self.close_connection = True
                    return
                status, content = reply
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args):
                pass  # keep the test output clean

        server = QuietServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/", received

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def no_retry_delay(monkeypatch):
    monkeypatch.setattr(mrqa_client, "RETRY_DELAY", 0.01)


def mrqa_lines():
    """Return the lines of a real MRQA export (header first) of two contexts, parsed."""
    articles = [
        ExportArticle(
            "Loire",
            [
                ExportParagraph(
                    "Loire est le plus long fleuve de France.",
                    [
                        ExportQuestion("q1", "Quel fleuve ?", [ExportAnswer("Loire", 0)]),
                        ExportQuestion("q2", "De quel pays ?", [ExportAnswer("France", 33)]),
                    ],
                ),
                ExportParagraph(
                    "Orléans est traversée par la Loire.",
                    [ExportQuestion("q3", "Quelle ville ?", [ExportAnswer("Orléans", 0)])],
                ),
            ],
        )
    ]
    out = io.BytesIO()
    MrqaWriter(dataset="test", split="dev", tokenize=simple_tokenizer).write(articles, out)
    lines = gzip.decompress(out.getvalue()).decode("utf-8").splitlines()
    return [json.loads(line) for line in lines]


def closed_port_url():
    """Return the URL of a port nobody listens on: bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def test_predictions_come_back_for_every_question(serve):
    url, received = serve(first_word)
    header, *contexts = mrqa_lines()

    predictions = predict_over_http(url, [header, *contexts], timeout=5)

    assert predictions == {"q1": "Loire", "q2": "Loire", "q3": "Orléans"}
    assert received == contexts  # each context line as it is; the header never sent


def test_answers_can_be_withheld_from_the_server(serve):
    url, received = serve(first_word)
    _, *contexts = mrqa_lines()

    predict_over_http(url, contexts, timeout=5, withhold_answers=True)

    sent = [qa for body in received for qa in body["qas"]]
    assert [sorted(qa) for qa in sent] == [["qid", "question", "question_tokens"]] * 3
    assert "answers" in contexts[0]["qas"][0]  # the caller's objects are left as they were


def test_a_server_error_is_reported_with_its_status_and_its_body_only_in_the_log(serve, caplog):
    url, _ = serve(lambda body: (500, b"INTERNAL-SECRET-TOKEN=s3cr3t"))
    _, *contexts = mrqa_lines()

    with pytest.raises(PredictServerError) as caught:
        predict_over_http(url, contexts, timeout=5)

    assert str(caught.value) == f"predict server {url}: context 1: answered HTTP 500, not 200"
    assert "INTERNAL-SECRET-TOKEN=s3cr3t" in caplog.text


def test_a_reply_that_is_not_json_is_reported_without_its_body(serve):
    url, _ = serve(lambda body: (200, b"<html>hello</html>"))
    _, *contexts = mrqa_lines()

    with pytest.raises(PredictServerError) as caught:
        predict_over_http(url, contexts, timeout=5)

    assert caught.value.problem == "context 1: the reply is not JSON"


def test_a_service_that_does_not_speak_http_is_named_as_such_not_quoted():
    server = socket.create_server(("127.0.0.1", 0))  # answers like Redis to anything

    def redis_like():
        connection, _ = server.accept()
        with connection:
            # The whole request first (on a busy machine its body may come in a later
            # segment): answered and closed before that, the client sees a reset instead.
            received = b""
            while b"\r\n\r\n" not in received:
                received += connection.recv(65536)
            head, _, body = received.partition(b"\r\n\r\n")
            length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
            while len(body) < length:
                body += connection.recv(65536)
            connection.sendall(b"-ERR unknown command 'POST', SECRET-KEYSPACE\r\n")

    threading.Thread(target=redis_like, daemon=True).start()
    url = f"http://127.0.0.1:{server.getsockname()[1]}/"
    _, first, _ = mrqa_lines()

    with server, pytest.raises(PredictServerError) as caught:
        predict_over_http(url, [first], timeout=5, retries=0)

    assert caught.value.problem == "the reply is not HTTP (RemoteProtocolError)"
    assert "SECRET-KEYSPACE" not in str(caught.value)


def test_a_local_server_is_refused_unless_the_operator_allows_it(serve, settings):
    url, received = serve(first_word)
    _, first, _ = mrqa_lines()
    settings.EGRESS_ALLOWED_NETWORKS = []

    with pytest.raises(PredictServerError) as caught:
        predict_over_http(url, [first], timeout=5)

    assert caught.value.problem == ("refused by the egress policy: the host is a loopback address")
    assert received == []


def test_a_missing_qid_is_reported(serve):
    url, _ = serve(lambda body: (200, json.dumps({"q1": "Loire"}).encode()))
    _, *contexts = mrqa_lines()

    with pytest.raises(PredictServerError, match="context 1: no answer for qids q2$"):
        predict_over_http(url, contexts, timeout=5)


def test_an_answer_that_is_not_a_string_is_reported(serve):
    url, _ = serve(lambda body: (200, json.dumps({"q1": "Loire", "q2": 3}).encode()))
    _, *contexts = mrqa_lines()

    with pytest.raises(PredictServerError, match=r"not an object of strings \(qid q2: int\)"):
        predict_over_http(url, contexts, timeout=5)


def test_a_reply_that_is_not_an_object_is_reported(serve):
    url, _ = serve(lambda body: (200, json.dumps(["Loire", "France"]).encode()))
    _, *contexts = mrqa_lines()

    with pytest.raises(PredictServerError, match=r"not an object of strings \(list\)"):
        predict_over_http(url, contexts, timeout=5)


def test_only_the_asked_qids_are_kept(serve):
    url, _ = serve(lambda body: (200, json.dumps({"q1": "a", "q2": "b", "q9": "c"}).encode()))
    _, first, _ = mrqa_lines()

    assert predict_over_http(url, [first], timeout=5) == {"q1": "a", "q2": "b"}


def test_a_refused_connection_is_reported_after_the_retries(no_retry_delay):
    url = closed_port_url()
    _, *contexts = mrqa_lines()

    with pytest.raises(PredictServerError, match="connection refused") as caught:
        predict_over_http(url, contexts, timeout=5)
    assert caught.value.url == url


def test_a_dropped_connection_is_retried(serve, no_retry_delay):
    replies = iter([DROP])
    url, received = serve(lambda body: next(replies, None) or first_word(body))
    _, first, _ = mrqa_lines()

    predictions = predict_over_http(url, [first], timeout=5)

    assert predictions == {"q1": "Loire", "q2": "Loire"}
    assert len(received) == 2  # the same context, sent again


def test_a_slow_server_times_out(serve):
    def slow(body):
        time.sleep(1.0)
        return first_word(body)

    url, received = serve(slow)
    _, first, _ = mrqa_lines()

    with pytest.raises(PredictServerError, match=r"timed out after 0.2 s \(ReadTimeout\)"):
        predict_over_http(url, [first], timeout=0.2)
    assert len(received) == 1  # a read timeout is not retried: the model is slow, not down


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("ftp://127.0.0.1/", "only http and https URLs are allowed, not 'ftp'"),
        ("file:///etc/passwd", "only http and https URLs are allowed, not 'file'"),
        ("127.0.0.1:8888", "only http and https URLs are allowed"),
        ("http:///path", "the URL has no host"),
    ],
)
def test_other_urls_are_refused_before_any_request(url, problem):
    with pytest.raises(PredictServerError, match=problem):
        predict_over_http(url, [{"context": "x", "qas": []}])


def test_wait_until_up_returns_once_the_server_answers(serve):
    url, _ = serve(first_word)  # a GET gets 501 from this server: it is listening all the same

    wait_until_up(url, seconds=2, interval=0.1)


def test_wait_until_up_gives_up_after_the_time_allowed():
    url = closed_port_url()

    started = time.monotonic()
    with pytest.raises(PredictServerError, match="not up after 0.3 s"):
        wait_until_up(url, seconds=0.3, interval=0.1)
    assert time.monotonic() - started < 2


def test_wait_until_up_refuses_other_urls():
    with pytest.raises(PredictServerError, match="not 'ftp'"):
        wait_until_up("ftp://127.0.0.1/", seconds=0)


def test_an_empty_answer_is_kept_as_no_answer_and_null_is_refused(serve):
    contexts = [
        {"context": "Paris est en France.", "qas": [{"qid": "a", "question": "?"}]},
        {"context": "Lyon est en France.", "qas": [{"qid": "b", "question": "?"}]},
    ]
    url, _ = serve(lambda body: (200, json.dumps({body["qas"][0]["qid"]: ""}).encode()))
    assert predict_over_http(url, contexts) == {"a": "", "b": ""}

    url, _ = serve(lambda body: (200, json.dumps({body["qas"][0]["qid"]: None}).encode()))
    with pytest.raises(PredictServerError) as error:
        predict_over_http(url, contexts)
    assert (
        error.value.problem == "context 1: the reply is not an object of strings (qid a: NoneType)"
    )
