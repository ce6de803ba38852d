"""The review loop, the additional answers, quality, pause and human performance by the API.

Every call goes through `/api/v1/…` as a script would (token or forced authentication); the
services behind it have their own tests (test_reviews.py, test_work.py).
"""

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.services import token_issue
from annotation.models import Answer, Lease, Question, QuestionRevision, Review
from annotation.services.campaigns import campaign_create, campaign_update
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def token_api_for(user) -> APIClient:
    """A client sending `Authorization: Token …`: the user is read again on every call."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user)}")
    return client


@pytest.fixture
def audited(campaign):
    """The questions campaign, every question sampled for review."""
    return campaign_update(campaign=campaign, review_rate=Decimal("1"))


@pytest.fixture
def sampled(audited, paragraphs, annotators):
    """Three sampled, pending questions of ann0 on paragraphs[0]: « Loire », « fleuve », « prend »."""
    lease = lease_claim_next(campaign=audited, annotator=annotators[0]).lease
    questions = questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    assert [q.sampled_for_review for q in questions] == [True, True, True]
    return questions


@pytest.fixture
def reviewer_api(reviewer):
    """The reviewer, authenticated the way scripts are."""
    return token_api_for(reviewer)


@pytest.fixture
def reviewer2(db):
    return UserFactory(username="rev2", roles=[Role.REVIEWER])


def snapshot(lease: Lease) -> dict:
    """Everything a refused verdict must leave as it was."""
    question = Question.objects.get(pk=lease.question_id)
    answer = Answer.objects.get(question=question, kind="original")
    return {
        "reviews": list(Review.objects.values_list("pk", flat=True)),
        "revisions": list(
            QuestionRevision.objects.order_by("pk").values_list(
                "question_id",
                "number",
                "origin",
                "editor_id",
                "text",
                "answer_start",
                "answer_text",
            )
        ),
        "question": (question.status, question.text, question.question_type),
        "answer": (answer.answer_start, answer.text, answer.author_id),
        "lease": Lease.objects.filter(pk=lease.pk).values_list("status", "finished_at").get(),
    }


def review_leases(campaign) -> str:
    return f"/api/v1/campaigns/{campaign.pk}/review-leases/"


def submit(lease_id) -> str:
    return f"/api/v1/leases/{lease_id}/submit/"


def without_times(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in row.items() if k != "created_at"} for row in rows]


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value)


# Claiming a question to review


def test_a_reviewer_claims_the_first_sampled_question_with_its_answer(
    reviewer_api, audited, sampled, paragraphs
):
    response = reviewer_api.post(review_leases(audited))
    assert response.status_code == 201
    body = response.json()
    lease = Lease.objects.get(kind="review")
    article = paragraphs[0].article
    expires_at = parse_time(body.pop("expires_at"))
    assert body == {
        "id": lease.pk,
        "kind": "review",
        "campaign": audited.pk,
        "status": "active",
        "paragraph": {
            "id": paragraphs[0].pk,
            "text": paragraphs[0].text,
            "article": {"title": "A0", "split": "dev", "url": article.url},
        },
        "question": {
            "id": str(sampled[0].uuid),
            "text": "Question 0 sur « Loire » ?",
            "question_type": "other",
            "is_impossible": False,
            "answer": {"answer_start": 3, "text": "Loire"},
            "plausible_answer": None,
        },
        "questions_min": 3,
        "questions_max": 5,
        "draft": {},
        "draft_saved_at": None,
    }
    assert expires_at == lease.expires_at
    assert timedelta(minutes=29) < expires_at - timezone.now() <= timedelta(minutes=30)
    assert (lease.kind, lease.question_id, lease.annotator.username) == (
        "review",
        sampled[0].pk,
        "rev",
    )


def test_claiming_again_gives_the_same_lease_with_200(reviewer_api, audited, sampled):
    first = reviewer_api.post(review_leases(audited))
    again = reviewer_api.post(review_leases(audited))
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["id"] == first.json()["id"]
    assert again.json()["question"]["id"] == str(sampled[0].uuid)
    assert Lease.objects.filter(kind="review").count() == 1


def test_the_work_loop_reviews_every_sampled_question_then_answers_204(
    reviewer_api, audited, sampled
):
    seen = []
    for _ in sampled:
        claimed = reviewer_api.post(review_leases(audited))
        assert claimed.status_code == 201
        seen.append(claimed.json()["question"]["id"])
        sent = reviewer_api.post(
            submit(claimed.json()["id"]), {"verdict": "approve"}, format="json"
        )
        assert sent.status_code == 201
    assert seen == [str(q.uuid) for q in sampled]
    nothing = reviewer_api.post(review_leases(audited))
    assert (nothing.status_code, nothing.content) == (204, b"")
    assert (
        list(Question.objects.order_by("pk").values_list("status", flat=True)) == ["approved"] * 3
    )
    assert Lease.objects.filter(kind="review", status="submitted").count() == 3


def test_an_annotator_cannot_claim_a_review(audited, sampled, annotators):
    response = api_for(annotators[1]).post(review_leases(audited))
    assert response.status_code == 403
    assert list(response.json()["errors"]) == ["detail"]
    assert Lease.objects.filter(kind="review").count() == 0


def test_anonymous_claims_are_401(audited, sampled):
    assert APIClient().post(review_leases(audited)).status_code == 401


# Verdicts


def test_approve_by_the_api(reviewer_api, audited, sampled, reviewer):
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    response = reviewer_api.post(
        submit(lease_id),
        {"verdict": "approve", "comment": "  Très bien.  ", "seconds_spent": 17},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    review = Review.objects.get()
    assert parse_time(body.pop("created_at")) == review.created_at
    assert body == {
        "question": str(sampled[0].uuid),
        "reviewer": "rev",
        "verdict": "approve",
        "reason": "",
        "comment": "Très bien.",
        "version": None,
    }
    assert (review.seconds_spent, review.lease_id, review.reviewer_id) == (
        17,
        lease_id,
        reviewer.pk,
    )
    question = Question.objects.get(pk=sampled[0].pk)
    assert (question.status, question.text) == ("approved", sampled[0].text)
    assert Lease.objects.get(pk=lease_id).status == "submitted"
    assert QuestionRevision.objects.filter(question=question).count() == 1


def test_reject_by_the_api(reviewer_api, audited, sampled):
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    response = reviewer_api.post(
        submit(lease_id),
        {"verdict": "reject", "reason": "copied", "comment": "Recopie la phrase."},
        format="json",
    )
    assert response.status_code == 201
    assert without_times([response.json()]) == [
        {
            "question": str(sampled[0].uuid),
            "reviewer": "rev",
            "verdict": "reject",
            "reason": "copied",
            "comment": "Recopie la phrase.",
            "version": None,
        }
    ]
    assert Question.objects.get(pk=sampled[0].pk).status == "rejected"
    assert Answer.objects.get(question=sampled[0]).text == "Loire"


def test_correct_by_the_api_and_the_question_shows_its_history(
    reviewer_api, audited, sampled, paragraphs, annotators
):
    text = paragraphs[0].text
    start = text.index("mont Gerbier-de-Jonc")
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    response = reviewer_api.post(
        submit(lease_id),
        {
            "verdict": "correct",
            "question_text": "Où la Loire prend-elle sa source ?",
            "answer_start": start,
            "answer_text": "mont Gerbier-de-Jonc",
            "comment": "Question reformulée.",
            "seconds_spent": 60,
        },
        format="json",
    )
    assert response.status_code == 201
    assert without_times([response.json()]) == [
        {
            "question": str(sampled[0].uuid),
            "reviewer": "rev",
            "verdict": "correct",
            "reason": "",
            "comment": "Question reformulée.",
            "version": 2,
        }
    ]
    question = Question.objects.get(pk=sampled[0].pk)
    assert (question.status, question.text, question.question_type) == (
        "corrected",
        "Où la Loire prend-elle sa source ?",
        "where",
    )
    original = Answer.objects.get(question=question, kind="original")
    assert (original.answer_start, original.text) == (start, "mont Gerbier-de-Jonc")
    assert text[start : start + len(original.text)] == original.text

    for client in (reviewer_api, api_for(annotators[0])):  # a reviewer, the author
        detail = client.get(f"/api/v1/questions/{question.uuid}/")
        assert detail.status_code == 200
        body = detail.json()
        assert (body["id"], body["author"], body["status"], body["text"]) == (
            str(question.uuid),
            "ann0",
            "corrected",
            "Où la Loire prend-elle sa source ?",
        )
        assert without_times(body["revisions"]) == [
            {
                "number": 1,
                "origin": "written",
                "editor": "ann0",
                "text": "Question 0 sur « Loire » ?",
                "is_impossible": False,
                "answer_start": 3,
                "answer_text": "Loire",
            },
            {
                "number": 2,
                "origin": "corrected",
                "editor": "rev",
                "text": "Où la Loire prend-elle sa source ?",
                "is_impossible": False,
                "answer_start": start,
                "answer_text": "mont Gerbier-de-Jonc",
            },
        ]
        assert without_times(body["reviews"]) == [
            {
                "question": str(question.uuid),
                "reviewer": "rev",
                "verdict": "correct",
                "reason": "",
                "comment": "Question reformulée.",
                "version": 2,
            }
        ]
        assert body["answers"] == [
            {
                "answer_start": start,
                "text": "mont Gerbier-de-Jonc",
                "kind": "original",
                "no_answer": False,
                "seconds_spent": 40,
            }
        ]


def test_annotators_read_only_their_own_questions(audited, sampled, annotators):
    path = f"/api/v1/questions/{sampled[1].uuid}/"
    own = api_for(annotators[0]).get(path)
    assert (own.status_code, own.json()["reviews"], len(own.json()["revisions"])) == (200, [], 1)
    other = api_for(annotators[1]).get(path)
    assert other.status_code == 404
    assert list(other.json()["errors"]) == ["detail"]


# Refused verdicts: 4xx naming the field, nothing changed


def test_a_verdict_on_another_reviewers_lease_is_403(audited, sampled, reviewer, reviewer2):
    lease = review_claim_next(campaign=audited, reviewer=reviewer).lease
    before = snapshot(lease)
    response = api_for(reviewer2).post(submit(lease.pk), {"verdict": "approve"}, format="json")
    assert response.status_code == 403
    assert list(response.json()["errors"]) == ["lease"]
    assert snapshot(lease) == before
    assert before["lease"] == ("active", None) and before["reviews"] == []


def test_a_correction_with_a_bad_span_is_400_answer_text(
    reviewer_api, audited, sampled, paragraphs
):
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    lease = Lease.objects.get(pk=lease_id)
    before = snapshot(lease)
    start = paragraphs[0].text.index("Ardèche")
    response = reviewer_api.post(
        submit(lease_id),
        {"verdict": "correct", "answer_start": start + 1, "answer_text": "Ardèche"},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["answer_text"]
    assert snapshot(lease) == before


def test_reviewing_your_own_question_is_403(audited, paragraphs):
    both = UserFactory(username="both", roles=[Role.ANNOTATOR, Role.REVIEWER])
    written = lease_claim_next(campaign=audited, annotator=both).lease
    own = questions_submit(lease=written, questions=good_questions(paragraphs[0]))[0]
    lease = Lease.objects.create(  # the claim never offers it; a row made by hand
        campaign=audited,
        kind="review",
        paragraph=own.paragraph,
        question=own,
        annotator=both,
        expires_at=timezone.now() + timedelta(minutes=30),
    )
    before = snapshot(lease)
    response = api_for(both).post(submit(lease.pk), {"verdict": "approve"}, format="json")
    assert response.status_code == 403
    assert list(response.json()["errors"]) == ["lease"]
    assert snapshot(lease) == before


@pytest.mark.parametrize("verdict", ["maybe", "", "APPROVE"])
def test_an_unknown_verdict_is_400_verdict(reviewer_api, audited, sampled, verdict):
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    before = snapshot(Lease.objects.get(pk=lease_id))
    response = reviewer_api.post(submit(lease_id), {"verdict": verdict}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["verdict"]
    assert snapshot(Lease.objects.get(pk=lease_id)) == before


def test_a_rejection_without_reason_is_400_reason(reviewer_api, audited, sampled):
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    before = snapshot(Lease.objects.get(pk=lease_id))
    response = reviewer_api.post(
        submit(lease_id), {"verdict": "reject", "comment": "Non."}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["reason"]
    assert snapshot(Lease.objects.get(pk=lease_id)) == before


def test_a_second_verdict_on_a_submitted_lease_is_409(reviewer_api, audited, sampled):
    lease_id = reviewer_api.post(review_leases(audited)).json()["id"]
    first = reviewer_api.post(submit(lease_id), {"verdict": "approve"}, format="json")
    assert first.status_code == 201
    again = reviewer_api.post(
        submit(lease_id), {"verdict": "reject", "reason": "copied"}, format="json"
    )
    assert again.status_code == 409
    assert list(again.json()["errors"]) == ["lease"]
    assert list(Review.objects.values_list("verdict", flat=True)) == ["approve"]
    assert Question.objects.get(pk=sampled[0].pk).status == "approved"


# Additional answers by the API


@pytest.fixture
def answers_campaign(db):
    return campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])


def test_the_additional_answer_loop(answers_campaign, sampled, paragraphs, annotators):
    api = api_for(annotators[1])
    path = f"/api/v1/campaigns/{answers_campaign.pk}/leases/"
    text = paragraphs[0].text

    claimed = api.post(path)
    assert claimed.status_code == 201
    body = claimed.json()
    assert body["kind"] == "answer"
    assert set(body["question"]) == {"id", "text"}  # never the author's answer
    assert body["question"] == {"id": str(sampled[0].uuid), "text": "Question 0 sur « Loire » ?"}
    assert body["paragraph"]["text"] == text
    sent = api.post(
        submit(body["id"]),
        {"answer_start": 0, "answer_text": "La Loire", "seconds_spent": 12},
        format="json",
    )
    assert sent.status_code == 201
    assert sent.json() == {
        "answer_start": 0,
        "text": "La Loire",
        "kind": "additional",
        "no_answer": False,
        "seconds_spent": 12,
    }

    second = api.post(path)
    assert second.status_code == 201
    assert second.json()["question"] == {
        "id": str(sampled[1].uuid),
        "text": "Question 1 sur « fleuve » ?",
    }
    none = api.post(
        submit(second.json()["id"]), {"no_answer": True, "seconds_spent": 5}, format="json"
    )
    assert none.status_code == 201
    assert none.json() == {
        "answer_start": 0,
        "text": "",
        "kind": "additional",
        "no_answer": True,
        "seconds_spent": 5,
    }

    third = api.post(path)
    assert third.json()["question"]["id"] == str(sampled[2].uuid)
    bad = api.post(
        submit(third.json()["id"]),
        {"answer_start": 0, "answer_text": "fleuve", "seconds_spent": 3},
        format="json",
    )
    assert bad.status_code == 400
    assert list(bad.json()["errors"]) == ["answer_text"]
    assert Lease.objects.get(pk=third.json()["id"]).status == "active"

    stored = Answer.objects.filter(kind="additional").order_by("pk")
    assert [
        (a.question_id, a.author_id, a.answer_start, a.text, a.no_answer, a.seconds_spent)
        for a in stored
    ] == [
        (sampled[0].pk, annotators[1].pk, 0, "La Loire", False, 12),
        (sampled[1].pk, annotators[1].pk, 0, "", True, 5),
    ]
    assert text[0 : len("La Loire")] == "La Loire"


def test_the_author_is_never_offered_their_own_question(answers_campaign, sampled, annotators):
    response = api_for(annotators[0]).post(f"/api/v1/campaigns/{answers_campaign.pk}/leases/")
    assert response.status_code == 204
    assert Lease.objects.filter(kind="answer").count() == 0


# Quality per annotator


@pytest.fixture
def four_reviewed(audited, paragraphs, annotators, reviewer):
    """ann0's 4 questions (10, 20, 30, 40 s): approved, rejected, corrected, still pending."""
    payload = good_questions(paragraphs[0], count=4)
    for item, seconds in zip(payload, (10, 20, 30, 40), strict=True):
        item["seconds_spent"] = seconds
    lease = lease_claim_next(campaign=audited, annotator=annotators[0]).lease
    questions = questions_submit(lease=lease, questions=payload)
    text = paragraphs[0].text
    for verdict in (
        {"verdict": "approve"},
        {"verdict": "reject", "reason": "ambiguous"},
        {"verdict": "correct", "answer_start": text.index("Ardèche"), "answer_text": "Ardèche"},
    ):
        review = review_claim_next(campaign=audited, reviewer=reviewer).lease
        review_submit(lease=review, data=verdict)
    statuses = [Question.objects.get(pk=q.pk).status for q in questions]
    assert statuses == ["approved", "rejected", "corrected", "pending"]
    return questions


