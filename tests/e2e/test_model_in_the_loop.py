"""Journey (issue 15): in an adversarial campaign with the lexical model, an annotator adds a
question the model answers (not fooled), rephrases it until the model is fooled, and sends the
paragraph; a predict server that is too slow leaves the page saying "model unavailable" while
the work goes on."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import ModelAttempt, Question
from annotation.services.campaigns import campaign_create
from core.roles import Role
from evaluation.services.model_loop.campaign_model import campaign_model_set
from tests.e2e.articles import one_article
from tests.e2e.test_annotate import PASSWORD, TEXT, drag_select
from tests.evaluation.predict_servers import Slow, serving
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

OCEAN = "Dans quel océan se jette la Loire ?"  # the lexical model answers "Atlantique"
REPHRASED = "Dans quoi se jette-t-elle à Saint-Nazaire ?"  # "Atlantique, où elle se jette"
LENGTH = "Combien de kilomètres parcourt la Loire ?"  # "1": F1 50 against "1 006 kilomètres"
MOUTH = "Où la Loire se jette-t-elle ?"  # "Saint": F1 0 against "Saint-Nazaire"


@pytest.fixture
def paragraph(db):
    article = one_article("Loire", TEXT)
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    return article.paragraphs.get()


def adversarial(**model):
    campaign = campaign_create(name="Contre le modèle", splits=["dev"])
    settings = {"model_mode": "adversarial", "model_fooling_target": 1} | model
    return campaign_model_set(campaign=campaign, data=settings)


def start(page, live_server):
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("e2e-ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Next paragraph").click()
    expect(page).to_have_url(re.compile(r"/annotate/leases/\d+/$"))


def add(page, question, answer):
    drag_select(page, answer)
    page.locator("#question-text").fill(question)
    page.get_by_role("button", name="Add the question").click()


@pytest.mark.both_backends
def test_an_annotator_rephrases_until_the_model_is_fooled(page, live_server, paragraph):
    campaign = adversarial(model_kind="lexical", model_f1_threshold=40)
    start(page, live_server)
    expect(page.locator(".model-banner")).to_contain_text(
        "Write at least 1 question that fools it: its answer overlaps yours under 40% F1."
    )
    expect(page.locator("#fooling-counter")).to_have_text("0 / 1 fooling the model")

    add(page, OCEAN, "Atlantique")
    line = page.locator("#question-list .model-line").first
    expect(line).to_contain_text("Model (lexical): Atlantique · F1 100 · not fooled · attempt 1")
    expect(line).to_contain_text("Edit it and rephrase to fool the model.")
    expect(page.locator("#paragraph mark.model-mark")).to_have_text("Atlantique")
    expect(page.locator("#paragraph mark.answer-mark.model-mark")).to_have_count(1)

    # Rephrased: Edit, new words, Enter. The same question, its second attempt.
    page.locator("#question-list .question-item").first.get_by_role("button", name="Edit").click()
    page.locator("#question-text").fill(REPHRASED)
    page.locator("#question-text").press("Enter")
    expect(line).to_contain_text(
        "Model (lexical): Atlantique, où elle se jette · F1 33 · fooled · attempt 2"
    )
    expect(page.locator("#fooling-counter")).to_have_text("1 / 1 fooling the model")
    expect(page.locator("#paragraph mark.model-mark")).to_have_text(
        ["Atlantique", ", où elle se jette"]
    )

    add(page, LENGTH, "1 006 kilomètres")
    add(page, MOUTH, "Saint-Nazaire")
    lines = page.locator("#question-list .model-line")
    expect(lines.nth(1)).to_contain_text("Model (lexical): 1 · F1 50 · not fooled · attempt 1")
    expect(lines.nth(2)).to_contain_text("Model (lexical): Saint · F1 0 · fooled · attempt 1")
    expect(page.locator("#fooling-counter")).to_have_text("2 / 1 fooling the model")
    page.get_by_role("button", name="Send the paragraph").click()
    expect(page.get_by_text("Sent. Thank you!")).to_be_visible()

    stored = list(Question.objects.filter(campaign=campaign).order_by("position"))
    assert [
        (q.text, q.model_attempts, q.model_exact, q.model_f1, q.model_fooled) for q in stored
    ] == [
        (REPHRASED, 2, 0.0, 33.33, True),
        (LENGTH, 1, 0.0, 50.0, False),
        (MOUTH, 1, 0.0, 0.0, True),
    ]
    attempts = ModelAttempt.objects.filter(question=stored[0]).order_by("number")
    assert [(a.number, a.text, a.model_answer, a.f1, a.fooled) for a in attempts] == [
        (1, OCEAN, "Atlantique", 100.0, False),
        (2, REPHRASED, "Atlantique, où elle se jette", 33.33, True),
    ]
    assert stored[0].model_attempt == attempts[1]
    assert attempts[1].model_answer_start == TEXT.index("Atlantique")
    assert page.console_problems == []


@pytest.mark.both_backends
def test_past_the_attempts_limit_the_page_says_when_to_ask_again(
    page, live_server, paragraph, settings
):
    """The server refuses a third attempt in a minute (429): the page says what it said, not
    that the model is down, and the questions are kept and sent all the same."""
    settings.MODEL_ATTEMPTS_RATE = "2/minute"
    campaign = adversarial(model_kind="lexical", model_f1_threshold=40)
    start(page, live_server)
    add(page, OCEAN, "Atlantique")
    add(page, LENGTH, "1 006 kilomètres")
    add(page, MOUTH, "Saint-Nazaire")
    lines = page.locator("#question-list .model-line")
    expect(lines).to_have_count(3)
    expect(lines.nth(2)).to_have_text(
        re.compile(
            r"^You asked the model too many questions in a short time\. "
            r"Try again in (60|59|58) seconds\.$"
        )
    )
    expect(lines.nth(0)).to_contain_text("Model (lexical")
    page.get_by_role("button", name="Send the paragraph").click()
    expect(page.get_by_text("Sent. Thank you!")).to_be_visible()
    stored = Question.objects.filter(campaign=campaign).order_by("position")
    assert [(q.text, q.model_attempts) for q in stored] == [(OCEAN, 1), (LENGTH, 1), (MOUTH, 0)]
    assert ModelAttempt.objects.count() == 2
    # Chromium reports every refused request; the page itself raised nothing.
    assert page.console_problems == [
        "Failed to load resource: the server responded with a status of 429 (Too Many Requests)"
    ]


@pytest.fixture
def slow_server():
    with serving(Slow) as url:
        yield url


@pytest.mark.both_backends
def test_a_slow_model_says_unavailable_and_nothing_is_lost(
    page, live_server, paragraph, slow_server, settings
):
    settings.MODEL_LOOP_TIMEOUT_SECONDS = 0.5
    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]  # the slow server is on this machine
    campaign = adversarial(model_kind="server", model_url=slow_server)
    start(page, live_server)
    add(page, OCEAN, "Atlantique")
    # The next question is typed while the model is asked: nothing waits for it.
    page.locator("#question-text").fill(LENGTH)
    expect(page.locator("#question-list .model-line")).to_have_text(
        "Model unavailable: go on, your question is kept."
    )
    expect(page.locator("#question-text")).to_have_value(LENGTH)
    drag_select(page, "1 006 kilomètres")
    page.locator("#question-text").press("Enter")
    add(page, MOUTH, "Saint-Nazaire")
    expect(page.locator("#question-list .model-line")).to_have_text(
        ["Model unavailable: go on, your question is kept."] * 3
    )
    page.get_by_role("button", name="Send the paragraph").click()
    expect(page.get_by_text("Sent. Thank you!")).to_be_visible()
    stored = Question.objects.filter(campaign=campaign).order_by("position")
    assert [(q.text, q.model_attempts, q.model_fooled) for q in stored] == [
        (OCEAN, 1, None),
        (LENGTH, 1, None),
        (MOUTH, 1, None),
    ]
    assert set(ModelAttempt.objects.values_list("status", flat=True)) == {"unavailable"}
    assert page.console_problems == []


def test_a_tiny_transformer_served_by_a_real_worker_answers_on_the_page(
    page, live_server, redis_worker_factory, settings, tmp_path
):
    """A fine-tuned checkpoint (a tiny BERT trained in the test) of a finished baseline run,
    served by the real worker through the real Redis, answers as it does in this process."""
    from evaluation.models import BaselineRun
    from exports.models import Release
    from tests.e2e.test_review import drag_select_span
    from tests.evaluation.test_model_loop import CONTEXT, QUESTION, trained_zola_checkpoint

    folder, expected = trained_zola_checkpoint(tmp_path / "zola")
    one_article("Zola", CONTEXT)
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    release = Release.objects.create(name="r", version="1", status=Release.Status.SUCCEEDED)
    settings.MODELS_DIR = tmp_path  # the folder's name relative to it is the run's model
    run = BaselineRun.objects.create(
        release=release, kind="evaluate", model=folder.name, status="succeeded"
    )
    # The worker imports torch and loads the model for the first question: on a loaded machine
    # (CI beside other suites) that took over 12 s, and the page said "Model unavailable". The
    # longest wait the setting allows; the test checks the answer, not the speed.
    settings.MODEL_LOOP_TIMEOUT_SECONDS = 60.0
    redis_worker_factory(MODEL_LOOP_SERVE_IDLE_SECONDS="5", MODELS_DIR=str(tmp_path))
    campaign = campaign_create(name="Avec un transformer", splits=["dev"])
    campaign_model_set(campaign=campaign, data={"model_kind": "run", "model_run": run.pk})

    start(page, live_server)
    expect(page.locator(".model-banner")).to_have_text(
        "A model answers each question you add: its answer is shown under the question and "
        "marked in the text."
    )
    expect(page.locator("#question-counter")).to_contain_text("/")  # the page script runs
    drag_select_span(page, CONTEXT, "Médan-sur-Seine", "#answer-preview")
    page.locator("#question-text").fill(QUESTION)
    page.get_by_role("button", name="Add the question").click()
    text, start_at = expected[QUESTION]
    assert (text, start_at) == ("Médan-sur-Seine", 102)
    expect(page.locator("#question-list .model-line")).to_contain_text(
        f"Model (baseline run {run.pk} · zola): Médan-sur-Seine · F1 100 · not fooled · attempt 1",
    )
    expect(page.locator("#paragraph mark.model-mark")).to_have_text("Médan-sur-Seine")
    attempt = ModelAttempt.objects.get()
    assert (attempt.model_answer, attempt.model_answer_start, attempt.f1) == (text, 102, 100.0)
    assert page.console_problems == []
