"""Issue 24: the platform as `make run` serves it (SQLite, the file queue, its own worker, the
demo logins) keeps an annotator's draft across autosaves and a reload.

On SQLite every draft save after the first on a lease answered 500 (a naive datetime read back
by hand-written SQL), and a reload showed 1 question of 3. This test starts the platform the
way the Makefile's `run` target does, in a folder of its own, and writes in Chromium.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import time
from types import SimpleNamespace

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.deploy.test_serve import free_port, group_alive
from tests.e2e.test_draft_resilience import is_draft_put, select_phrase
from tests.e2e.test_sign_in import sign_in
from tests.services import ROOT, manage_env

pytestmark = [pytest.mark.e2e, pytest.mark.worker]

START_LIMIT_S = 240  # migrate, collectstatic, the demo's corpus and release, on a loaded machine


def run_target() -> tuple[dict, list[list[str]]]:
    """The Makefile's `run` target: the variables it exports and its commands, as written."""
    exports, commands = {}, []
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"run: \S*install\b", line))
    for line in lines[:start]:
        if match := re.match(r"run: export (\w+) \?= (\S+)$", line):
            exports[match[1]] = match[2]
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        commands.append(shlex.split(line.strip().replace("$(BIN)", str(ROOT / ".venv" / "bin"))))
    return exports, commands


@pytest.fixture
def make_run(tmp_path):
    """The platform as `make run` starts it, on a free port, with a VAR_DIR of its own (its
    SQLite file, its queue folder); yields its address and the demo logins."""
    exports, commands = run_target()
    assert commands[-1] == ["bin/serve"], commands  # the last command serves, in the foreground
    port = free_port()
    var = tmp_path / "var"
    env = manage_env(
        **exports,
        VAR_DIR=str(var),
        PORT=str(port),
        DATABASE_URL=None,  # the defaults: SQLite and the filesystem queue
        REDIS_URL=None,
        WIKIPEDIA_API_URL=None,
        WIKIPEDIA_USER_AGENT=None,
    )
    for command in commands[:-1]:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=START_LIMIT_S
        )
        assert done.returncode == 0, done.stdout + done.stderr
    out = tmp_path / "serve.out"
    with out.open("w") as sink:
        process = subprocess.Popen(
            ["bash", str(ROOT / commands[-1][0])],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + START_LIMIT_S
        while "Demo logins" not in out.read_text():  # printed once /healthz answers
            assert process.poll() is None, out.read_text()
            assert time.monotonic() < deadline, out.read_text()
            time.sleep(0.2)
        logins = json.loads((var / "demo-logins.json").read_text())
        yield SimpleNamespace(
            url=f"http://127.0.0.1:{port}", logins=logins, log=lambda: out.read_text()[-3000:]
        )
    finally:
        # The whole group at once: a clean stop is tests/deploy/test_serve.py's business, and
        # bin/serve gives a busy worker (the demo's baseline run) 10 s before it insists.
        if group_alive(process.pid):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def unique_words(text: str, count: int) -> list[str]:
    """`count` words of the paragraph (5 letters or more) that occur once in it."""
    words = re.findall(r"\w{5,}", text)
    found = []
    for word in words:
        if len(re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text)) == 1 and word not in found:
            found.append(word)
    assert len(found) >= count, text
    return found[:count]


def test_make_run_keeps_three_questions_across_two_autosaves_and_a_reload(page, make_run):
    saves = []
    page.on("response", lambda r: is_draft_put(r.request) and saves.append(r.status))
    sign_in(page, make_run, "annotator", make_run.logins["annotator"])
    card = page.locator(".campaign-card").filter(
        has=page.get_by_role("heading", name="Démo — questions", exact=True)
    )
    card.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    paragraph = page.evaluate("JSON.parse(document.getElementById('paragraph-source').textContent)")
    answers = unique_words(paragraph, 3)
    questions = [f"Quel mot du paragraphe est « {word} » ?" for word in answers]

    def holding(count):
        def done(response):
            if not is_draft_put(response.request) or response.status != 200:
                return False
            return len(json.loads(response.request.post_data)["draft"]["questions"]) == count

        return done

    def add(question, answer):
        select_phrase(page, answer)
        page.locator("#question-text").fill(question)
        page.locator("#add-question").click()

    try:
        with page.expect_response(holding(1)):  # the first autosave
            add(questions[0], answers[0])
        with page.expect_response(holding(3)):  # the second (another may come between)
            add(questions[1], answers[1])
            add(questions[2], answers[2])
    except PlaywrightTimeoutError:
        pytest.fail(f"the draft saves answered {saves}; the server said:\n{make_run.log()}")
    expect(page.locator("#draft-status")).to_contain_text("Brouillon enregistré")
    assert len(saves) >= 2 and set(saves) == {200}, saves

    # Only the server's copy counts here: this browser's is dropped before the reload.
    page.evaluate("localStorage.clear()")
    page.reload()
    expect(page.locator("#question-list li")).to_have_count(3)
    assert page.locator("#question-list .question-text").all_inner_texts() == questions
    assert page.console_problems == []
