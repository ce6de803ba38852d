"""Issue 24 §1 on the additional-answer page: a selection that cannot reach the server is kept
in the browser, said beside the answer, restored on reload and sent when the server answers
again; a refusal is said at once and not retried.

As in test_draft_resilience.py (the annotation page), the server's failures are made in the
browser (`page.route` aborts or answers 500 to the draft PUTs) and the page's timers run on
Playwright's clock (`clock.run_for` jumps ahead instead of sleeping).
"""

# ruff: noqa: F811 (the fixture imported from test_additional_answer is a parameter here)

import json
import re

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, Lease
from annotation.services.work import lease_release
from tests.e2e.conftest import keep_screenshot, settle
from tests.e2e.test_additional_answer import TEXT, open_next_question, to_answer  # noqa: F401
from tests.e2e.test_review import drag_select_span

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST, SECOND = "Gustave Eiffel", "l’Exposition universelle de 1889"
WORDS = {
    "fr": {
        "trouble": "Votre réponse n’arrive pas au serveur.",
        "kept": "Elle est gardée dans ce navigateur",
        "retrying": "Nouvel essai",
        "saved": "Brouillon enregistré",
        "retry": "Réessayer maintenant",
        "refused": "Le serveur refuse d’enregistrer ce brouillon.",
    },
    "en": {
        "trouble": "Your answer is not reaching the server.",
        "kept": "It is kept in this browser",
        "retrying": "Retrying…",
        "saved": "Draft saved at",
        "retry": "Try again now",
        "refused": "The server refuses to save this draft.",
    },
}


def is_draft_put(request) -> bool:
    return request.method == "PUT" and request.url.endswith("/draft/")


def draft_saved(response) -> bool:
    return is_draft_put(response.request) and response.status == 200


def local_copy(page) -> dict | None:
    lease = re.search(r"/annotate/leases/(\d+)/", page.url).group(1)
    raw = page.evaluate("(key) => localStorage.getItem(key)", f"answer-draft:{lease}")
    return None if raw is None else json.loads(raw)


def only_failed_loads(problems: list[str]) -> bool:
    return all("Failed to load resource" in problem for problem in problems)


