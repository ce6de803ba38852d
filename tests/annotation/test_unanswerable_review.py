"""Unanswerable questions (issue 14): their review (really unanswerable, actually answerable,
a correction that keeps them unanswerable, reject) by the services, the API and the pages, and
the additional answers that mix them with answerable ones without telling which is which.

The paragraph is tests/annotation/conftest.py's first one:

    La Loire est le plus long fleuve de France, avec 1 006 km. Elle prend sa source au mont
    Gerbier-de-Jonc 🌋 en Ardèche et se jette dans l'océan Atlantique à Saint-Nazaire.

Offsets are code points, counted by hand: « La Loire » 0, « 1 006 km » 49, « mont
Gerbier-de-Jonc » 83, « Gerbier-de-Jonc » 88, « Ardèche » 109 (after the emoji), « Saint-Nazaire »
155.
"""

import re
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils.html import escape
from rest_framework.test import APIClient

from annotation.models import (
    Answer,
    Campaign,
    Lease,
    Question,
    QuestionRevision,
    Review,
    WorkItem,
)
from annotation.selectors.questions import dataset_questions, plausible_answers, shown_answers
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.questions import NewAnswer, NewQuestion, questions_store
from annotation.services.reviews import review_claim_next, review_submit
from core.errors import ServiceError
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.annotation.test_review_pages import by_id, find_all, json_script, page, text_of

LOIRE, KM, MONT, GERBIER, ARDECHE, NAZAIRE = 0, 49, 83, 88, 109, 155

# (question, plausible span, its start): the second one is answered by the paragraph.
UNANSWERABLE = [
    ("Quel est le plus long fleuve d'Espagne ?", "La Loire", LOIRE),
    ("Où la Loire prend-elle sa source ?", "Ardèche", ARDECHE),
    ("Quelle est la longueur de la Seine ?", "1 006 km", KM),
]


def store(campaign, paragraph, author, rows, *, impossible=True, sampled=True):
    """Questions written by `author` on `paragraph`: (text, span, start) each; an unanswerable
    one carries its span as its plausible answer."""
    kind = Answer.Kind.PLAUSIBLE if impossible else Answer.Kind.ORIGINAL
    with transaction.atomic():
        return questions_store(
            campaign=campaign,
            questions=[
                NewQuestion(
                    paragraph=paragraph,
                    author_id=author.pk,
                    position=position,
                    text=text,
                    seconds_spent=50,
                    sampled_for_review=sampled,
                    is_impossible=impossible,
                    answers=[
                        NewAnswer(author_id=author.pk, answer_start=start, text=span, kind=kind)
                    ],
                )
                for position, (text, span, start) in enumerate(rows)
            ],
        )


@pytest.fixture
def writing(db):
    """A campaign of kind unanswerable on dev, every question sampled for review."""
    return campaign_create(
        name="Sans réponse", kind="unanswerable", splits=["dev"], review_rate=Decimal("1")
    )


@pytest.fixture
def unanswerable(writing, paragraphs, annotators):
    """ann0's three unanswerable questions on the first paragraph, pending review."""
    return store(writing, paragraphs[0], annotators[0], UNANSWERABLE)


def claim(campaign, reviewer, question):
    """Claim review leases until the one on `question` (the others stay held: released)."""
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    assert lease.question_id == question.pk, "claims go oldest first, by id"
    return lease


def versions(question):
    return list(
        QuestionRevision.objects.filter(question=question)
        .order_by("number")
        .values_list(
            "number",
            "origin",
            "editor__username",
            "text",
            "is_impossible",
            "answer_start",
            "answer_text",
        )
    )


def answers_of(question):
    return list(
        Answer.objects.filter(question=question)
        .order_by("pk")
        .values_list("kind", "author__username", "answer_start", "text", "no_answer")
    )


def snapshot(question, lease):
    """Everything a refused verdict must leave as it was."""
    fresh = Question.objects.get(pk=question.pk)
    return {
        "question": (fresh.status, fresh.text, fresh.is_impossible, fresh.question_type),
        "answers": answers_of(question),
        "versions": versions(question),
        "reviews": Review.objects.count(),
        "lease": Lease.objects.filter(pk=lease.pk).values_list("status", "finished_at").get(),
    }


def refused(lease, data) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        review_submit(lease=lease, data=data)
    return error.value


WRITTEN = (1, "written", "ann0")


# The services


