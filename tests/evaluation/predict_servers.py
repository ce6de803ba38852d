"""Predict servers that misbehave, for the model in the loop's tests: one too slow for the
time-out, one answering garbage. `serving(handler)` runs one on a free local port."""

import json
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Slow(_Quiet):
    """Answers the MRQA way, but after 1.5 s: past any time-out the tests set."""

    def do_POST(self):  # noqa: N802 (the standard library's name)
        time.sleep(1.5)
        self.reply(json.dumps({"q": "trop tard"}).encode(), "application/json")


class Garbage(_Quiet):
    """Answers at once, with a web page instead of JSON."""

    def do_POST(self):  # noqa: N802 (the standard library's name)
        self.reply(b"<html><body>It works!</body></html>", "text/html")


@contextmanager
def serving(handler):
    """Yield the URL of a local server answering with `handler`; stop it afterwards."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/predict"
    finally:
        server.shutdown()
        server.server_close()