def answer_page(browser, live_server, campaign, *, width, height, language):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    problems = []
    page.on("console", lambda m: m.type == "error" and problems.append(m.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.console_problems = problems
    page.clock.install()  # time flows; the test may jump ahead
    open_next_question(page, live_server, campaign)
    if language == "en":
        context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
        page.reload()
    expect(page.locator("#send-answer")).to_be_disabled()  # the script ran
    return context, page


@pytest.mark.parametrize(
    ("width", "height", "language"),
    [(1366, 768, "fr"), (390, 844, "en")],
    ids=["laptop-fr", "phone-en"],
)
def test_an_outage_keeps_the_selection_in_the_browser_and_the_server_gets_it_back(
    browser, live_server, to_answer, width, height, language
):
    campaign, questions = to_answer
    words = WORDS[language]
    context, page = answer_page(
        browser, live_server, campaign, width=width, height=height, language=language
    )
    header_height = page.locator(".annotate-header").bounding_box()["height"]
    with page.expect_response(draft_saved):
        drag_select_span(page, TEXT, FIRST, "#answer-preview")
    expect(page.locator("#draft-status")).to_contain_text(words["saved"])
    # The status has its own line: saving and saved never move the paragraph mid-selection.
    assert page.locator(".annotate-header").bounding_box()["height"] == header_height
    lease = Lease.objects.get(kind="answer")
    first = TEXT.index(FIRST)
    assert (lease.draft["start"], lease.draft["end"]) == (first, first + len(FIRST))

    # The server becomes unreachable: every draft PUT fails on the network.
    def unreachable(route):
        if is_draft_put(route.request):
            route.abort()
        else:
            route.continue_()

    page.route("**/draft/", unreachable)
    drag_select_span(page, TEXT, SECOND, "#answer-preview")
    notice = page.locator("#draft-notice")
    expect(page.locator("#draft-status")).to_contain_text(words["retrying"])
    expect(notice).to_be_hidden()  # a blip of a second is not worth a warning
    page.clock.run_for(5_500)
    expect(notice).to_be_visible()
    expect(page.locator("#draft-notice-title")).to_have_text(words["trouble"])
    expect(notice).to_contain_text(words["kept"])
    expect(notice.get_by_role("button", name=words["retry"])).to_be_visible()
    expect(notice).to_be_in_viewport()  # where the annotator looks, by the answer
    keep_screenshot(page, f"answer-draft-trouble-{language}-{width}.png")
    second = TEXT.index(SECOND)
    copy = local_copy(page)
    assert (copy["draft"]["start"], copy["draft"]["end"]) == (second, second + len(SECOND))
    lease.refresh_from_db()
    assert lease.draft["start"] == first
    assert copy["rev"] > lease.draft["rev"]

    # Still failing, with a 500 now: a reload shows what this browser kept.
    page.unroute("**/draft/", unreachable)

    def failing(route):
        if is_draft_put(route.request):
            route.fulfill(status=500, content_type="text/plain", body="Internal Server Error")
        else:
            route.continue_()

    page.route("**/draft/", failing)
    page.reload()
    expect(page.locator("#answer-preview")).to_have_text(SECOND)
    expect(page.locator("#paragraph mark.answer-candidate")).to_have_text(SECOND)
    expect(page.locator("#send-answer")).to_be_enabled()
    expect(page.locator("#draft-status")).to_contain_text(words["retrying"])
    page.clock.run_for(5_500)
    expect(page.locator("#draft-notice-title")).to_have_text(words["trouble"])
    lease.refresh_from_db()
    assert lease.draft["start"] == first

    # The server answers again: the next retry saves the selection and the notice goes. The
    # page's clock moves a second at a time: a try still on its way back with a 500 when the
    # route is lifted (a loaded machine) schedules its next one from that later moment, so the
    # save comes within two of the longest waits between tries, not one.
    page.unroute("**/draft/", failing)
    for _ in range(30):
        page.clock.run_for(1_000)
        page.wait_for_timeout(100)  # real time for a request on its way
        lease.refresh_from_db()
        if lease.draft["start"] == second:
            break
    expect(notice).to_be_hidden()
    expect(page.locator("#draft-status")).to_contain_text(words["saved"])
    lease.refresh_from_db()
    assert (lease.draft["start"], lease.draft["end"]) == (second, second + len(SECOND))
    assert lease.draft["rev"] == local_copy(page)["rev"]

    # Sent: the answer is the one kept through the outage, and the copy here goes.
    lease_url = page.url
    page.locator("#send-answer").click()
    expect(page.locator("#question-to-answer")).to_have_text("Qui la construisit ?")
    answer = Answer.objects.get(kind="additional")
    assert (answer.question_id, answer.text, answer.answer_start) == (
        questions[0].pk,
        SECOND,
        second,
    )
    lease_id = re.search(r"/leases/(\d+)/", lease_url).group(1)
    assert page.evaluate("(k) => localStorage.getItem(k)", f"answer-draft:{lease_id}") is None
    assert only_failed_loads(page.console_problems), page.console_problems
    settle(page)
    context.close()


def test_a_refusal_is_said_at_once_and_not_retried(browser, live_server, to_answer):
    campaign, _questions = to_answer
    context, page = answer_page(
        browser, live_server, campaign, width=390, height=844, language="fr"
    )
    header_height = page.locator(".annotate-header").bounding_box()["height"]
    with page.expect_response(draft_saved):
        drag_select_span(page, TEXT, FIRST, "#answer-preview")
    expect(page.locator("#draft-status")).to_contain_text(WORDS["fr"]["saved"])
    # The status has its own line: saving and saved never move the paragraph mid-selection.
    assert page.locator(".annotate-header").bounding_box()["height"] == header_height
    lease_release(lease=Lease.objects.get(kind="answer"), reason="skip")  # another tab
    puts = []
    page.on("request", lambda request: is_draft_put(request) and puts.append(request))
    with page.expect_response(lambda r: is_draft_put(r.request) and r.status == 409):
        drag_select_span(page, TEXT, SECOND, "#answer-preview")
    expect(page.locator("#draft-notice-title")).to_have_text(WORDS["fr"]["refused"])
    expect(page.locator("#draft-notice")).to_contain_text("notez-la avant de quitter")
    expect(page.locator("#draft-retry")).to_be_hidden()
    keep_screenshot(page, "answer-draft-refused-fr-390.png")
    assert local_copy(page)["draft"]["start"] == TEXT.index(SECOND)
    page.clock.run_for(120_000)
    assert len(puts) == 1  # never retried
    assert only_failed_loads(page.console_problems), page.console_problems
    settle(page)
    context.close()