def test_really_unanswerable_approves_and_changes_nothing_else(unanswerable, writing, reviewer):
    question = unanswerable[0]
    lease = claim(writing, reviewer, question)
    review = review_submit(lease=lease, data={"verdict": "approve", "seconds_spent": 12})
    fresh = Question.objects.get(pk=question.pk)
    assert (fresh.status, fresh.is_impossible, fresh.text) == (
        "approved",
        True,
        "Quel est le plus long fleuve d'Espagne ?",
    )
    assert (review.verdict, review.revision, review.seconds_spent) == ("approve", None, 12)
    assert answers_of(question) == [("plausible", "ann0", LOIRE, "La Loire", False)]
    assert versions(question) == [
        (*WRITTEN, "Quel est le plus long fleuve d'Espagne ?", True, LOIRE, "La Loire")
    ]
    # A v2.0 dataset counts it, a v1.1 one does not; its plausible span is never an answer.
    assert dataset_questions(unanswerable=True).filter(pk=question.pk).exists()
    assert not dataset_questions().filter(pk=question.pk).exists()
    assert not shown_answers().filter(question=question).exists()
    assert plausible_answers().filter(question=question).count() == 1


def test_actually_answerable_makes_the_plausible_row_the_original_answer_and_keeps_version_1(
    unanswerable, writing, reviewer
):
    question = unanswerable[0]
    plausible_pk = Answer.objects.get(question=question).pk
    lease = claim(writing, reviewer, question)
    review_submit(lease=lease, data={"verdict": "approve"})  # the first one: really
    lease = claim(writing, reviewer, unanswerable[1])
    review = review_submit(
        lease=lease,
        data={
            "verdict": "answerable",
            "answer_start": MONT,
            "answer_text": "mont Gerbier-de-Jonc",
            "comment": "Le paragraphe le dit.",
            "seconds_spent": 31,
        },
    )
    question = Question.objects.get(pk=unanswerable[1].pk)
    assert (question.status, question.is_impossible, question.text, question.question_type) == (
        "corrected",
        False,
        "Où la Loire prend-elle sa source ?",
        "where",
    )
    # The same row, now the original answer, still its author's (as for a correction).
    answer = Answer.objects.get(question=question)
    assert (answer.pk, answer.kind, answer.author.username) == (
        plausible_pk + 1,
        "original",
        "ann0",
    )
    assert answers_of(question) == [("original", "ann0", MONT, "mont Gerbier-de-Jonc", False)]
    assert versions(question) == [
        (*WRITTEN, "Où la Loire prend-elle sa source ?", True, ARDECHE, "Ardèche"),
        (
            2,
            "corrected",
            "rev",
            "Où la Loire prend-elle sa source ?",
            False,
            MONT,
            "mont Gerbier-de-Jonc",
        ),
    ]
    assert (review.verdict, review.revision.number, review.comment, review.seconds_spent) == (
        "answerable",
        2,
        "Le paragraphe le dit.",
        31,
    )
    # An answerable question now: in a v1.1 dataset, with that answer; no plausible span left.
    assert dataset_questions().filter(pk=question.pk).exists()
    assert list(shown_answers().filter(question=question).values_list("text", flat=True)) == [
        "mont Gerbier-de-Jonc"
    ]
    assert not plausible_answers().filter(question=question).exists()
    assert Lease.objects.get(pk=lease.pk).status == "submitted"


def test_actually_answerable_may_correct_the_text_too(unanswerable, writing, reviewer):
    lease = claim(writing, reviewer, unanswerable[0])
    review_submit(
        lease=lease,
        data={
            "verdict": "answerable",
            "question_text": "  Quel est le plus long   fleuve de France ? ",
            "answer_start": LOIRE,
            "answer_text": "La Loire",  # the plausible span was the answer after all
        },
    )
    question = Question.objects.get(pk=unanswerable[0].pk)
    assert (question.text, question.question_type, question.is_impossible) == (
        "Quel est le plus long fleuve de France ?",
        "which",
        False,
    )
    assert versions(question)[1] == (
        2,
        "corrected",
        "rev",
        "Quel est le plus long fleuve de France ?",
        False,
        LOIRE,
        "La Loire",
    )
    assert answers_of(question) == [("original", "ann0", LOIRE, "La Loire", False)]


def test_a_correction_of_an_unanswerable_question_keeps_it_unanswerable(
    unanswerable, writing, reviewer
):
    lease = claim(writing, reviewer, unanswerable[0])
    review = review_submit(
        lease=lease,
        data={
            "verdict": "correct",
            "question_text": "Quel est le plus long fleuve du Portugal ?",
            "answer_start": LOIRE + 3,
            "answer_text": "Loire",
        },
    )
    question = Question.objects.get(pk=unanswerable[0].pk)
    assert (question.status, question.is_impossible, question.text) == (
        "corrected",
        True,
        "Quel est le plus long fleuve du Portugal ?",
    )
    assert answers_of(question) == [("plausible", "ann0", 3, "Loire", False)]
    assert versions(question) == [
        (*WRITTEN, "Quel est le plus long fleuve d'Espagne ?", True, LOIRE, "La Loire"),
        (2, "corrected", "rev", "Quel est le plus long fleuve du Portugal ?", True, 3, "Loire"),
    ]
    assert (review.verdict, review.revision.is_impossible) == ("correct", True)
    assert not shown_answers().filter(question=question).exists()


