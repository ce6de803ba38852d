"""An admin makes a question gold from its page (issue 28), on a laptop and a phone, in French
and English. `$SCREENSHOTS_DIR` keeps a screenshot of each for a person to look at."""

import pytest
from playwright.sync_api import expect

from annotation.models import GoldQuestion
from core.roles import Role
from tests.annotation.conftest import paragraphs  # noqa: F401, F811 (a fixture)
from tests.annotation.test_gold import written_and_answered
from tests.e2e.conftest import keep_screenshot
from tests.e2e.test_review_drawn import PASSWORD, log_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SAID = {
    "fr": ("En faire une question de référence", "La question est une question de référence."),
    "en": ("Mark as gold", "The question is gold."),
}


@pytest.mark.parametrize(("language", "width", "height"), [("fr", 1366, 768), ("en", 390, 844)])
def test_an_admin_marks_a_question_gold_from_its_page(
    browser, live_server, paragraphs, language, width, height  # noqa: F811
):
    people = {name: UserFactory(username=name, roles=[Role.ANNOTATOR]) for name in "abc"}
    people["rev"] = UserFactory(username="rev", roles=[Role.REVIEWER])
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password=PASSWORD)
    question = written_and_answered(people, paragraphs)[0]
    context = browser.new_context(
        locale="fr-FR" if language == "fr" else "en-US",
        viewport={"width": width, "height": height},
    )
    page = context.new_page()
    log_in(page, live_server, "e2e-admin")
    page.goto(f"{live_server.url}/questions/{question.uuid}/")
    button, done = SAID[language]

    page.get_by_role("button", name=button).click()

    expect(page.locator("ul.messages")).to_contain_text(done)
    expect(page.locator("#gold-state q")).to_have_text("Loire")
    keep_screenshot(page, f"question-gold-{language}-{width}.png", full_page=True)
    assert list(GoldQuestion.objects.values_list("question_id", "active")) == [(question.pk, True)]
    # The section fits the screen: no sideways scroll on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
