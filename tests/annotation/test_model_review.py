"""Model in the loop, after writing (issue 15, item 3): a reviewer's correction of the span
scores the model again, the review page shows the model's answer and the attempts, and the
quality table gains each annotator's fooling rates.

The model's rows (round, attempts, the question's figures) are built directly here: how the
annotation page asks the model is tested with evaluation/services/model_loop/attempts.py. The paragraph is
tests/annotation/conftest.py's first one:

    La Loire est le plus long fleuve de France, avec 1 006 km. Elle prend sa source au mont
    Gerbier-de-Jonc 🌋 en Ardèche et se jette dans l'océan Atlantique à Saint-Nazaire.

Offsets are code points, counted by hand: « La Loire » 0, « Loire » 3, « Loire est » 3,
« le plus long fleuve de France » 13, « fleuve » 26, « plus long fleuve de France » 16.
The French normalization drops le, la, les, l', du, des, au, aux, un, une and punctuation.
"""

from decimal import Decimal

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.translation import override
from rest_framework.test import APIClient

from annotation.models import (
    Answer,
    Campaign,
    Lease,
    ModelAttempt,
    ModelKind,
    ModelRound,
    Question,
)
from annotation.services.campaigns import campaign_update
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from evaluation.services.model_loop.review import question_model_rescore
from tests.annotation.conftest import good_questions
from tests.annotation.test_review_pages import (
    body_rows,
    by_id,
    find_all,
    json_script,
    page,
    text_of,
)

LOIRE, LOIRE_WORD, LONGEST, FLEUVE, LONGEST_BARE = 0, 3, 13, 26, 16


# Fixtures and builders


@pytest.fixture
def looped(campaign):
    """Every question sampled for review; the campaign's first model is the lexical one."""
    campaign = campaign_update(campaign=campaign, review_rate=Decimal("1"))
    Campaign.objects.filter(pk=campaign.pk).update(model_kind=ModelKind.LEXICAL, model_round=1)
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def model_round(looped, admin_user):
    return ModelRound.objects.create(
        campaign=looped,
        number=1,
        model_kind=ModelKind.LEXICAL,
        label="Lexical baseline",
        f1_threshold=Decimal("40"),
        created_by=admin_user,
    )


@pytest.fixture
def written(looped, paragraphs, annotators):
    """ann0's three sampled questions on paragraphs[0]: « Loire », « fleuve », « prend »."""
    lease = lease_claim_next(campaign=looped, annotator=annotators[0]).lease
    return questions_submit(lease=lease, questions=good_questions(paragraphs[0]))


def attempt_add(question, model_round, number, *, text, model_answer, start, exact, f1, fooled):
    """One attempt of the question (answered, or unavailable when model_answer is None),
    against its current original answer."""
    answer = Answer.objects.get(question=question, kind=Answer.Kind.ORIGINAL)
    answered = model_answer is not None
    return ModelAttempt.objects.create(
        campaign_id=question.campaign_id,
        lease_id=question.lease_id,
        question=question,
        round=model_round,
        key=f"q{question.position}",
        number=number,
        text=text,
        answer_start=answer.answer_start,
        answer_text=answer.text,
        status=ModelAttempt.Status.ANSWERED if answered else ModelAttempt.Status.UNAVAILABLE,
        model_answer=model_answer or "",
        model_answer_start=start,
        exact_match=exact,
        f1=f1,
        fooled=fooled,
        milliseconds=12,
    )


def counts(question, attempt, *, attempts, exact, f1, fooled):
    """Store the question's model figures as the submission did."""
    Question.objects.filter(pk=question.pk).update(
        model_attempt=attempt,
        model_attempts=attempts,
        model_exact=exact,
        model_f1=f1,
        model_fooled=fooled,
    )


def figures(question) -> tuple:
    question = Question.objects.get(pk=question.pk)
    return (question.model_exact, question.model_f1, question.model_fooled)


def review(campaign, reviewer, data):
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    with override("en"):
        return review_submit(lease=lease, data=data)


@pytest.fixture
def loire_answered(written, model_round):
    """Question 0 (« Loire »): the model answered « La Loire », EM 100, F1 100, not fooled."""
    first = written[0]
    last = attempt_add(
        first,
        model_round,
        1,
        text=first.text,
        model_answer="La Loire",
        start=LOIRE,
        exact=100.0,
        f1=100.0,
        fooled=False,
    )
    counts(first, last, attempts=1, exact=100.0, f1=100.0, fooled=False)
    return first, last


# The correction scores the model again