def test_a_correction_of_the_plausible_span_alone(unanswerable, writing, reviewer):
    lease = claim(writing, reviewer, unanswerable[0])
    review_submit(
        lease=lease,
        data={"verdict": "correct", "answer_start": NAZAIRE, "answer_text": "Saint-Nazaire"},
    )
    assert versions(unanswerable[0])[1] == (
        2,
        "corrected",
        "rev",
        "Quel est le plus long fleuve d'Espagne ?",
        True,
        NAZAIRE,
        "Saint-Nazaire",
    )


def test_a_correction_that_changes_nothing_is_refused(unanswerable, writing, reviewer):
    lease = claim(writing, reviewer, unanswerable[0])
    before = snapshot(unanswerable[0], lease)
    error = refused(lease, {"verdict": "correct", "answer_start": LOIRE, "answer_text": "La Loire"})
    assert (error.status, list(error.errors)) == (400, ["verdict"])
    assert snapshot(unanswerable[0], lease) == before


def test_answerable_on_an_answerable_question_is_400_verdict_and_stores_nothing(
    writing, paragraphs, annotators, reviewer
):
    question = store(
        writing,
        paragraphs[0],
        annotators[0],
        [("Quel fleuve ?", "La Loire", LOIRE)],
        impossible=False,
    )[0]
    lease = claim(writing, reviewer, question)
    before = snapshot(question, lease)
    error = refused(
        lease,
        {"verdict": "answerable", "answer_start": MONT, "answer_text": "mont Gerbier-de-Jonc"},
    )
    assert (error.status, list(error.errors)) == (400, ["verdict"])
    assert snapshot(question, lease) == before
    assert Lease.objects.get(pk=lease.pk).status == "active"


@pytest.mark.parametrize(
    ("span", "field"),
    [
        ({}, "answer_start"),
        ({"answer_text": "mont Gerbier-de-Jonc"}, "answer_start"),
        ({"answer_start": MONT}, "answer_text"),
        ({"answer_start": MONT, "answer_text": ""}, "answer_text"),
        ({"answer_start": MONT, "answer_text": "   "}, "answer_text"),
        ({"answer_start": MONT + 1, "answer_text": "mont Gerbier-de-Jonc"}, "answer_text"),
        ({"answer_start": 500, "answer_text": "mont"}, "answer_start"),
        ({"answer_start": -1, "answer_text": "La"}, "answer_start"),
        ({"answer_start": "83", "answer_text": "mont Gerbier-de-Jonc"}, "answer_start"),
        ({"answer_start": True, "answer_text": "a"}, "answer_start"),
        ({"answer_start": MONT, "answer_text": ["mont"]}, "answer_text"),
    ],
)
def test_answerable_without_a_valid_span_is_400_naming_it_and_stores_nothing(
    unanswerable, writing, reviewer, span, field
):
    lease = claim(writing, reviewer, unanswerable[0])
    before = snapshot(unanswerable[0], lease)
    error = refused(lease, {"verdict": "answerable", **span})
    assert (error.status, list(error.errors)) == (400, [field])
    assert snapshot(unanswerable[0], lease) == before


def test_answerable_with_a_reason_or_a_bad_text_names_each_field(unanswerable, writing, reviewer):
    lease = claim(writing, reviewer, unanswerable[0])
    before = snapshot(unanswerable[0], lease)
    error = refused(
        lease,
        {
            "verdict": "answerable",
            "reason": "other",
            "question_text": " ",
            "answer_start": LOIRE,
            "answer_text": "La Loire",
            "seconds_spent": -1,
        },
    )
    assert sorted(error.errors) == ["question_text", "reason", "seconds_spent"]
    assert snapshot(unanswerable[0], lease) == before


def test_reject_an_unanswerable_question_but_not_for_being_unanswered(
    unanswerable, writing, reviewer
):
    lease = claim(writing, reviewer, unanswerable[0])
    before = snapshot(unanswerable[0], lease)
    error = refused(lease, {"verdict": "reject", "reason": "not_answered"})
    assert (error.status, list(error.errors)) == (400, ["reason"])
    assert snapshot(unanswerable[0], lease) == before
    review = review_submit(
        lease=lease,
        data={"verdict": "reject", "reason": "not_a_question", "comment": "Hors sujet."},
    )
    fresh = Question.objects.get(pk=unanswerable[0].pk)
    assert (fresh.status, fresh.is_impossible) == ("rejected", True)
    assert (review.verdict, review.reason, review.revision) == ("reject", "not_a_question", None)
    assert not dataset_questions(unanswerable=True).filter(pk=fresh.pk).exists()


