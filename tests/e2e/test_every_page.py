"""Every page, for each role, on a laptop and a phone, in French and English: nothing scrolls
sideways and no text is cut.

The site is filled through the services (`site_data.build_site`), so every page has content and
every detail page is opened with a real id. Each page is loaded at 1366×768 and 390×844 (with
`$SCREENSHOTS_DIR` set, a full-page screenshot of each is saved there, for a person to look at;
the checks read the laid-out page and need none), and the page fails when:

- the document scrolls horizontally (`scrollWidth > clientWidth` on `<html>`): the report names
  the elements that stick out past the right edge;
- an element clips its text: `overflow` hidden or clip, or `text-overflow: ellipsis`, with more
  text than it shows (`scrollWidth > clientWidth`, or the same vertically);
- an SVG `<text>` runs outside its `<svg>`'s viewBox;
- it has hx-* attributes but does not load htmx (pages opt into htmx, see templates/base.html).

`PAGES` lists the pages; `test_every_route_is_visited_or_skipped` fails when a URL conf gains a
route that is neither visited here nor skipped with its reason.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.e2e.conftest import STUCK_AFTER_MS
from tests.e2e.site_data import Site

VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}
LANGUAGES = ("fr", "en")


@dataclass(frozen=True)
class Page:
    name: str  # the route's name
    roles: tuple[str, ...]  # who opens it: annotator, reviewer, admin, several, anonymous
    args: tuple = ()  # Site attribute names (or literal values) for the route's arguments
    query: str = ""
    status: int = 200


PAGES = [
    Page("accounts:login", ("anonymous",)),
    Page("accounts:home", ("several",)),  # a user with the three roles chooses (3 header links)
    Page("accounts:set-password", ("anonymous",), ("set_password",)),
    Page("accounts:admin-home", ("admin",)),
    Page("accounts:users", ("admin",)),
    Page("core:system", ("admin",)),
    Page("corpus:articles", ("admin",)),
    Page("corpus:article", ("admin",), ("article",)),
    Page("corpus:stats", ("admin",)),
    Page("corpus:scrape-runs", ("admin",)),
    Page("corpus:scrape-run", ("admin",), ("scrape_run",)),
    Page("annotation:annotator-home", ("annotator",)),
    Page("annotation:lease", ("annotator",), ("write_lease",)),
    Page("annotation:lease", ("annotator",), ("answer_lease",)),
    Page("annotation:reviewer-home", ("reviewer",)),
    Page("annotation:review", ("reviewer",), ("review_lease",)),
    Page("annotation:question", ("annotator",), ("own_question",)),
    Page("annotation:question", ("reviewer", "admin"), ("corrected_question",)),
    Page("annotation:quality", ("reviewer", "admin")),
    Page("annotation:differences", ("reviewer", "admin")),
    Page("annotation:difference-label", ("reviewer", "admin"), ("sampled_question",)),
    Page("annotation:campaigns", ("admin",)),
    Page("annotation:campaign-new", ("admin",)),
    Page("annotation:campaign", ("admin",), ("campaign",)),
    Page("annotation:campaign-dashboard", ("admin",), ("campaign",)),
    Page("evaluation:campaign-model", ("admin",), ("campaign",)),
    Page("evaluation:campaign-learning-estimate", ("admin",), ("campaign",)),
    Page("reports:hours", ("admin",)),
    Page("evaluation:leaderboard", ("annotator", "reviewer", "admin")),
    Page("evaluation:human-performance", ("admin",)),
    Page("evaluation:results", ("admin",)),
    Page("evaluation:results-scores", ("admin",)),
    Page("evaluation:results-experiments", ("admin",)),
    Page("evaluation:results-unanswerable", ("admin",)),
    Page("evaluation:results-types", ("admin",)),
    Page("evaluation:results-curves", ("admin",)),
    Page("evaluation:results-baseline", ("admin",)),
    Page("evaluation:results-files", ("admin",)),
    Page("evaluation:results-rounds", ("admin",)),
    Page("evaluation:analysis", ("admin",)),
    Page("exports:releases", ("admin",)),
    Page("exports:release", ("admin",), ("first_release",)),
    Page("evaluation:release-scoring", ("admin",), ("first_release",)),
    Page("exports:release-diff", ("admin",), query="old={first_release}&new={second_release}"),
    Page("exports:schedules", ("admin",)),
    Page("exports:schedule", ("admin",), ("schedule",)),
    Page("evaluation:schedule-chart", ("admin",), ("schedule",)),
]
# Routes that are no page of their own, with the reason.
SKIPPED = {
    "annotation:difference-next": "a redirect to the next question to label",
    "accounts:logout": "POST only",
    "core:check-status": "htmx fragment of the system page",
    "corpus:scrape-run-resume": "POST only",
    "corpus:scrape-run-status": "htmx fragment",
    "corpus:offline-wikipedia": "the demo's offline MediaWiki API (JSON)",
    "annotation:next-paragraph": "POST only",
    "annotation:lease-release": "POST only",
    "annotation:answer-submit": "POST only",
    "annotation:next-review": "POST only",
    "annotation:review-skip": "POST only",
    "annotation:annotator-pause": "POST only",
    "annotation:question-gold": "POST only",
    "annotation:qualification-retry": "POST only",
    "annotation:qualification-reset": "POST only",
    # A newcomer's own round: opened on a laptop and a phone, in both languages, by
    # tests/e2e/test_qualification_round.py, with the round's data it needs.
    "annotation:qualification": "a round's page: tests/e2e/test_qualification_round.py",
    "annotation:qualification-item": "a round's feedback: tests/e2e/test_qualification_round.py",
    "reports:hours-csv": "a CSV download",
    "evaluation:baseline-run-status": "htmx fragment",
    "evaluation:analysis-start": "POST only",
    "evaluation:campaign-learning-targets": "POST only",
    "evaluation:analysis-status": "htmx fragment",
    "exports:release-status": "htmx fragment",
    "exports:release-resume": "POST only",
    "exports:release-file": "a file download",
    "exports:schedule-run": "POST only",
    "exports:schedule-enable": "POST only",
    "exports:schedule-delete": "POST only",
    "set_language": "POST only (the language switch)",
}
# Not ours to lay out: Django's admin site, the API and its generated documentation.
FOREIGN_PREFIXES = ("django-admin/", "api/")
# Error pages, rendered for a signed-in user.
ERROR_PAGES = [("403", "annotator", "/manage/", 403), ("404", "admin", "/no-such-page/", 404)]

# Runs in the page: what scrolls sideways, and which text is cut.
CHECK_LAYOUT = """() => {
  const problems = [];
  const describe = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += "#" + el.id;
    const classes = typeof el.className === "string" ? el.className.trim() : "";
    if (classes) name += "." + classes.split(/\\s+/).join(".");
    const text = (el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 50);
    return text ? `${name} "${text}"` : name;
  };
  // Shown: not display:none, visibility:hidden or inside a closed <details> (content-visibility).
  const visible = (el) => el.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true});
  // Text for screen readers only: a box of 1 px or less (the visually-hidden pattern).
  const screenReaderOnly = (el) => {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      if (node.clientWidth <= 1 && node.clientHeight <= 1 &&
          getComputedStyle(node).position === "absolute") return true;
    }
    return false;
  };
  const root = document.documentElement;
  const width = root.clientWidth;
  if (root.scrollWidth > width) {
    const culprits = [...document.body.querySelectorAll("*")].filter((el) => {
      if (!visible(el) || screenReaderOnly(el)) return false;
      if (el.getBoundingClientRect().right <= width + 0.5) return false;
      return ![...el.children].some((child) => child.getBoundingClientRect().right > width + 0.5);
    });
    problems.push(`the page scrolls sideways (${root.scrollWidth} > ${width} px): ` +
      culprits.slice(0, 5).map(describe).join("; "));
  }
  const editable = new Set(["INPUT", "TEXTAREA", "SELECT", "OPTION"]);
  for (const el of document.body.querySelectorAll("*")) {
    if (editable.has(el.tagName) || el instanceof SVGElement) continue;
    if (!visible(el) || screenReaderOnly(el)) continue;
    if (!(el.textContent || "").trim()) continue;
    const style = getComputedStyle(el);
    const clipsX = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
    const clipsY = ["hidden", "clip"].includes(style.overflowY);
    if (clipsX && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`text cut on the right (${el.scrollWidth} > ${el.clientWidth} px): ${describe(el)}`);
    } else if (clipsY && el.scrollHeight > el.clientHeight + 1) {
      problems.push(`text cut at the bottom (${el.scrollHeight} > ${el.clientHeight} px): ${describe(el)}`);
    }
  }
  const htmx = document.querySelector('script[src*="htmx"]');
  const swaps = document.querySelector("[hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete]");
  if (swaps && !htmx) problems.push(`hx-* attributes without htmx: ${describe(swaps)}`);
  for (const text of document.querySelectorAll("svg text")) {
    const svg = text.ownerSVGElement;
    const box = text.getBBox();
    const view = svg.viewBox.baseVal;
    const area = view && view.width ? view : svg.getBBox();
    if (box.x < area.x - 0.5 || box.y < area.y - 0.5 ||
        box.x + box.width > area.x + area.width + 0.5 ||
        box.y + box.height > area.y + area.height + 0.5) {
      problems.push(`SVG text outside its viewBox: ${describe(text)}`);
    }
  }
  return problems;
}"""


def route_names() -> set[str]:
    """Every named route of our URL confs (Django's admin and the API left out)."""
    names = set()

    def walk(patterns, namespace: str, prefix: str):
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if route.startswith(FOREIGN_PREFIXES):
                continue
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner, route)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(namespace + pattern.name)

    walk(get_resolver().url_patterns, "", "")
    return names


