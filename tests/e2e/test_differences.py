"""Journey (issue 16, item 2): a reviewer labels three sampled dev questions with the keyboard
alone (1–4 tick a label, Enter saves and opens the next one) and the table shows them."""

import pytest
from playwright.sync_api import expect

from annotation.models import Answer, DifferenceLabelling, Question
from annotation.selectors.differences import difference_sample
from annotation.services.campaigns import campaign_create
from core.roles import Role
from tests.e2e.articles import one_article
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# An emoji before the answers (two UTF-16 units, one code point): the highlight must still
# fall on the answer.
TEXT = (
    "Le canal du Midi 🚤 relie Toulouse à la mer Méditerranée. Pierre-Paul Riquet en dirigea "
    "les travaux à partir de 1666 ; il fut inauguré en 1681, après sa mort."
)
ANSWERS = ["Toulouse", "Pierre-Paul Riquet", "1666", "1681"]
PASSWORD = "a long e2e password"


@pytest.fixture
def sample(db):
    """One dev article with four answered questions: all four are sampled."""
    paragraph = one_article("Canal du Midi", TEXT).paragraphs.get()
    campaign = campaign_create(name="Questions", splits=["dev"])
    author = UserFactory(username="e2e-author", roles=[Role.ANNOTATOR])
    UserFactory(username="e2e-rev", roles=[Role.REVIEWER], password=PASSWORD)
    for i, answer in enumerate(ANSWERS):
        question = Question.objects.create(
            campaign=campaign,
            paragraph=paragraph,
            author=author,
            position=i,
            text=f"Question {i} du canal ?",
            question_type="what",
        )
        Answer.objects.create(
            question=question,
            author=author,
            answer_start=TEXT.index(answer),
            text=answer,
            kind=Answer.Kind.ORIGINAL,
        )
    return [item.pk for item in difference_sample()]


def test_three_questions_labelled_with_the_keyboard_show_in_the_table(page, live_server, sample):
    assert len(sample) == 4
    sign_in(page, live_server, "e2e-rev", PASSWORD)
    page.goto(f"{live_server.url}/review/")
    page.locator("#differences-link").click()
    page.locator("#differences-start").click()
    expect(page).to_have_url(f"{live_server.url}/review/differences/questions/{sample[0]}/")

    keys = [["1"], ["2", "3", "4", "4"], []]  # 4 twice: ticked, then unticked
    for index, pressed in enumerate(keys):
        question = Question.objects.get(pk=sample[index])
        expect(page.locator("#difference-question")).to_have_text(question.text)
        answer = question.answers.get().text
        # The answer is highlighted, exactly, in the paragraph.
        expect(page.locator("#paragraph mark.answer-mark")).to_have_text(answer)
        page.locator("body").click(position={"x": 5, "y": 5})  # focus on nothing in particular
        for key in pressed:
            page.keyboard.press(key)
        page.keyboard.press("Enter")
        expect(page).to_have_url(
            f"{live_server.url}/review/differences/questions/{sample[index + 1]}/"
        )

    labels = {
        row.question_id: row.labels
        for row in DifferenceLabelling.objects.filter(labeller__username="e2e-rev")
    }
    assert labels == {
        sample[0]: ["synonymy"],
        sample[1]: ["world_knowledge", "syntactic_variation"],
        sample[2]: [],
    }

    page.locator("#differences-back").click()  # French page: decimal commas
    table = page.locator("#differences-table")
    expect(table.locator('tr[data-label="synonymy"] td[data-wave="all"]')).to_have_text(
        "33,3 % (1)"
    )
    expect(table.locator('tr[data-label="world_knowledge"] td[data-wave="1.0"]')).to_have_text(
        "33,3 % (1)"
    )
    expect(table.locator('tr[data-label="multiple_sentences"] td[data-wave="all"]')).to_have_text(
        "0,0 % (0)"
    )
    expect(table.locator('tr[data-label="none"] td[data-wave="all"]')).to_have_text("33,3 % (1)")
    expect(table.locator('tr[data-row="labelled"] td[data-wave="all"]')).to_have_text("3 / 4")
    assert page.console_problems == []