def test_an_off_topic_question_is_rejected_as_such(client, unanswerable, writing, reviewer):
    lease = claim(writing, reviewer, unanswerable[0])
    client.force_login(reviewer)
    client.cookies["django_language"] = "en"
    html = page(client.get(f"/review/leases/{lease.pk}/"))
    options = {
        dict(e.attributes)["value"]: text_of(e)
        for e in find_all(by_id(html, "reject-reason"))
        if e.name == "option"
    }
    assert options["off_topic"] == "off-topic: shares nothing with the paragraph"
    response = client.post(
        f"/review/leases/{lease.pk}/",
        {"verdict": "reject", "reason": "off_topic", "seconds_spent": "4"},
    )
    assert response.status_code == 302
    review = Review.objects.get()
    assert (review.verdict, review.reason) == ("reject", "off_topic")
    assert Question.objects.get(pk=unanswerable[0].pk).status == "rejected"


def test_the_verdicts_on_an_answerable_question_are_unchanged(
    writing, paragraphs, annotators, reviewer
):
    """A mixed campaign's answerable question (kind questions): not_answered is a reason."""
    mixed = campaign_create(name="Mixte", splits=["dev"], review_rate=Decimal("1"))
    question = store(
        mixed,
        paragraphs[1],
        annotators[1],
        [("Que relie le canal ?", "Toulouse", 29)],
        impossible=False,
    )[0]
    lease = review_claim_next(campaign=mixed, reviewer=reviewer).lease
    review_submit(lease=lease, data={"verdict": "reject", "reason": "not_answered"})
    assert Question.objects.get(pk=question.pk).status == "rejected"


def test_an_unanswerable_question_of_a_mixed_campaign_is_reviewed_the_same_way(
    paragraphs, annotators, reviewer
):
    mixed = campaign_create(
        name="Mixte", splits=["dev"], review_rate=Decimal("1"), unanswerable_per_paragraph=1
    )
    question = store(mixed, paragraphs[0], annotators[0], UNANSWERABLE[1:2])[0]
    lease = review_claim_next(campaign=mixed, reviewer=reviewer).lease
    assert lease.question_id == question.pk
    review_submit(
        lease=lease,
        data={"verdict": "answerable", "answer_start": GERBIER, "answer_text": "Gerbier-de-Jonc"},
    )
    assert answers_of(question) == [("original", "ann0", GERBIER, "Gerbier-de-Jonc", False)]


def test_an_imported_unanswerable_question_without_a_plausible_answer(
    writing, paragraphs, annotators, reviewer
):
    """SQuAD 2.0 files may hold an unanswerable question without plausible answers."""
    with transaction.atomic():
        first, second = questions_store(
            campaign=writing,
            questions=[
                NewQuestion(
                    paragraph=paragraphs[0],
                    author_id=annotators[0].pk,
                    position=position,
                    text=text,
                    sampled_for_review=True,
                    is_impossible=True,
                )
                for position, text in enumerate(["Qui a nommé la Loire ?", "D'où vient-elle ?"])
            ],
        )
    lease = claim(writing, reviewer, first)
    review_submit(lease=lease, data={"verdict": "correct", "question_text": "Qui nomma la Loire ?"})
    assert versions(first)[1] == (2, "corrected", "rev", "Qui nomma la Loire ?", True, 0, "")
    assert answers_of(first) == []
    lease = claim(writing, reviewer, second)
    error = refused(lease, {"verdict": "answerable"})
    assert list(error.errors) == ["answer_start"]
    review_submit(
        lease=lease, data={"verdict": "answerable", "answer_start": MONT, "answer_text": "mont"}
    )
    assert answers_of(second) == [("original", "ann0", MONT, "mont", False)]
    assert Question.objects.get(pk=second.pk).is_impossible is False


def test_reviews_of_an_unanswerable_campaign_are_queued_and_claimed(
    unanswerable, writing, reviewer, annotators
):
    """Reviewers claim them as a questions campaign's (Campaign.WRITING_KINDS)."""
    leases = []
    for question in unanswerable:
        leases.append(claim(writing, reviewer, question))
        review_submit(lease=leases[-1], data={"verdict": "approve"})
    assert review_claim_next(campaign=writing, reviewer=reviewer) is None
    with pytest.raises(ServiceError) as error:
        review_claim_next(campaign=writing, reviewer=annotators[1])  # not a reviewer
    assert error.value.status == 403