def test_quality_rows_have_exact_values(admin_user, audited, four_reviewed, annotators):
    api = api_for(admin_user)
    response = api.get(f"/api/v1/quality/?campaign={audited.pk}")
    assert response.status_code == 200
    # 4 questions, 3 reviewed: each verdict is 1 of 3 → 33.3 %; median of 10, 20, 30, 40 = 25
    [row] = response.json()
    # Agreement, signs and history (docs/quality.md): no additional answer to agree with; 4
    # one-word answers of 4, 3 made of the question's words, none the first sentence; fewer
    # than 20 answers: nothing flagged; one week: 3 reviewed, 1 rejected.
    assert (row.pop("agreement"), row.pop("agreement_answers"), row.pop("flags")) == (None, 0, [])
    signs = row.pop("signs")
    assert {name: (s["count"], s["answers"], s["flagged"]) for name, s in signs.items()} == {
        "short": (4, 4, False),
        "first_sentence": (0, 4, False),
        "question_words": (3, 4, False),
    }
    assert [(week["reviewed"], round(week["rejected_pct"], 1)) for week in row.pop("history")] == [
        (3, 33.3)
    ]
    # The campaign's fixed rate (the audited fixture reviews all); no gold answer.
    assert row.pop("review_rate") == {
        "rate": 100.0,
        "why": "taux de 100\u202f%\u00a0: celui de la campagne",
        "flagged": False,
    }
    assert row.pop("gold") is None
    assert [row] == [
        {
            "annotator": "ann0",
            "annotator_id": annotators[0].pk,
            "paused": False,
            "questions": 4,
            "reviewed": 3,
            "approved_pct": 33.3,
            "corrected_pct": 33.3,
            "rejected_pct": 33.3,
            "median_seconds": 25.0,
            # no model in the loop: no verdict, no rate (tests/annotation/test_model_review.py)
            "model_judged": 0,
            "fooled": 0,
            "fooling_pct": None,
            "validated_fooling_pct": None,
        }
    ]
    assert api.get("/api/v1/quality/").json()[0]["questions"] == 4
    other = campaign_create(name="Vide", splits=["dev"])
    assert api.get(f"/api/v1/quality/?campaign={other.pk}").json() == []
    missing = api.get("/api/v1/quality/?campaign=999999")
    assert (missing.status_code, list(missing.json()["errors"])) == (404, ["campaign"])
    bad = api.get("/api/v1/quality/?campaign=abc")
    assert (bad.status_code, list(bad.json()["errors"])) == (400, ["campaign"])
    assert api.post(f"/api/v1/annotators/{annotators[0].pk}/pause/", {}).status_code == 200
    assert [row["paused"] for row in api.get("/api/v1/quality/").json()] == [True]


