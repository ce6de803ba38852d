"""The question page names who gave the span its original answer shows (issue 12, item 13).

After a reviewer corrects the span, the original answer holds the corrected version: the page
must say so ("corrected by rev in version 2"), not "original · ann0".
"""

from decimal import Decimal

import pytest
from django.test.html import parse_html

from annotation.services.audit import revision_add
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory


@pytest.fixture
def question(paragraphs, annotators):
    campaign = campaign_create(name="Audited", splits=["dev"], review_rate=Decimal("1"))
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    return questions_submit(lease=lease, questions=good_questions(lease.paragraph, 3))[0]


def review(question, reviewer, **data):
    lease = review_claim_next(campaign=question.campaign, reviewer=reviewer).lease
    assert lease.question_id == question.pk
    review_submit(lease=lease, data=data)


def answers_list(client, question):
    """The page's list of answers, parsed (whitespace normalized), in English."""
    client.cookies["django_language"] = "en"
    html = client.get(f"/questions/{question.uuid}/").content.decode()
    start = html.index('<ul id="question-answers">')
    return parse_html(html[start : html.index("</ul>", start) + 5])


def item(answer: str, start: int, origin: str):
    return parse_html(
        f'<li data-kind="original"><q>{answer}</q> (at {start}) · '
        f'<span class="answer-origin">{origin}</span></li>'
    )


def test_an_uncorrected_answer_is_its_authors(client, reviewer, question):
    client.force_login(reviewer)
    answers = answers_list(client, question)
    assert answers.count(item("Loire", 3, "original · ann0")) == 1


def test_a_corrected_span_names_its_reviewer_and_version(client, reviewer, question):
    # The author answered « Loire » (at 3); the reviewer widens it to « La Loire ».
    assert (question.answers.get().text, question.answers.get().answer_start) == ("Loire", 3)
    review(question, reviewer, verdict="correct", answer_start=0, answer_text="La Loire")
    client.force_login(reviewer)
    answers = answers_list(client, question)
    corrected = "original answer by ann0, corrected by rev in version 2"
    assert answers.count(item("La Loire", 0, corrected)) == 1


def test_a_later_version_that_keeps_the_span_still_credits_the_correction(
    client, reviewer, question
):
    review(question, reviewer, verdict="correct", answer_start=0, answer_text="La Loire")
    # Version 3 rewords the question only: the span is still the one version 2 gave.
    other = UserFactory(username="rev2", roles=[Role.REVIEWER])
    revision_add(
        question=question,
        editor=other,
        text="Quel est le plus long fleuve de France ?",
        answer_start=0,
        answer_text="La Loire",
    )
    client.force_login(reviewer)
    answers = answers_list(client, question)
    corrected = "original answer by ann0, corrected by rev in version 2"
    assert answers.count(item("La Loire", 0, corrected)) == 1


def test_a_question_only_correction_leaves_the_answer_to_its_author(client, reviewer, question):
    review(question, reviewer, verdict="correct", question_text="Quel est le plus long fleuve ?")
    client.force_login(reviewer)
    answers = answers_list(client, question)
    assert answers.count(item("Loire", 3, "original · ann0")) == 1