# The API


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_review_lease_says_unanswerable_and_gives_the_plausible_span_apart(
    unanswerable, writing, reviewer
):
    response = api_for(reviewer).post(f"/api/v1/campaigns/{writing.pk}/review-leases/")
    assert response.status_code == 201
    assert response.json()["question"] == {
        "id": str(unanswerable[0].uuid),
        "text": "Quel est le plus long fleuve d'Espagne ?",
        "question_type": "which",
        "is_impossible": True,
        "answer": None,
        "plausible_answer": {"answer_start": LOIRE, "text": "La Loire"},
    }
    again = api_for(reviewer).get(f"/api/v1/leases/{response.json()['id']}/")
    assert again.json()["question"] == response.json()["question"]


def test_answerable_by_the_api(unanswerable, writing, reviewer):
    api = api_for(reviewer)
    first = api.post(f"/api/v1/campaigns/{writing.pk}/review-leases/").json()
    assert (
        api.post(f"/api/v1/leases/{first['id']}/submit/", {"verdict": "approve"}).status_code == 201
    )
    second = api.post(f"/api/v1/campaigns/{writing.pk}/review-leases/").json()
    assert second["question"]["id"] == str(unanswerable[1].uuid)
    response = api.post(
        f"/api/v1/leases/{second['id']}/submit/",
        {
            "verdict": "answerable",
            "answer_start": MONT,
            "answer_text": "mont Gerbier-de-Jonc",
            "comment": "Répondue par le paragraphe.",
            "seconds_spent": 40,
        },
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    body.pop("created_at")
    assert body == {
        "question": str(unanswerable[1].uuid),
        "reviewer": "rev",
        "verdict": "answerable",
        "reason": "",
        "comment": "Répondue par le paragraphe.",
        "version": 2,
    }
    detail = api.get(f"/api/v1/questions/{unanswerable[1].uuid}/").json()
    assert [
        (v["number"], v["is_impossible"], v["answer_start"], v["answer_text"])
        for v in detail["revisions"]
    ] == [(1, True, ARDECHE, "Ardèche"), (2, False, MONT, "mont Gerbier-de-Jonc")]
    assert [(a["kind"], a["answer_start"], a["text"]) for a in detail["answers"]] == [
        ("original", MONT, "mont Gerbier-de-Jonc")
    ]
    assert (detail["status"], [r["verdict"] for r in detail["reviews"]]) == (
        "corrected",
        ["answerable"],
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"verdict": "answerable"}, "answer_start"),
        ({"verdict": "answerable", "answer_start": MONT}, "answer_text"),
        (
            {"verdict": "answerable", "answer_start": MONT, "answer_text": "Gerbier"},
            "answer_text",
        ),
        ({"verdict": "answerable", "answer_start": None, "answer_text": "mont"}, "answer_start"),
        ({"verdict": "unanswerable"}, "verdict"),
        ({"verdict": "reject", "reason": "not_answered"}, "reason"),
    ],
)
def test_a_bad_verdict_by_the_api_is_400_naming_the_field_and_stores_nothing(
    unanswerable, writing, reviewer, body, field
):
    api = api_for(reviewer)
    lease = api.post(f"/api/v1/campaigns/{writing.pk}/review-leases/").json()
    question = unanswerable[0]
    before = snapshot(question, Lease.objects.get(pk=lease["id"]))
    response = api.post(f"/api/v1/leases/{lease['id']}/submit/", body, format="json")
    assert (response.status_code, list(response.json()["errors"])) == (400, [field])
    assert snapshot(question, Lease.objects.get(pk=lease["id"])) == before


def test_answerable_by_the_api_on_an_answerable_question_is_400_verdict(
    writing, paragraphs, annotators, reviewer
):
    store(
        writing, paragraphs[0], annotators[0], [("Quel fleuve ?", "La Loire", 0)], impossible=False
    )
    api = api_for(reviewer)
    lease = api.post(f"/api/v1/campaigns/{writing.pk}/review-leases/").json()
    assert lease["question"]["is_impossible"] is False
    assert lease["question"]["plausible_answer"] is None
    response = api.post(
        f"/api/v1/leases/{lease['id']}/submit/",
        {"verdict": "answerable", "answer_start": MONT, "answer_text": "mont"},
        format="json",
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["verdict"])
    assert Review.objects.count() == 0


# The pages


@pytest.fixture
def reviewing(client, unanswerable, writing, reviewer):
    """The reviewer on the review page of the first unanswerable question, in English."""
    client.force_login(reviewer)
    client.cookies["django_language"] = "en"
    claimed = client.post(f"/review/campaigns/{writing.pk}/next/")
    lease = Lease.objects.get(kind="review")
    assert claimed["Location"] == f"/review/leases/{lease.pk}/"
    return lease