def test_quality_of_unreviewed_work_has_no_shares(admin_user, campaign, paragraphs, annotators):
    # review rate 0: nothing reviewed, so the shares are undefined (None), not 0
    campaign_update(campaign=campaign, review_rate=Decimal("0"))
    lease = lease_claim_next(campaign=campaign, annotator=annotators[1]).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[0]))  # 40, 41, 42 s
    [row] = api_for(admin_user).get("/api/v1/quality/").json()
    assert (row.pop("agreement"), row.pop("flags"), row.pop("history")) == (None, [], [])
    assert row.pop("signs")["short"]["count"] == 3 and row.pop("agreement_answers") == 0
    assert (row.pop("review_rate"), row.pop("gold")) == (None, None)  # all campaigns: none
    assert [row] == [
        {
            "annotator": "ann1",
            "annotator_id": annotators[1].pk,
            "paused": False,
            "questions": 3,
            "reviewed": 0,
            "approved_pct": None,
            "corrected_pct": None,
            "rejected_pct": None,
            "median_seconds": 41.0,
            "model_judged": 0,
            "fooled": 0,
            "fooling_pct": None,
            "validated_fooling_pct": None,
        }
    ]


def test_quality_is_not_for_annotators(annotator, four_reviewed):
    # Reviewers and admins read it (tests/annotation/test_quality_access.py).
    response = api_for(annotator).get("/api/v1/quality/")
    assert response.status_code == 403
    assert list(response.json()["errors"]) == ["detail"]


