"""Issue 24: a draft that cannot reach the server is kept in the browser, said beside the
questions, restored on reload and sent when the server answers again; a refusal is not retried.

The server's failures are made in the browser (`page.route` aborts or answers 500 to the draft
PUTs): the page cannot tell them from a real outage, and the rest of the site keeps working.
The page's timers (the notice after 5 s, the retries' backoff) run on Playwright's clock: time
flows as usual, and a test jumps ahead (`clock.run_for`) instead of sleeping.
"""

import json
import re

import pytest
from playwright.sync_api import expect

from annotation.models import Lease
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_release
from core.roles import Role
from tests.e2e.articles import one_article
from tests.e2e.test_review import drag_select_span
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = (
    "Le Rhône naît au glacier du Rhône, dans le canton du Valais, traverse le lac Léman à "
    "Genève puis rejoint la Saône à Lyon avant de se jeter dans la Méditerranée en Camargue."
)
PASSWORD = "a long e2e password"
QUESTIONS = [
    ("Où le Rhône naît-il ?", "glacier du Rhône"),
    ("Quel lac le Rhône traverse-t-il ?", "lac Léman"),
    ("Dans quelle mer le Rhône se jette-t-il ?", "Méditerranée"),
]
NOTICE_TROUBLE = "Vos questions n’arrivent pas au serveur."
NOTICE_REFUSED = "Le serveur refuse d’enregistrer ce brouillon."


def is_draft_put(request) -> bool:
    return request.method == "PUT" and request.url.endswith("/draft/")


def draft_saved(response) -> bool:
    """A draft PUT the server accepted."""
    return is_draft_put(response.request) and response.status == 200


def select_phrase(page, phrase: str) -> None:
    """Select `phrase` (its first occurrence) in the paragraph with a real mouse drag."""
    expect(page.locator("#question-counter")).to_contain_text("/")  # the page script runs
    text = page.evaluate("JSON.parse(document.getElementById('paragraph-source').textContent)")
    drag_select_span(page, text, phrase, "#answer-preview")


def add_question(page, text: str, answer: str, *, saved: bool = True) -> None:
    """Write a question and add it; with `saved`, wait for the server to take the draft."""
    select_phrase(page, answer)
    page.locator("#question-text").fill(text)
    if not saved:
        page.locator("#add-question").click()
        return
    with page.expect_response(draft_saved):
        page.locator("#add-question").click()


def local_copy(page) -> dict | None:
    """This browser's copy of the lease's draft (localStorage), or None."""
    lease = re.search(r"/annotate/leases/(\d+)/", page.url).group(1)
    raw = page.evaluate("(key) => localStorage.getItem(key)", f"annotate-draft:{lease}")
    return None if raw is None else json.loads(raw)


def listed(page) -> list[str]:
    return page.locator("#question-list .question-text").all_inner_texts()


def only_failed_loads(problems: list[str]) -> bool:
    """The console's errors are the requests made to fail, nothing else."""
    return all("Failed to load resource" in problem for problem in problems)


@pytest.fixture
def paragraph_page(db, page, live_server):
    """An annotator on a freshly claimed paragraph's page."""
    one_article("Rhône", TEXT)
    campaign_create(name="Questions", splits=["dev"])
    UserFactory(username="e2e-drafts", roles=[Role.ANNOTATOR], password=PASSWORD)
    page.clock.install()  # time flows; a test may jump ahead
    sign_in(page, live_server, "e2e-drafts", PASSWORD)
    page.get_by_role("button", name="Paragraphe suivant").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))
    return page