def test_a_corrected_span_makes_a_not_fooled_question_fooled(
    looped, loire_answered, reviewer, paragraphs
):
    question, attempt = loire_answered
    text = paragraphs[0].text
    assert text[LONGEST : LONGEST + 29] == "le plus long fleuve de France"
    review(
        looped,
        reviewer,
        {
            "verdict": "correct",
            "answer_start": LONGEST,
            "answer_text": "le plus long fleuve de France",
        },
    )
    # « loire » against « plus long fleuve de france »: no word in common
    assert figures(question) == (0.0, 0.0, True)
    stored = Question.objects.get(pk=question.pk)
    assert (stored.status, stored.model_attempt_id, stored.model_attempts) == (
        "corrected",
        attempt.pk,
        1,
    )
    # The attempt keeps what the annotator saw
    attempt.refresh_from_db()
    assert (attempt.answer_start, attempt.answer_text, attempt.f1, attempt.fooled) == (
        LOIRE_WORD,
        "Loire",
        100.0,
        False,
    )


def test_a_corrected_span_makes_a_fooled_question_not_fooled(
    looped, written, model_round, reviewer, paragraphs
):
    # Question 1 (« fleuve »): the model answered « plus long fleuve de France »: 1 word of
    # its 5 is right, recall 1: F1 = 2 · 0.2 · 1 / 1.2 = 33.33 %, fooled (under 40)
    second = written[1]
    assert paragraphs[0].text[LONGEST_BARE : LONGEST_BARE + 26] == "plus long fleuve de France"
    last = attempt_add(
        second,
        model_round,
        1,
        text=second.text,
        model_answer="plus long fleuve de France",
        start=LONGEST_BARE,
        exact=0.0,
        f1=33.33,
        fooled=True,
    )
    counts(second, last, attempts=1, exact=0.0, f1=33.33, fooled=True)
    review(looped, reviewer, {"verdict": "approve"})  # question 0 first: the queue's order
    review(
        looped,
        reviewer,
        {
            "verdict": "correct",
            "answer_start": LONGEST,
            "answer_text": "le plus long fleuve de France",
        },
    )
    # « le » dropped: the same words, EM and F1 100
    assert figures(second) == (100.0, 100.0, False)


def test_fooled_uses_the_threshold_of_the_attempts_round(
    looped, loire_answered, model_round, reviewer
):
    # The round was asked with a threshold of 70 %; the campaign says 40 % now
    ModelRound.objects.filter(pk=model_round.pk).update(f1_threshold=Decimal("70"))
    question, _attempt = loire_answered
    review(
        looped,
        reviewer,
        {"verdict": "correct", "answer_start": LOIRE_WORD, "answer_text": "Loire est"},
    )
    # « loire » against « loire est »: precision 1, recall 1/2, F1 66.67 < 70: fooled
    assert figures(question) == (0.0, 66.67, True)


def test_a_correction_of_the_text_alone_leaves_the_figures(looped, loire_answered, reviewer):
    question, attempt = loire_answered
    # Figures set apart from what a new scoring would give, so that one would show
    counts(question, attempt, attempts=1, exact=0.0, f1=50.0, fooled=False)
    review(
        looped,
        reviewer,
        {"verdict": "correct", "question_text": "Quel est le plus long fleuve de France ?"},
    )
    assert Question.objects.get(pk=question.pk).text == "Quel est le plus long fleuve de France ?"
    assert figures(question) == (0.0, 50.0, False)


def test_approval_and_rejection_leave_the_figures(looped, loire_answered, reviewer):
    question, attempt = loire_answered
    counts(question, attempt, attempts=1, exact=0.0, f1=50.0, fooled=False)
    review(looped, reviewer, {"verdict": "approve"})
    assert figures(question) == (0.0, 50.0, False)


def test_an_unavailable_model_stays_without_figures(looped, written, model_round, reviewer):
    first = written[0]
    attempt = attempt_add(
        first,
        model_round,
        1,
        text=first.text,
        model_answer=None,
        start=None,
        exact=None,
        f1=None,
        fooled=None,
    )
    counts(first, attempt, attempts=1, exact=None, f1=None, fooled=None)
    review(
        looped,
        reviewer,
        {"verdict": "correct", "answer_start": LONGEST, "answer_text": "le plus long fleuve"},
    )
    assert figures(first) == (None, None, None)
    assert Question.objects.get(pk=first.pk).status == "corrected"


def test_a_question_without_a_model_is_left_alone(looped, written):
    question = written[0]
    assert question_model_rescore(question) is question
    assert figures(question) == (None, None, None)