def test_the_review_page_says_unanswerable_and_marks_the_plausible_span_apart(client, reviewing):
    html = page(client.get(f"/review/leases/{reviewing.pk}/"))
    assert dict(by_id(html, "review").attributes)["data-unanswerable"] == "true"
    assert text_of(by_id(html, "unanswerable-notice")).startswith(
        "An unanswerable question. Its author wrote it so that the paragraph does not answer it."
    )
    assert text_of(by_id(html, "review-plausible")) == "La Loire"
    assert text_of(by_id(html, "review-unanswerable")) == "none: unanswerable question"
    assert find_all(html, id="review-answer") == []  # the plausible span is not "the answer"
    assert json_script(html, "review-span") == {"start": LOIRE, "text": "La Loire"}
    assert json_script(html, "review-messages")["plausible"] == "Plausible answer (not the answer)"
    labels = [
        text_of(e)
        for e in find_all(by_id(html, "review-form"))
        if e.name == "label" and find_all(e, name="verdict")
    ]
    assert labels == [
        "A Really unanswerable",
        "Y Actually answerable",
        "R Reject",
        "C Correct (it stays unanswerable)",
    ]
    reasons = [
        dict(e.attributes)["value"]
        for e in find_all(by_id(html, "reject-reason"))
        if e.name == "option"
    ]
    assert "not_answered" not in reasons and "not_a_question" in reasons
    part = find_all(html, **{"class": "verdict-part", "data-verdict": "answerable"})
    assert len(part) == 1
    assert dict(by_id(html, "answerable-start").attributes)["value"] == ""
    assert dict(by_id(html, "answerable-text").attributes)["name"] == "answerable_text"


def test_the_page_marks_it_answerable_with_the_selected_span(client, reviewing, unanswerable):
    response = client.post(
        f"/review/leases/{reviewing.pk}/",
        {
            "verdict": "answerable",
            "answerable_start": str(LOIRE),
            "answerable_text": "La Loire",
            # the correction's fields, sent too by the browser, are not this verdict's
            "question_text": "Autre texte ?",
            "answer_start": "3",
            "answer_text": "Loire",
            "comment": "",
            "seconds_spent": "9",
        },
    )
    assert response.status_code == 302
    question = Question.objects.get(pk=unanswerable[0].pk)
    assert (question.status, question.is_impossible, question.text) == (
        "corrected",
        False,
        "Quel est le plus long fleuve d'Espagne ?",
    )
    assert answers_of(question) == [("original", "ann0", LOIRE, "La Loire", False)]
    assert Review.objects.get().verdict == "answerable"


def test_the_page_refuses_answerable_without_a_selection_and_names_the_field(
    client, reviewing, unanswerable
):
    response = client.post(
        f"/review/leases/{reviewing.pk}/",
        {
            "verdict": "answerable",
            "answerable_start": "",
            "answerable_text": "",
            "seconds_spent": "3",
        },
    )
    assert response.status_code == 400
    html = page(response)
    assert [
        dict(e.attributes)["data-field"] for e in find_all(html, **{"class": "field-error"})
    ] == ["answer_start"]
    assert [
        e
        for e in find_all(html, name="verdict", value="answerable")
        if "checked" in dict(e.attributes)
    ]
    assert Review.objects.count() == 0
    assert Question.objects.get(pk=unanswerable[0].pk).is_impossible is True


def test_the_review_page_of_an_answerable_question_has_no_answerable_verdict(
    client, writing, paragraphs, annotators, reviewer
):
    store(
        writing, paragraphs[0], annotators[0], [("Quel fleuve ?", "La Loire", 0)], impossible=False
    )
    client.force_login(reviewer)
    client.post(f"/review/campaigns/{writing.pk}/next/")
    html = page(client.get(f"/review/leases/{Lease.objects.get(kind='review').pk}/"))
    assert dict(by_id(html, "review").attributes)["data-unanswerable"] == "false"
    assert find_all(html, id="unanswerable-notice") == []
    assert find_all(html, name="verdict", value="answerable") == []
    assert text_of(by_id(html, "review-answer")) == "La Loire"


def test_the_reviewer_home_lists_the_unanswerable_campaign(client, unanswerable, writing, reviewer):
    client.force_login(reviewer)
    client.cookies["django_language"] = "en"
    html = page(client.get("/review/"))
    cards = find_all(by_id(html, "review-queue"), **{"class": "campaign-card"})
    assert [text_of(next(e for e in find_all(c) if e.name == "h3")) for c in cards] == [
        "Sans réponse"
    ]
    assert text_of(find_all(cards[0], **{"data-kind": "unanswerable"})[0]) == (
        "Unanswerable questions"
    )
    assert "3 questions waiting" in text_of(cards[0])