# Pausing an annotator


def test_a_paused_annotator_cannot_claim_until_resumed(
    admin_user, campaign, paragraphs, annotators
):
    admin = api_for(admin_user)
    worker = token_api_for(annotators[1])
    pause_path = f"/api/v1/annotators/{annotators[1].pk}/pause/"
    claim_path = f"/api/v1/campaigns/{campaign.pk}/leases/"

    paused = admin.post(pause_path, {"note": "  Réponses trop longues.  "}, format="json")
    assert paused.status_code == 200
    body = paused.json()
    annotators[1].refresh_from_db()
    assert annotators[1].paused_at is not None
    assert parse_time(body.pop("paused_at")) == annotators[1].paused_at
    assert body == {
        "id": annotators[1].pk,
        "username": "ann1",
        "pause_note": "Réponses trop longues.",
    }

    refused = worker.post(claim_path)
    assert refused.status_code == 403
    assert list(refused.json()["errors"]) == ["detail"]
    assert Lease.objects.count() == 0
    assert api_for(admin_user).get("/api/v1/quality/").json() == []  # wrote nothing yet

    resumed = admin.delete(pause_path)
    assert resumed.status_code == 200
    assert resumed.json() == {
        "id": annotators[1].pk,
        "username": "ann1",
        "paused_at": None,
        "pause_note": "",
    }
    claimed = worker.post(claim_path)
    assert claimed.status_code == 201
    assert claimed.json()["paragraph"]["id"] == paragraphs[0].pk