def test_an_unanswerable_question_found_answerable_is_scored(
    looped, paragraphs, annotators, reviewer, model_round
):
    # The model answered « La Loire » while ann1 wrote an unanswerable question whose
    # plausible answer was « La Loire »; the reviewer finds it answered by « Loire est »
    author = annotators[1]
    with transaction.atomic():
        (question,) = questions_store(
            campaign=looped,
            questions=[
                NewQuestion(
                    paragraph=paragraphs[0],
                    author_id=author.pk,
                    position=0,
                    text="Quel fleuve est long ?",
                    seconds_spent=30,
                    sampled_for_review=True,
                    is_impossible=True,
                    answers=[
                        NewAnswer(
                            author_id=author.pk,
                            answer_start=LOIRE,
                            text="La Loire",
                            kind=Answer.Kind.PLAUSIBLE,
                        )
                    ],
                )
            ],
        )
    lease = Lease.objects.create(
        campaign=looped,
        paragraph=paragraphs[0],
        annotator=author,
        status=Lease.Status.SUBMITTED,
        expires_at=timezone.now(),
    )
    attempt = ModelAttempt.objects.create(
        campaign=looped,
        lease=lease,
        question=question,
        round=model_round,
        key="u0",
        number=1,
        text=question.text,
        answer_start=LOIRE,
        answer_text="La Loire",
        status=ModelAttempt.Status.ANSWERED,
        model_answer="La Loire",
        model_answer_start=LOIRE,
        exact_match=100.0,
        f1=100.0,
        fooled=False,
    )
    Question.objects.filter(pk=question.pk).update(model_attempt=attempt, model_attempts=1)
    review(
        looped,
        reviewer,
        {"verdict": "answerable", "answer_start": LOIRE_WORD, "answer_text": "Loire est"},
    )
    assert figures(question) == (0.0, 66.67, False)


# The review page


def review_page(client, reviewer, campaign):
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    client.force_login(reviewer)
    client.cookies["django_language"] = "en"
    return lease, f"/review/leases/{lease.pk}/"


def test_the_review_page_shows_the_model_its_answer_and_the_attempts(
    client, looped, written, model_round, reviewer
):
    first = written[0]
    attempt_add(
        first,
        model_round,
        1,
        text="Quel <b>fleuve</b> ?",
        model_answer=None,
        start=None,
        exact=None,
        f1=None,
        fooled=None,
    )
    attempt_add(
        first,
        model_round,
        2,
        text="Quel fleuve long ?",
        model_answer="plus long fleuve de France",
        start=LONGEST_BARE,
        exact=0.0,
        f1=0.0,
        fooled=True,
    )
    last = attempt_add(
        first,
        model_round,
        3,
        text=first.text,
        model_answer="La Loire",
        start=LOIRE,
        exact=100.0,
        f1=100.0,
        fooled=False,
    )
    counts(first, last, attempts=3, exact=100.0, f1=100.0, fooled=False)
    _lease, url = review_page(client, reviewer, looped)
    response = client.get(url)
    assert response.status_code == 200
    html = page(response)
    assert text_of(by_id(html, "review-model-label")) == "Lexical baseline · round 1"
    assert text_of(by_id(html, "review-model-answer")) == "La Loire"
    assert text_of(by_id(html, "review-model-scores")) == "EM 100% · F1 100%"
    fooled = by_id(html, "review-model-fooled")
    assert (dict(fooled.attributes)["data-fooled"], text_of(fooled)) == ("false", "not fooled")
    assert text_of(by_id(html, "review-model-count")) == "3"
    assert json_script(html, "review-model-span") == {"start": LOIRE, "text": "La Loire"}
    items = [e for e in find_all(by_id(html, "review-attempts")) if e.name == "li"]
    assert [text_of(item) for item in items] == [
        "Quel <b>fleuve</b> ? → model unavailable",
        "Quel fleuve long ? → plus long fleuve de France · F1 0% · fooled",
        "Question 0 sur « Loire » ? → La Loire · F1 100% · not fooled",
    ]
    assert [dict(item.attributes).get("aria-current") for item in items] == [None, None, "true"]
    assert "Quel &lt;b&gt;fleuve&lt;/b&gt; ?" in html  # escaped, never markup