def test_the_history_page_shows_each_version_with_its_unanswerable_flag(
    client, unanswerable, writing, reviewer
):
    lease = claim(writing, reviewer, unanswerable[0])
    review_submit(
        lease=lease,
        data={"verdict": "answerable", "answer_start": LOIRE, "answer_text": "La Loire"},
    )
    client.force_login(reviewer)
    client.cookies["django_language"] = "en"
    html = page(client.get(f"/questions/{unanswerable[0].uuid}/"))
    history = [e for e in find_all(by_id(html, "question-history")) if e.name == "li"]
    assert [dict(e.attributes)["data-unanswerable"] for e in history] == ["true", "false"]
    assert "Unanswerable. Plausible answer: La Loire (at 0)" in text_of(history[0])
    assert "Answer: La Loire (at 0)" in text_of(history[1])
    assert find_all(html, id="question-unanswerable") == []  # answerable now
    answers = text_of(by_id(html, "question-answers"))
    assert answers == "La Loire (at 0) · original answer by ann0, corrected by rev in version 2"
    # Still unanswerable: said at the top, its plausible answer as written
    html = page(client.get(f"/questions/{unanswerable[1].uuid}/"))
    assert text_of(by_id(html, "question-unanswerable")) == "unanswerable question"
    assert text_of(by_id(html, "question-answers")) == (
        "Ardèche (at 109) · plausible (unanswerable question) · ann0"
    )
    # A correction of its plausible span: credited to its version, still unanswerable
    lease = claim(writing, reviewer, unanswerable[1])
    review_submit(
        lease=lease,
        data={"verdict": "correct", "answer_start": NAZAIRE, "answer_text": "Saint-Nazaire"},
    )
    html = page(client.get(f"/questions/{unanswerable[1].uuid}/"))
    assert text_of(by_id(html, "question-answers")) == (
        "Saint-Nazaire (at 155) · plausible answer by ann0, corrected by rev in version 2"
    )
    history = [e for e in find_all(by_id(html, "question-history")) if e.name == "li"]
    assert [dict(e.attributes)["data-unanswerable"] for e in history] == ["true", "true"]


def test_the_history_page_of_a_test_question_holds_back_the_unanswerable_flag(
    client, annotators, reviewer
):
    article = article_store(
        language="fr",
        source=SourceArticle(title="Test", source_title="Test"),
        paragraphs=["Le Rhône naît en Suisse, dans le glacier du Rhône."],
        wave="1.0",
        split="test",
        kind="file",
    )
    campaign = campaign_create(name="Test sans réponse", kind="unanswerable", splits=["test"])
    question = store(
        campaign, article.paragraphs.get(), annotators[0], [("Où naît la Seine ?", "Suisse", 17)]
    )[0]
    client.force_login(reviewer)
    html = page(client.get(f"/questions/{question.uuid}/"))
    history = [e for e in find_all(by_id(html, "question-history")) if e.name == "li"]
    assert ["data-unanswerable" in dict(e.attributes) for e in history] == [False]
    assert find_all(html, id="question-unanswerable") == []
    assert "Suisse" not in re.sub(r'<p class="paragraph-text"[^>]*>.*?</p>', "", html, flags=re.S)
    detail = api_for(reviewer).get(f"/api/v1/questions/{question.uuid}/").json()
    assert [(v["is_impossible"], v["answer_text"]) for v in detail["revisions"]] == [(None, None)]


# Additional answers: unanswerable questions mixed in, never told apart


@pytest.fixture
def answering(db):
    return campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])


@pytest.fixture
def mixed_questions(answering, writing, paragraphs, annotators):
    """On the first paragraph: an answerable question, then an unanswerable one (by ann0)."""
    answerable = store(
        writing,
        paragraphs[0],
        annotators[0],
        [("Où la Loire se jette-t-elle ?", "Saint-Nazaire", NAZAIRE)],
        impossible=False,
        sampled=False,
    )[0]
    unanswerable = store(writing, paragraphs[0], annotators[0], [UNANSWERABLE[0]], sampled=False)[0]
    return answerable, unanswerable


def test_every_unanswerable_question_gets_its_answer_item_like_the_others(
    answering, mixed_questions
):
    items = WorkItem.objects.filter(campaign=answering, kind="answer").order_by("question_id")
    assert [(i.question_id, i.places) for i in items] == [(q.pk, 2) for q in mixed_questions]