def test_an_outage_keeps_the_questions_in_the_browser_and_the_server_gets_them_back(
    paragraph_page,
):
    page = paragraph_page
    add_question(page, *QUESTIONS[0])  # the server has the first question
    lease = Lease.objects.get()
    assert [q["text"] for q in lease.draft["questions"]] == [QUESTIONS[0][0]]

    # The server becomes unreachable: every draft PUT fails on the network.
    def unreachable(route):
        if is_draft_put(route.request):
            route.abort()
        else:
            route.continue_()

    page.route("**/draft/", unreachable)
    add_question(page, *QUESTIONS[1], saved=False)
    page.locator("#question-text").fill("Quelle ville le Rhône")  # being written

    notice = page.locator("#draft-notice")
    expect(page.locator("#draft-status")).to_contain_text("Nouvel essai")  # a first failure
    expect(notice).to_be_hidden()  # not yet: a blip of a second is not worth a warning
    page.clock.run_for(5_500)
    expect(notice).to_be_visible()
    expect(page.locator("#draft-notice-title")).to_have_text(NOTICE_TROUBLE)
    expect(notice).to_contain_text("gardées dans ce navigateur")
    expect(notice.get_by_role("button", name="Réessayer maintenant")).to_be_visible()
    # Where the annotator looks: right above the list of their questions, on screen.
    assert notice.evaluate(
        "(n) => n.nextElementSibling.contains(document.getElementById('question-counter'))"
    )
    expect(notice).to_be_in_viewport()

    copy = local_copy(page)
    assert [q["text"] for q in copy["draft"]["questions"]] == [QUESTIONS[0][0], QUESTIONS[1][0]]
    assert copy["draft"]["current"]["text"] == "Quelle ville le Rhône"
    assert copy["rev"] == copy["draft"]["rev"]
    lease.refresh_from_db()
    assert [q["text"] for q in lease.draft["questions"]] == [QUESTIONS[0][0]]
    assert copy["rev"] > lease.draft["rev"]

    # Still failing, now with a 500: a reload shows what this browser kept, not the server's.
    page.unroute("**/draft/", unreachable)

    def failing(route):
        if is_draft_put(route.request):
            route.fulfill(status=500, content_type="text/plain", body="Internal Server Error")
        else:
            route.continue_()

    page.route("**/draft/", failing)
    page.reload()
    expect(page.locator("#question-list li")).to_have_count(2)
    assert listed(page) == [QUESTIONS[0][0], QUESTIONS[1][0]]
    expect(page.locator("#question-text")).to_have_value("Quelle ville le Rhône")
    expect(page.locator("#draft-status")).to_contain_text("Nouvel essai")
    page.clock.run_for(5_500)
    expect(page.locator("#draft-notice-title")).to_have_text(NOTICE_TROUBLE)
    lease.refresh_from_db()
    assert [q["text"] for q in lease.draft["questions"]] == [QUESTIONS[0][0]]

    # The server answers again: the next retry saves everything and the notice goes. The
    # page's clock moves a second at a time: a try still on its way back with a 500 when the
    # route is lifted (a loaded machine) schedules its next one from that later moment, so the
    # save comes within two of the longest waits between tries, not one.
    page.unroute("**/draft/", failing)
    for _ in range(30):
        page.clock.run_for(1_000)
        page.wait_for_timeout(100)  # real time for a request on its way
        lease.refresh_from_db()
        if len(lease.draft["questions"]) == 2:
            break
    expect(page.locator("#draft-notice")).to_be_hidden()
    expect(page.locator("#draft-status")).to_contain_text("Brouillon enregistré")
    lease.refresh_from_db()
    assert [q["text"] for q in lease.draft["questions"]] == [QUESTIONS[0][0], QUESTIONS[1][0]]
    assert lease.draft["current"]["text"] == "Quelle ville le Rhône"
    assert lease.draft["rev"] == local_copy(page)["rev"]

    # Sent: the copy in this browser is forgotten.
    select_phrase(page, "Méditerranée")
    page.locator("#question-text").fill(QUESTIONS[2][0])
    page.get_by_role("button", name="Envoyer le paragraphe").click()
    expect(page.get_by_text("Envoyé. Merci !")).to_be_visible()
    assert local_copy(page) is None
    assert only_failed_loads(page.console_problems), page.console_problems