def test_every_route_is_visited_or_skipped():
    visited = {page.name for page in PAGES}
    assert visited.isdisjoint(SKIPPED)
    assert route_names() == visited | set(SKIPPED)


def page_url(page: Page, site: Site) -> str:
    values = {
        "first_release": site.releases[0],
        "second_release": site.releases[1],
    }
    args = []
    for arg in page.args:
        value = values.get(arg, getattr(site, arg, arg))
        args += list(value) if isinstance(value, tuple) else [value]
    url = reverse(page.name, args=args)
    return f"{url}?{page.query.format(**values)}" if page.query else url


def label_of(page: Page) -> str:
    return "-".join([page.name.replace(":", "-"), *map(str, page.args)])


def session_cookie(user) -> dict:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def visit(context, url: str, shot: Path | None, expected_status: int) -> list[str]:
    """Open a page, save its screenshot (`shot`, when given) and return its layout problems."""
    tab = context.new_page()
    tab.set_default_timeout(STUCK_AFTER_MS)
    try:
        response = tab.goto(url)
        assert response is not None and response.status == expected_status, (
            url,
            response and response.status,
        )
        tab.wait_for_load_state("load")
        if shot is not None:
            tab.screenshot(path=str(shot), full_page=True)
        return tab.evaluate(CHECK_LAYOUT)
    finally:
        tab.close()


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_a_laptop_and_a_phone_in_both_languages(
    browser, live_server, site, language, viewport
):
    """One language and one size a test, so that a parallel run shares the visits out."""
    folder = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    cookies = {role: session_cookie(user) for role, user in site.users.items()}
    visits = [
        (role, label_of(page), page_url(page, site), page.status)
        for page in PAGES
        for role in page.roles
    ]
    visits += [(role, f"error-{name}", path, status) for name, role, path, status in ERROR_PAGES]
    failures, count = [], 0
    width, height = VIEWPORTS[viewport]
    for role in ("anonymous", "annotator", "reviewer", "admin", "several"):
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=f"{language}-FR"
        )
        jar = [{"name": "django_language", "value": language, "url": live_server.url}]
        if role != "anonymous":
            jar.append({"name": "sessionid", "value": cookies[role], "url": live_server.url})
        context.add_cookies(jar)
        for who, label, url, status in visits:
            if who != role:
                continue
            shot = folder and folder / f"{language}-{viewport}-{role}-{label}.png"
            problems = visit(context, live_server.url + url, shot, status)
            count += 1
            failures += [f"{url} [{role}, {viewport}, {language}]: {p}" for p in problems]
        context.close()
    assert count == len(visits)
    assert failures == [], "\n".join(failures)