def test_one_says_no_answer_and_another_answers_the_same_unanswerable_question(
    answering, mixed_questions, annotators
):
    _answerable, unanswerable = mixed_questions
    first = answer_claim_next(campaign=answering, annotator=annotators[1]).lease
    second = answer_claim_next(campaign=answering, annotator=annotators[2]).lease
    assert first.question_id == second.question_id == _answerable.pk
    answer_submit(lease=first, data={"answer_start": NAZAIRE, "answer_text": "Saint-Nazaire"})
    answer_submit(lease=second, data={"no_answer": True})
    first = answer_claim_next(campaign=answering, annotator=annotators[1]).lease
    second = answer_claim_next(campaign=answering, annotator=annotators[2]).lease
    assert first.question_id == second.question_id == unanswerable.pk
    answer_submit(lease=first, data={"no_answer": True, "seconds_spent": 8})
    answer_submit(
        lease=second, data={"answer_start": LOIRE, "answer_text": "La Loire", "seconds_spent": 21}
    )
    assert answers_of(unanswerable) == [
        ("plausible", "ann0", LOIRE, "La Loire", False),
        ("additional", "ann1", 0, "", True),
        ("additional", "ann2", LOIRE, "La Loire", False),
    ]
    fresh = Question.objects.get(pk=unanswerable.pk)
    assert (fresh.is_impossible, fresh.status) == (True, "pending")  # judgments, not verdicts
    assert WorkItem.objects.get(campaign=answering, question=unanswerable).places == 0
    assert answer_claim_next(campaign=answering, annotator=annotators[1]) is None


def normalized(html: str, question, lease) -> str:
    """The answer page without what differs from one question to the next by nature."""
    html = (
        html.replace(escape(question.text), "QUESTION")
        .replace(f"/leases/{lease.pk}/", "/leases/N/")
        .replace(f'data-lease-id="{lease.pk}"', 'data-lease-id="N"')
    )
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", html)


def test_the_answer_page_and_the_claim_api_do_not_tell_an_unanswerable_question_apart(
    client, answering, mixed_questions, annotators
):
    answerable, unanswerable = mixed_questions
    client.force_login(annotators[1])
    api = api_for(annotators[1])
    pages, claims = [], []
    for expected in (answerable, unanswerable):
        claimed = api.post(f"/api/v1/campaigns/{answering.pk}/leases/")
        assert claimed.status_code == 201
        body = claimed.json()
        assert body["question"] == {"id": str(expected.uuid), "text": expected.text}
        lease = Lease.objects.get(pk=body["id"])
        claims.append({k: v for k, v in body.items() if k not in ("id", "question", "expires_at")})
        html = page(client.get(f"/annotate/leases/{lease.pk}/"))
        assert text_of(by_id(html, "question-to-answer")) == expected.text
        pages.append(normalized(html, expected, lease))
        answer_submit(lease=lease, data={"no_answer": True})
    # The same page, the same claim, for either kind of question: nothing tells them apart.
    assert pages[0] == pages[1]
    assert claims[0] == claims[1]
    for word in ("plausible", "unanswerable", "impossible", "sans réponse"):
        assert word not in pages[1].lower()
    # The plausible span is in the paragraph (its text, its JSON copy) and nowhere else.
    assert pages[1].count("La Loire") == 2


def test_a_campaign_kind_is_one_of_the_writing_kinds():
    assert set(Campaign.WRITING_KINDS) == {"questions", "unanswerable"}


# Quality: the verdict answerable counts as a correction


def test_quality_counts_an_answerable_verdict_as_corrected(
    client, unanswerable, writing, reviewer, admin_user
):
    verdicts = [
        {"verdict": "approve"},
        {"verdict": "answerable", "answer_start": MONT, "answer_text": "mont Gerbier-de-Jonc"},
        {"verdict": "reject", "reason": "not_a_question"},
    ]
    for question, data in zip(unanswerable, verdicts, strict=True):
        review_submit(lease=claim(writing, reviewer, question), data=data | {"seconds_spent": 5})
    rows = api_for(admin_user).get(f"/api/v1/quality/?campaign={writing.pk}").json()
    assert [
        (
            r["annotator"],
            r["questions"],
            r["reviewed"],
            r["approved_pct"],
            r["corrected_pct"],
            r["rejected_pct"],
            r["median_seconds"],
        )
        for r in rows
    ] == [("ann0", 3, 3, 33.3, 33.3, 33.3, 50.0)]
    client.force_login(reviewer)
    html = page(client.get(f"/manage/quality/?campaign={writing.pk}"))
    options = [text_of(e) for e in find_all(by_id(html, "quality-campaign")) if e.name == "option"]
    assert "Sans réponse" in options  # an unanswerable campaign is one to pick
    assert len(find_all(html, id="quality-answerable")) == 1