def test_the_review_page_reads_the_attempts_in_one_query(
    client, looped, written, model_round, reviewer
):
    first = written[0]
    last = attempt_add(
        first,
        model_round,
        1,
        text=first.text,
        model_answer="La Loire",
        start=LOIRE,
        exact=100.0,
        f1=100.0,
        fooled=False,
    )
    counts(first, last, attempts=1, exact=100.0, f1=100.0, fooled=False)
    _lease, url = review_page(client, reviewer, looped)
    with CaptureQueriesContext(connection) as one:
        assert client.get(url).status_code == 200
    for number in (2, 3, 4, 5):
        last = attempt_add(
            first,
            model_round,
            number,
            text=f"Version {number} ?",
            model_answer="La Loire",
            start=LOIRE,
            exact=100.0,
            f1=100.0,
            fooled=False,
        )
    counts(first, last, attempts=5, exact=100.0, f1=100.0, fooled=False)
    with CaptureQueriesContext(connection) as five:
        response = client.get(url)
    assert len(five.captured_queries) == len(one.captured_queries)
    assert text_of(by_id(page(response), "review-model-count")) == "5"


def test_a_fooled_question_and_an_answer_outside_the_paragraph(
    client, looped, written, model_round, reviewer
):
    first = written[0]
    # A predict server's answer that is not at its offset: shown, not marked
    last = attempt_add(
        first,
        model_round,
        1,
        text=first.text,
        model_answer="<i>Seine</i>",
        start=LOIRE,
        exact=0.0,
        f1=0.0,
        fooled=True,
    )
    counts(first, last, attempts=1, exact=0.0, f1=0.0, fooled=True)
    _lease, url = review_page(client, reviewer, looped)
    html = page(client.get(url))
    assert text_of(by_id(html, "review-model-answer")) == "<i>Seine</i>"
    assert "&lt;i&gt;Seine&lt;/i&gt;" in html
    fooled = by_id(html, "review-model-fooled")
    assert (dict(fooled.attributes)["data-fooled"], text_of(fooled)) == ("true", "fooled")
    assert text_of(by_id(html, "review-model-scores")) == "EM 0% · F1 0%"
    assert json_script(html, "review-model-span") is None


def test_an_unavailable_model_says_so_on_the_review_page(
    client, looped, written, model_round, reviewer
):
    first = written[0]
    last = attempt_add(
        first,
        model_round,
        1,
        text=first.text,
        model_answer=None,
        start=None,
        exact=None,
        f1=None,
        fooled=None,
    )
    counts(first, last, attempts=1, exact=None, f1=None, fooled=None)
    _lease, url = review_page(client, reviewer, looped)
    html = page(client.get(url))
    assert text_of(by_id(html, "review-model-answer")) == "model unavailable"
    assert find_all(html, id="review-model-fooled") == []
    assert json_script(html, "review-model-span") is None


def test_a_question_written_without_a_model_has_no_model_box(client, looped, written, reviewer):
    _lease, url = review_page(client, reviewer, looped)
    html = page(client.get(url))
    assert find_all(html, id="review-model") == []
    assert json_script(html, "review-model-span") is None


# The quality table


@pytest.fixture
def judged(looped, paragraphs, annotators, reviewer):
    """ann0's 5 questions: approved, rejected, corrected, pending, pending, with model verdicts
    fooled, fooled, not fooled, fooled, none (model unavailable); ann1's 3, no verdict."""
    lease = lease_claim_next(campaign=looped, annotator=annotators[0]).lease
    mine = questions_submit(lease=lease, questions=good_questions(paragraphs[0], count=5))
    text = paragraphs[0].text
    for data in (
        {"verdict": "approve"},
        {"verdict": "reject", "reason": "ambiguous"},
        {"verdict": "correct", "answer_start": text.index("Ardèche"), "answer_text": "Ardèche"},
    ):
        review(looped, reviewer, data)
    for question, fooled in zip(mine, (True, True, False, True, None), strict=True):
        Question.objects.filter(pk=question.pk).update(model_fooled=fooled)
    lease = lease_claim_next(campaign=looped, annotator=annotators[1]).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[1]))
    statuses = [Question.objects.get(pk=q.pk).status for q in mine]
    assert statuses == ["approved", "rejected", "corrected", "pending", "pending"]
    return mine


def test_quality_api_has_the_fooling_rates(admin_user, looped, judged, annotators):
    api = APIClient()
    api.force_authenticate(admin_user)
    rows = {row["annotator"]: row for row in api.get("/api/v1/quality/").json()}
    model = {
        name: {key: row[key] for key in ("model_judged", "fooled", "fooling_pct")}
        | {"validated": row["validated_fooling_pct"]}
        for name, row in rows.items()
    }
    # ann0: 4 verdicts, 3 fooled → 75 %; reviewed with a verdict 3, validated 1 (the
    # approved one: the rejected one is not, the corrected one fools it no more) → 33.3 %
    assert model == {
        "ann0": {"model_judged": 4, "fooled": 3, "fooling_pct": 75.0, "validated": 33.3},
        "ann1": {"model_judged": 0, "fooled": 0, "fooling_pct": None, "validated": None},
    }
    by_campaign = api.get(f"/api/v1/quality/?campaign={looped.pk}").json()
    # The one campaign's rows are all campaigns' rows, with its review rate (a campaign's own).
    assert {
        row["annotator"]: {key: value for key, value in row.items() if key != "review_rate"}
        for row in by_campaign
    } == {name: {k: v for k, v in row.items() if k != "review_rate"} for name, row in rows.items()}
    assert [row["review_rate"]["rate"] for row in by_campaign] == [100.0, 100.0]
    assert [row["review_rate"] for row in rows.values()] == [None, None]