def test_a_pause_note_with_a_nul_character_is_400_note(admin_user, annotators):
    response = api_for(admin_user).post(
        f"/api/v1/annotators/{annotators[1].pk}/pause/", {"note": "a\x00b"}, format="json"
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["note"]
    annotators[1].refresh_from_db()
    assert (annotators[1].paused_at, annotators[1].pause_note) == (None, "")


def test_only_annotators_are_paused_and_only_by_admins(admin_user, reviewer, annotators):
    refused = api_for(admin_user).post(
        f"/api/v1/annotators/{reviewer.pk}/pause/", {}, format="json"
    )
    assert (refused.status_code, list(refused.json()["errors"])) == (400, ["user"])
    missing = api_for(admin_user).post("/api/v1/annotators/999999/pause/", {}, format="json")
    assert (missing.status_code, list(missing.json()["errors"])) == (404, ["annotator"])
    forbidden = api_for(reviewer).post(f"/api/v1/annotators/{annotators[0].pk}/pause/", {})
    assert forbidden.status_code == 403
    reviewer.refresh_from_db()
    annotators[0].refresh_from_db()
    assert (reviewer.paused_at, annotators[0].paused_at) == (None, None)


# Human performance


def test_human_performance_api_shape(admin_user):
    api = api_for(admin_user)
    response = api.get("/api/v1/human-performance/")
    assert response.status_code == 200
    assert response.json() == {
        "splits": {},
        "v2": {},
        "annotators": [],
        "paper": {
            "dev": {"f1": 92.1, "exact_match": 78.3},
            "test": {"f1": 91.2, "exact_match": 75.9},
        },
        "normalization": {"name": "fquad-fr", "version": "1"},
        "language": "fr",
    }
    assert api.get("/api/v1/human-performance/?split=dev").json() == response.json()


def test_human_performance_api_refuses_an_unknown_split(admin_user):
    response = api_for(admin_user).get("/api/v1/human-performance/?split=bogus")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["split"]


def test_human_performance_api_is_for_admins(reviewer):
    assert api_for(reviewer).get("/api/v1/human-performance/").status_code == 403


def test_only_reviewers_and_admins_see_whether_a_question_was_sampled(
    reviewer_api, audited, sampled, annotators
):
    path = f"/api/v1/questions/{sampled[0].uuid}/"
    assert reviewer_api.get(path).json()["sampled_for_review"] is True
    own = api_for(annotators[0]).get(path).json()
    assert own["sampled_for_review"] is None  # the author could game a steady sampler
    listed = api_for(annotators[0]).get("/api/v1/questions/").json()["results"]
    assert all("sampled_for_review" not in row for row in listed)
