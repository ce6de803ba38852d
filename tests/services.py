"""Helpers for tests that talk to real processes: wait for a condition, run manage.py."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# How long a wait may last before the test calls the work stuck: a net against a hang (a lost
# task, a deadlock), never a measure of the machine. Every wait ends as soon as the state it
# watches is reached, and early once the process doing the work has died (`alive`).
STUCK_AFTER = float(os.environ.get("TESTS_STUCK_AFTER", "900"))


def wait_until(probe, done, timeout: float | None = None, interval: float = 0.2, alive=None):
    """Call probe() until done(value) holds, `alive()` turns false (the worker or server
    doing the work died) or `timeout` (by default STUCK_AFTER) passes; return the last value.

    Waits on a job are written against its own state (a row's status, a port answering) and
    take the default: a slow, loaded machine only makes them last longer."""
    deadline = time.monotonic() + (STUCK_AFTER if timeout is None else timeout)
    value = probe()
    while not done(value) and time.monotonic() < deadline:
        if alive is not None and not alive():
            return probe()
        time.sleep(interval)
        value = probe()
    return value


def manage_env(**overrides) -> dict:
    """The environment of a manage.py subprocess: ours, with overrides (None removes)."""
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set for the browser tests, never for a server
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def manage(*args: str, env: dict, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def worker_argv(*, queues: str, name: str) -> list[str]:
    """The command line of a real Celery worker (one process, on `queues`) for the tests."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--queues",
        queues,
        "--pool",
        "solo",
        "--hostname",
        f"{name}@%h",
        "--loglevel",
        "INFO",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
    ]


class WorkerProcess:
    """A real Celery worker on `queues`, in its own session (process group) so that it can be
    killed whole, its output read line by line."""

    def __init__(self, env: dict, name: str, queues: str):
        self.lines: list[str] = []
        self.process = subprocess.Popen(
            worker_argv(queues=queues, name=name),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(60):
            self.kill()
            raise RuntimeError("the worker did not start:\n" + self.log())

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line)
            if " ready." in line:
                self.ready.set()

    def output(self) -> str:
        """Everything the worker wrote so far."""
        return "".join(self.lines)

    def log(self) -> str:
        """The worker's last lines, for a failed assertion's message."""
        return "".join(self.lines[-60:])

    def kill(self) -> None:
        """SIGKILL the worker's whole process group, as an OOM killer or a lost host would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def start_worker(*, env: dict, queues: str, name: str) -> subprocess.Popen:
    """Start a real Celery worker and return once it reports ready."""
    process = subprocess.Popen(
        worker_argv(queues=queues, name=name),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            break
        lines.append(line)
        if " ready." in line:
            # Keep reading, so a chatty worker never blocks on a full pipe.
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process
    process.kill()
    raise RuntimeError("the worker did not start:\n" + "".join(lines[-40:]))


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