def test_a_corrected_question_still_fooled_is_validated(looped, judged, admin_user):
    Question.objects.filter(pk=judged[2].pk).update(model_fooled=True)  # corrected, fooled
    api = APIClient()
    api.force_authenticate(admin_user)
    (row,) = [r for r in api.get("/api/v1/quality/").json() if r["annotator"] == "ann0"]
    # 4 of 4 fooled; validated: approved + corrected = 2 of the 3 reviewed → 66.7 %
    assert (row["fooling_pct"], row["validated_fooling_pct"]) == (100.0, 66.7)


def test_the_quality_page_shows_the_fooling_columns_with_a_model(
    client, admin_user, looped, judged
):
    client.force_login(admin_user)
    client.cookies["django_language"] = "en"
    html = page(client.get(f"/manage/quality/?campaign={looped.pk}"))
    table = by_id(html, "quality-table")
    rows = {row[0]: row for row in body_rows(table)}
    # annotator, rate, gold, agreement, flags (what an admin decides on, first), then
    # questions, reviewed, approved, corrected, rejected %, median s, fooled %, validated %
    assert rows["ann0"][5:7] == ["5", "3"]
    assert rows["ann0"][11:13] == ["75.0", "33.3"]
    assert rows["ann1"][11:13] == ["—", "—"]
    assert len(find_all(table, id="quality-fooling")) == 1
    assert by_id(html, "quality-model")
    # All campaigns: one of them has a model, so the columns are there too
    all_rows = {
        row[0]: row
        for row in body_rows(by_id(page(client.get("/manage/quality/")), "quality-table"))
    }
    assert all_rows["ann0"][11:13] == ["75.0", "33.3"]


def test_the_quality_page_has_no_fooling_columns_without_a_model(
    client, admin_user, looped, judged
):
    Campaign.objects.filter(pk=looped.pk).update(model_kind=ModelKind.NONE, model_round=0)
    client.force_login(admin_user)
    client.cookies["django_language"] = "en"
    html = page(client.get(f"/manage/quality/?campaign={looped.pk}"))
    assert find_all(html, id="quality-fooling") == []
    assert find_all(html, id="quality-model") == []
    rows = {row[0]: row for row in body_rows(by_id(html, "quality-table"))}
    # annotator, review rate, gold score, agreement, flags, questions … median, history, work
    assert len(rows["ann0"]) == 13
    # A campaign that had a model (round 1) and has none now keeps the columns
    Campaign.objects.filter(pk=looped.pk).update(model_round=1)
    html = page(client.get(f"/manage/quality/?campaign={looped.pk}"))
    assert len(find_all(html, id="quality-fooling")) == 1


# The question's detail (API)


def test_the_question_detail_has_the_model_and_holds_it_back_on_test(
    looped, loire_answered, reviewer, admin_user
):
    question, _attempt = loire_answered
    api = APIClient()
    api.force_authenticate(reviewer)
    url = f"/api/v1/questions/{question.uuid}/"
    expected = {
        "round": 1,
        "model": "Lexical baseline",
        "status": "answered",
        "answer": "La Loire",
        "answer_start": LOIRE,
        "exact_match": 100.0,
        "f1": 100.0,
        "fooled": False,
        "f1_threshold": 40.0,
        "attempts": 1,
    }
    assert api.get(url).json()["model"] == expected
    # A test question: its answers are held back from a reviewer, and so are the model's
    # answer and its scores against them
    article = question.paragraph.article
    type(article).objects.filter(pk=article.pk).update(split="test")
    held = expected | dict.fromkeys(["answer", "answer_start", "exact_match", "f1", "fooled"])
    assert api.get(url).json()["model"] == held
    api.force_authenticate(admin_user)
    assert api.get(url).json()["model"] == expected
    # Written without a model: null
    api.force_authenticate(reviewer)
    other = Question.objects.exclude(pk=question.pk).first()
    assert api.get(f"/api/v1/questions/{other.uuid}/").json()["model"] is None
