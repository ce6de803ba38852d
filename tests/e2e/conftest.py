"""A real Chromium (Debian's package) driven by Playwright against the live test server."""

import os
import shutil

import pytest

from tests.conftest import require_service

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Playwright's sync API runs an event loop in this thread; the ORM calls of the test itself
# (creating users, reading rows) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Every wait of a browser test is on the page's state (an element shown, a text, a response);
# this is only the net against a hang. Playwright's own default (5 s for `expect`) is a wait
# tuned to a quiet machine: on a loaded one a page can take longer to answer.
STUCK_AFTER_MS = 120_000


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        require_service(f"{CHROMIUM} is missing: install Debian's chromium package")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=STUCK_AFTER_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def settle(page, *, timeout_ms: int = 5000) -> None:
    """Leave the page and wait until the requests it sent have their answers.

    Leaving a work page sends its pending draft (pagehide, a keepalive request). Closing the
    browser at once would let that request reach the server while the test's database is
    being flushed: the two deadlock, the flush fails and the next test starts on leftovers.
    """
    pending = set()
    context = page.context
    context.on("request", lambda request: pending.add(request))
    context.on("requestfinished", lambda request: pending.discard(request))
    context.on("requestfailed", lambda request: pending.discard(request))
    try:
        page.goto("about:blank")
    except Exception:  # noqa: BLE001 (a closed or crashed page has nothing left to send)
        return
    page.wait_for_timeout(100)  # the events of what leaving sent arrive
    waited = 100
    while pending and waited < timeout_ms:
        page.wait_for_timeout(50)
        waited += 50


def keep_screenshot(page, name: str, **options) -> None:
    """Save a screenshot for a person to look at, in `$SCREENSHOTS_DIR` when it is set (the
    suite itself writes nothing outside its temporary folders)."""
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        page.screenshot(path=f"{folder}/{name}", **options)


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(STUCK_AFTER_MS)
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.console_problems = problems
    yield page
    settle(page)
    context.close()
