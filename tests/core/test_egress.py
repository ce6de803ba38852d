"""The egress policy (core/egress.py): every spelling of an internal address is refused by
what it resolves to; a local server is refused unless the settings allow it, and reached at the
address that was checked, without following a redirect."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from core import egress
from core.egress import EgressRefused, Policy, check


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1/", "loopback"),
        ("http://127.0.0.1:6379/", "loopback"),
        ("http://127.0.0.1:5432/", "loopback"),
        ("http://0x7f000001/", "loopback"),
        ("http://2130706433/", "loopback"),
        ("http://017700000001/", "loopback"),
        ("http://127.1/", "loopback"),
        ("http://127.0.0.1./", "loopback"),
        ("http://localhost/", "loopback"),
        ("http://LOCALHOST./predict", "loopback"),
        ("http://a@127.0.0.1/", "loopback"),
        ("http://a:b@127.0.0.1:8000/", "loopback"),
        ("https://127.0.0.1/", "loopback"),
        ("http://[::1]/", "loopback"),
        ("http://[0:0:0:0:0:0:0:1]/", "loopback"),
        ("http://[::ffff:127.0.0.1]/", "ipv4-in-ipv6"),
        ("http://[::ffff:7f00:1]/", "ipv4-in-ipv6"),
        ("http://[::ffff:8.8.8.8]/", "ipv4-in-ipv6"),
        ("http://[::127.0.0.1]/", "ipv4-in-ipv6"),
        ("http://[64:ff9b::7f00:1]/", "loopback"),
        ("http://[2002:7f00:1::]/", "loopback"),
        ("http://[2002:a00:1::]/", "private"),
        ("http://10.0.0.1/", "private"),
        ("http://10.255.255.255/", "private"),
        ("http://172.16.0.1/", "private"),
        ("http://172.31.255.1/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://0xc0a80101/", "private"),
        ("http://100.64.0.1/", "private"),
        ("http://100.127.255.254/", "private"),
        ("http://[fc00::1]/", "private"),
        ("http://[fd12:3456::1]/", "private"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://224.0.0.1/", "multicast"),
        ("http://239.255.255.250/", "multicast"),
        ("http://[ff02::1]/", "multicast"),
        ("http://0.0.0.0/", "unspecified"),
        ("http://0/", "unspecified"),
        ("http://[::]/", "unspecified"),
        ("http://192.0.2.1/", "reserved"),
        ("http://198.51.100.7/", "reserved"),
        ("http://203.0.113.9/", "reserved"),
        ("http://198.18.0.1/", "reserved"),
        ("http://240.0.0.1/", "reserved"),
        ("http://255.255.255.255/", "reserved"),
        ("http://[2001:db8::1]/", "reserved"),
        ("http://[2001::1]/", "reserved"),
        ("http://[100::1]/", "reserved"),
        ("ftp://8.8.8.8/", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("gopher://127.0.0.1:6379/_INFO", "scheme"),
        ("127.0.0.1:8000", "scheme"),
        ("http:///predict", "no-host"),
        ("http://nowhere.invalid/", "unresolvable"),
    ],
)
def test_every_spelling_of_an_internal_address_is_refused(url, reason):
    with pytest.raises(EgressRefused) as refused:
        check(url, policy=Policy())

    assert refused.value.reason == reason


@pytest.mark.parametrize(
    "url",
    ["http://8.8.8.8/", "https://1.1.1.1:8443/predict", "http://[2606:4700:4700::1111]/"],
)
def test_public_addresses_are_allowed(url):
    target = check(url, policy=Policy())

    assert target.addresses == (target.host,)


def test_a_host_is_refused_when_any_of_its_addresses_is_internal():
    def resolver(host, port):
        return {"models.example": ["8.8.8.8", "10.0.0.7"]}[host]

    with pytest.raises(EgressRefused) as refused:
        check("http://models.example/", policy=Policy(), resolver=resolver)

    assert (refused.value.reason, refused.value.detail) == ("private", "10.0.0.7")
    assert "10.0.0.7" not in str(refused.value)  # what a name resolves to is not shown


def test_an_operator_allows_networks_and_hosts():
    def resolver(host, port):
        names = {
            "models.internal": ["10.0.0.7"],
            "qa.svc.cluster.local": ["10.1.2.3"],
            "svc.cluster.local": ["10.1.2.4"],
        }
        return names.get(host) or [host]

    policy = Policy(
        networks=egress.parse_networks(["127.0.0.0/8", "::1"]),
        hosts=("models.internal", ".svc.cluster.local"),
    )

    assert check("http://127.0.0.1:6379/", policy=policy, resolver=resolver).host == "127.0.0.1"
    assert check("http://[::1]/", policy=policy, resolver=resolver).host == "::1"
    assert check("http://MODELS.internal./", policy=policy, resolver=resolver).addresses == (
        "10.0.0.7",
    )
    assert check("http://qa.svc.cluster.local/", policy=policy, resolver=resolver).addresses == (
        "10.1.2.3",
    )
    for refused in ("http://10.0.0.7/", "http://[::ffff:127.0.0.1]/", "http://svc.cluster.local/"):
        with pytest.raises(EgressRefused):
            check(refused, policy=policy, resolver=resolver)


class Counting(BaseHTTPRequestHandler):
    """Answers every GET with 200 and the Host it was sent; `hits` counts the requests."""

    hits: list = []

    def do_GET(self):  # noqa: N802 (the standard library's name)
        self.hits.append(self.headers["Host"])
        body = self.headers["Host"].encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def local_server():
    """Start servers on 127.0.0.1 with the given handler; yield a starter returning the port."""
    servers = []

    def start(handler):
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return server.server_address[1]

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_a_local_server_is_refused_by_default_and_reached_when_allowed(settings, local_server):
    handler = type("Handler", (Counting,), {"hits": []})
    port = local_server(handler)
    settings.EGRESS_ALLOWED_NETWORKS, settings.EGRESS_ALLOWED_HOSTS = [], []

    with egress.client(timeout=5) as http, pytest.raises(EgressRefused) as refused:
        http.get(f"http://127.0.0.1:{port}/")
    assert refused.value.reason == "loopback"
    assert handler.hits == []  # nothing was sent

    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with egress.client(timeout=5) as http:
        reply = http.get(f"http://127.0.0.1:{port}/")
    assert (reply.status_code, handler.hits) == (200, [f"127.0.0.1:{port}"])


def test_the_connection_goes_to_the_checked_address_with_the_original_host(local_server):
    handler = type("Handler", (Counting,), {"hits": []})
    port = local_server(handler)
    answers = iter([["127.0.0.1"], ["10.9.9.9"]])  # a second lookup would get another address
    lookups = []

    def resolver(host, port):
        lookups.append(host)
        return next(answers)

    policy = Policy(hosts=("models.test",))
    with egress.client(timeout=5, policy=policy, resolver=resolver) as http:
        first = http.get(f"http://models.test:{port}/a")
        second = http.get(f"http://models.test:{port}/b")

    assert (first.text, second.text) == (f"models.test:{port}",) * 2
    assert lookups == ["models.test"]  # resolved once, then pinned


def test_https_keeps_the_name_for_sni_and_the_certificate():
    seen = []

    def inner(request):
        seen.append((str(request.url), request.headers["Host"], request.extensions))
        return httpx.Response(200)

    transport = egress.PinnedTransport(
        policy=Policy(),
        resolver=lambda host, port: ["8.8.4.4"],
        inner=httpx.MockTransport(inner),
    )
    with httpx.Client(transport=transport) as http:
        http.get("https://models.example:8443/predict")

    url, host, extensions = seen[0]
    assert (url, host) == ("https://8.8.4.4:8443/predict", "models.example:8443")
    assert extensions["sni_hostname"] == "models.example"


class Redirecting(BaseHTTPRequestHandler):
    """Answers 302 to the location its class names."""

    location = ""

    def do_GET(self):  # noqa: N802 (the standard library's name)
        self.send_response(302)
        self.send_header("Location", self.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def test_a_redirect_is_not_followed(settings, local_server):
    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    target = type("Target", (Counting,), {"hits": []})
    target_port = local_server(target)
    redirecting = type("R", (Redirecting,), {"location": f"http://127.0.0.1:{target_port}/"})
    port = local_server(redirecting)

    with egress.client(timeout=5) as http:
        reply = http.get(f"http://127.0.0.1:{port}/")

    assert reply.status_code == 302
    assert target.hits == []
