"""`make run`'s server script: every queue served, the logins printed last, a clean stop."""

import os
import signal
import socket
import subprocess
import time

import pytest

from tests.services import ROOT, manage, manage_env, wait_until

SERVE = ROOT / "bin" / "serve"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.worker
def test_serve_prints_the_logins_last_serves_gpu_and_stops_on_sigterm(tmp_path):
    port = free_port()
    env = manage_env(
        VAR_DIR=str(tmp_path / "var"),
        DEBUG="true",
        PORT=str(port),
        DATABASE_URL=None,
        REDIS_URL=None,
        WIKIPEDIA_API_URL=None,
        WIKIPEDIA_USER_AGENT=None,
    )
    assert manage("migrate", "--noinput", "-v", "0", env=env).returncode == 0
    out = tmp_path / "serve.out"
    with out.open("w") as sink:
        process = subprocess.Popen(
            ["bash", str(SERVE)],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # Waits on what the script printed: the logins block whole (its title and 6 lines).
        text = wait_until(
            out.read_text,
            lambda text: len(text.partition("Demo logins")[2].strip().splitlines()) >= 6,
            alive=lambda: process.poll() is None,
        )
        lines = [line for line in text.splitlines() if line.strip()]
        assert lines[-7].startswith("Demo logins"), text
        assert [line.split()[1] for line in lines[-6:]] == [
            "admin",
            "reviewer",
            "annotator",
            "annotator2",
            "annotator3",
            "annotator4",
        ]
        assert "queues default, scrape, export, gpu" in text
        check = manage(
            "check_workers", "--queue", "gpu", "--timeout", "300", "--json", env=env, timeout=600
        )
        assert check.returncode == 0, check.stdout + check.stderr
        assert '"status": "succeeded"' in check.stdout

        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        deadline = time.monotonic() + 20
        while group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not group_alive(process.pid), "a process of make run outlived SIGTERM"
        assert out.read_text().rstrip().endswith("Stopped.")
    finally:
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


def test_the_development_server_sends_each_write_at_once():
    """`make run` serves with `devserver`: runserver on a server whose connections have
    Nagle's algorithm off, so a page's last write is not held for the browser's delayed ACK."""
    from django.core.management import get_commands
    from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer

    from core.management.commands.devserver import NoDelayWSGIServer

    assert get_commands()["devserver"] == "core"
    found = {}
    for server_cls in (WSGIServer, NoDelayWSGIServer):
        server = server_cls(("127.0.0.1", 0), WSGIRequestHandler)
        try:
            with socket.create_connection(server.server_address[:2]):
                connection, _address = server.get_request()
                with connection:
                    found[server_cls.__name__] = connection.getsockopt(
                        socket.IPPROTO_TCP, socket.TCP_NODELAY
                    )
        finally:
            server.server_close()
    assert found == {"WSGIServer": 0, "NoDelayWSGIServer": 1}
    assert "devserver" in SERVE.read_text()