def test_a_refusal_is_said_at_once_and_not_retried(paragraph_page):
    page = paragraph_page
    add_question(page, *QUESTIONS[0])
    lease = Lease.objects.get()
    lease_release(lease=lease, reason="skip")  # given back meanwhile (another tab)

    puts = []
    page.on("request", lambda request: is_draft_put(request) and puts.append(request))
    with page.expect_response(lambda r: is_draft_put(r.request) and r.status == 409):
        add_question(page, *QUESTIONS[1], saved=False)
    expect(page.locator("#draft-notice-title")).to_have_text(NOTICE_REFUSED)
    expect(page.locator("#draft-notice")).to_contain_text("Cet élément a été rendu.")
    expect(page.locator("#draft-notice")).to_contain_text("copiez-les avant de quitter")
    expect(page.locator("#draft-retry")).to_be_hidden()
    expect(page.locator("#draft-status")).to_have_text("Cet élément a été rendu.")
    assert [q["text"] for q in local_copy(page)["draft"]["questions"]] == [
        QUESTIONS[0][0],
        QUESTIONS[1][0],
    ]
    # Never retried: two minutes later, the next request is the one a new change sends.
    # (Playwright reports a page's requests in order: a retry would come before it.)
    page.clock.run_for(120_000)
    with page.expect_response(lambda r: is_draft_put(r.request) and r.status == 409):
        page.locator("#question-text").fill("Une autre ?")
    assert len(puts) == 2
    assert json.loads(puts[-1].post_data)["draft"]["current"]["text"] == "Une autre ?"
    assert only_failed_loads(page.console_problems), page.console_problems


def test_on_load_the_copy_with_the_higher_revision_wins(paragraph_page):
    page = paragraph_page
    add_question(page, *QUESTIONS[0])
    lease = Lease.objects.get()
    server_rev = lease.draft["rev"]
    assert local_copy(page)["rev"] == server_rev

    def plant(rev: int, question: str) -> None:
        draft = {**lease.draft, "rev": rev}
        draft["questions"] = [{**lease.draft["questions"][0], "text": question}]
        page.evaluate(
            "([key, copy]) => localStorage.setItem(key, JSON.stringify(copy))",
            [f"annotate-draft:{lease.pk}", {"rev": rev, "changedAt": 0, "draft": draft}],
        )

    # An older copy (this browser fell behind another one): the server's draft wins.
    plant(server_rev - 1, "Question d'un vieil onglet ?")
    page.reload()
    expect(page.locator("#question-list li")).to_have_count(1)
    assert listed(page) == [QUESTIONS[0][0]]

    # A newer copy (changes the server never got): it wins, and goes to the server at once.
    plant(server_rev + 1, "Question jamais envoyée ?")
    with page.expect_response(draft_saved):
        page.reload()
    assert listed(page) == ["Question jamais envoyée ?"]
    lease.refresh_from_db()
    assert lease.draft["rev"] == server_rev + 1
    assert [q["text"] for q in lease.draft["questions"]] == ["Question jamais envoyée ?"]
    assert page.console_problems == []


def test_a_hanging_save_shows_the_notice_and_try_again_now_sends_it_anew(paragraph_page):
    page = paragraph_page
    add_question(page, *QUESTIONS[0])
    held = []  # draft PUTs that get no answer at all: a server that hangs
    hanging = True

    def hang(route):
        if hanging and is_draft_put(route.request):
            held.append(route)
        else:
            route.continue_()

    page.route("**/draft/", hang)
    with page.expect_request(is_draft_put):
        add_question(page, *QUESTIONS[1], saved=False)
    page.clock.run_for(5_500)
    expect(page.locator("#draft-notice-title")).to_have_text(NOTICE_TROUBLE)
    assert len(held) == 1  # still on its way: no second request overtook it

    hanging = False  # the server answers again; the request on its way still hangs
    with page.expect_response(draft_saved):
        page.get_by_role("button", name="Réessayer maintenant").click()
    expect(page.locator("#draft-notice")).to_be_hidden()
    lease = Lease.objects.get()
    assert [q["text"] for q in lease.draft["questions"]] == [QUESTIONS[0][0], QUESTIONS[1][0]]
    assert len(held) == 1
