"""The work loop: claim, draft, submit, release, with the rules on every step.

`make test` runs this module on PostgreSQL and again on SQLite (the `make run` default).
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from annotation.models import Answer, Lease, Question
from annotation.services.work import draft_save, lease_claim_next, lease_release, questions_submit
from core.errors import ServiceError
from tests.annotation.conftest import expire, good_questions
from tests.factories import UserFactory

pytestmark = pytest.mark.both_backends


def test_claim_gives_the_first_free_paragraph_and_a_reload_returns_it(
    campaign, paragraphs, annotators
):
    first = lease_claim_next(campaign=campaign, annotator=annotators[0])
    assert (first.created, first.lease.paragraph) == (True, paragraphs[0])
    assert first.lease.expires_at > timezone.now() + timedelta(minutes=29)
    again = lease_claim_next(campaign=campaign, annotator=annotators[0])
    assert (again.created, again.lease.pk) == (False, first.lease.pk)
    other = lease_claim_next(campaign=campaign, annotator=annotators[1])
    assert other.lease.paragraph == paragraphs[1]


def test_nothing_left_is_none(campaign, paragraphs, annotators):
    for paragraph, annotator in zip(paragraphs, annotators, strict=True):
        lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
        questions_submit(lease=lease, questions=good_questions(paragraph))
    assert lease_claim_next(campaign=campaign, annotator=UserFactory(roles=["annotator"])) is None


def test_submit_stores_questions_answers_and_types(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    payload = good_questions(paragraphs[0])
    payload[0]["text"] = "  Où   la Loire se jette-t-elle ?  "
    stored = questions_submit(lease=lease, questions=payload)
    lease.refresh_from_db()
    assert lease.status == "submitted"
    assert [q.position for q in stored] == [0, 1, 2]
    assert stored[0].text == "Où la Loire se jette-t-elle ?"
    assert stored[0].question_type == "where"
    for question, item in zip(stored, payload, strict=True):
        answer = question.answers.get()
        assert (answer.answer_start, answer.text, answer.kind) == (
            item["answer_start"],
            item["answer_text"],
            "original",
        )
        text = paragraphs[0].text
        assert text[answer.answer_start : answer.answer_start + len(answer.text)] == answer.text


def test_offsets_are_code_points_after_an_emoji(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    text = paragraphs[0].text
    start = text.index("en Ardèche")
    assert start == text.index("🌋") + 2  # one code point for the emoji, one space
    payload = good_questions(paragraphs[0])
    payload[2] = {
        "text": "Dans quel département ?",
        "answer_start": start + 3,
        "answer_text": "Ardèche",
    }
    questions_submit(lease=lease, questions=payload)
    assert Answer.objects.get(text="Ardèche").answer_start == start + 3


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda q: q[0].update(answer_start=q[0]["answer_start"] + 1), "questions[0].answer_text"),
        (lambda q: q[1].update(answer_start=10_000), "questions[1].answer_start"),
        (lambda q: q[1].update(answer_start=-1), "questions[1].answer_start"),
        (lambda q: q[2].update(answer_text=""), "questions[2].answer_text"),
        (lambda q: q[0].update(text=""), "questions[0].text"),
        (lambda q: q[0].update(text="x" * 10_000), "questions[0].text"),
        (lambda q: q[2].update(text=q[1]["text"].upper()), "questions[2].text"),
        (lambda q: q[0].update(seconds_spent=-3), "questions[0].seconds_spent"),
        (lambda q: q.pop(), "questions"),
        (lambda q: q.extend(q[:3]), "questions"),
    ],
)
def test_bad_questions_are_refused_by_field_and_nothing_is_stored(
    campaign, paragraphs, annotators, change, field
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    payload = good_questions(paragraphs[0])
    change(payload)
    with pytest.raises(ServiceError) as error:
        questions_submit(lease=lease, questions=payload)
    assert field in error.value.errors
    assert Question.objects.count() == 0 and Answer.objects.count() == 0
    assert Lease.objects.get(pk=lease.pk).status == "active"


def test_a_draft_is_kept_and_typing_keeps_the_lease(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() + timedelta(minutes=1))
    draft_save(lease=lease, draft={"questions": [{"text": "Quand ?"}]})
    lease.refresh_from_db()
    assert lease.draft == {"questions": [{"text": "Quand ?"}]}
    assert lease.expires_at > timezone.now() + timedelta(minutes=29)


def test_a_draft_must_be_an_object_of_at_most_64_kb(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    with pytest.raises(ServiceError) as error:
        draft_save(lease=lease, draft={"text": "x" * 70_000})
    assert (list(error.value.errors), error.value.status) == (["draft"], 413)
    with pytest.raises(ServiceError):
        draft_save(lease=lease, draft=["not", "an", "object"])
    assert Lease.objects.get(pk=lease.pk).draft == {}


def test_an_expired_lease_returns_to_the_pool(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    other = lease_claim_next(campaign=campaign, annotator=annotators[1]).lease
    assert other.paragraph == paragraphs[0]
    assert Lease.objects.get(pk=lease.pk).status == "expired"


def test_an_expired_lease_still_takes_its_own_work_when_nobody_took_the_paragraph(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    questions_submit(lease=expire(lease), questions=good_questions(paragraphs[0]))
    assert Lease.objects.get(pk=lease.pk).status == "submitted"
    assert Question.objects.filter(paragraph=paragraphs[0]).count() == 3


def test_an_expired_lease_is_refused_when_someone_else_took_the_paragraph(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    draft_save(lease=lease, draft={"questions": ["kept"]})
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(minutes=5))
    taken = lease_claim_next(campaign=campaign, annotator=annotators[1]).lease
    assert taken.paragraph == paragraphs[0]
    with pytest.raises(ServiceError) as error:
        questions_submit(
            lease=Lease.objects.get(pk=lease.pk), questions=good_questions(paragraphs[0])
        )
    assert error.value.status == 409
    assert Question.objects.count() == 0
    assert Lease.objects.get(pk=lease.pk).draft == {"questions": ["kept"]}


def test_an_expired_lease_with_a_draft_comes_back_to_its_annotator(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    draft_save(lease=lease, draft={"questions": ["mine"]})
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(minutes=5))
    back = lease_claim_next(campaign=campaign, annotator=annotators[0])
    assert (back.lease.pk, back.lease.status, back.created) == (lease.pk, "active", False)
    assert back.lease.draft == {"questions": ["mine"]}


def test_skip_gives_it_to_others_but_never_back(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    lease_release(lease=lease, reason="skip")
    assert (
        lease_claim_next(campaign=campaign, annotator=annotators[0]).lease.paragraph
        == (paragraphs[1])
    )
    assert (
        lease_claim_next(campaign=campaign, annotator=annotators[1]).lease.paragraph
        == (paragraphs[0])
    )


def test_an_unsuitable_report_takes_the_paragraph_out_for_everyone(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    lease_release(lease=lease, reason="unsuitable", note="Que des dates, aucune phrase.")
    assert (
        lease_claim_next(campaign=campaign, annotator=annotators[1]).lease.paragraph
        == (paragraphs[1])
    )
    assert Lease.objects.get(pk=lease.pk).release_note == "Que des dates, aucune phrase."


def test_a_submitted_or_released_lease_is_closed(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    for action in (
        lambda: questions_submit(lease=lease, questions=good_questions(paragraphs[0])),
        lambda: draft_save(lease=lease, draft={}),
        lambda: lease_release(lease=lease, reason="skip"),
    ):
        with pytest.raises(ServiceError) as error:
            action()
        assert error.value.status == 409
    assert Question.objects.count() == 3


def test_a_closed_campaign_refuses_claims(campaign, paragraphs, annotators):
    campaign.active = False
    campaign.save()
    with pytest.raises(ServiceError) as error:
        lease_claim_next(campaign=campaign, annotator=annotators[0])
    assert error.value.status == 409
    assert Lease.objects.count() == 0


# The API: the same services behind the DESIGN's work loop.


@pytest.fixture
def api(annotators):
    client = APIClient()
    client.force_authenticate(annotators[0])
    return client


def test_api_work_loop(api, campaign, paragraphs, annotators):
    claimed = api.post(f"/api/v1/campaigns/{campaign.pk}/leases/")
    assert claimed.status_code == 201
    body = claimed.json()
    assert (body["kind"], body["paragraph"]["text"], body["paragraph"]["article"]["split"]) == (
        "write",
        paragraphs[0].text,
        "dev",
    )
    assert api.post(f"/api/v1/campaigns/{campaign.pk}/leases/").status_code == 200
    lease_id = body["id"]
    draft = api.put(f"/api/v1/leases/{lease_id}/draft/", {"draft": {"q": ["Qui ?"]}}, format="json")
    assert (draft.status_code, draft.json()["draft"]) == (200, {"q": ["Qui ?"]})
    submitted = api.post(
        f"/api/v1/leases/{lease_id}/submit/",
        {"questions": good_questions(paragraphs[0])},
        format="json",
    )
    assert submitted.status_code == 201
    assert [q["position"] for q in submitted.json()] == [0, 1, 2]
    mine = api.get("/api/v1/questions/").json()["results"]
    assert len(mine) == 3 and {q["author"] for q in mine} == {"ann0"}


def test_api_drafts_saved_again_and_again_then_given_back_and_submitted(api, campaign, paragraphs):
    """The page autosaves every few seconds on one lease: every save is kept (on SQLite the
    second one answered 500, a naive time compared with an aware one)."""
    claims = f"/api/v1/campaigns/{campaign.pk}/leases/"
    first = api.post(claims).json()["id"]
    for count in range(1, 6):
        draft = {"questions": [{"text": f"Question {n} ?"} for n in range(count)]}
        saved = api.put(f"/api/v1/leases/{first}/draft/", {"draft": draft}, format="json")
        assert (saved.status_code, saved.json()["draft"]) == (200, draft)
    lease = Lease.objects.get(pk=first)
    assert len(lease.draft["questions"]) == 5
    assert lease.expires_at >= lease.draft_saved_at + timedelta(minutes=29)
    assert api.post(claims).json()["draft"] == lease.draft  # a reload finds all of them

    given_back = api.post(f"/api/v1/leases/{first}/release/", {"reason": "skip"}, format="json")
    assert given_back.status_code == 200
    assert Lease.objects.get(pk=first).status == "released"

    second = api.post(claims).json()
    assert second["paragraph"]["id"] == paragraphs[1].pk
    sent = good_questions(paragraphs[1])
    for count in (1, 2, 3):
        draft = {"questions": sent[:count]}
        saved = api.put(f"/api/v1/leases/{second['id']}/draft/", {"draft": draft}, format="json")
        assert saved.status_code == 200
    submitted = api.post(
        f"/api/v1/leases/{second['id']}/submit/", {"questions": sent}, format="json"
    )
    assert submitted.status_code == 201
    assert [q["text"] for q in submitted.json()] == [q["text"] for q in sent]
    assert Lease.objects.get(pk=second["id"]).status == "submitted"


def test_api_bad_submit_is_400_naming_the_field(api, campaign, paragraphs):
    lease_id = api.post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()["id"]
    payload = good_questions(paragraphs[0])
    payload[1]["answer_text"] = "ceci n'est pas dans le texte"
    response = api.post(f"/api/v1/leases/{lease_id}/submit/", {"questions": payload}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["questions[1].answer_text"]
    assert Question.objects.count() == 0


def test_api_someone_elses_lease_is_403_and_changes_nothing(api, campaign, paragraphs, annotators):
    theirs = lease_claim_next(campaign=campaign, annotator=annotators[1]).lease
    for method, path, data in (
        ("put", f"/api/v1/leases/{theirs.pk}/draft/", {"draft": {"x": 1}}),
        (
            "post",
            f"/api/v1/leases/{theirs.pk}/submit/",
            {"questions": good_questions(paragraphs[0])},
        ),
        ("post", f"/api/v1/leases/{theirs.pk}/release/", {"reason": "skip"}),
    ):
        response = getattr(api, method)(path, data, format="json")
        assert response.status_code == 403, path
        assert list(response.json()["errors"]) == ["lease"]
    theirs.refresh_from_db()
    assert (theirs.status, theirs.draft) == ("active", {})
    assert Question.objects.count() == 0


def test_api_nothing_left_is_204(api, campaign):
    assert api.post(f"/api/v1/campaigns/{campaign.pk}/leases/").status_code == 204


def test_api_reviewers_cannot_claim(campaign, paragraphs, reviewer):
    client = APIClient()
    client.force_authenticate(reviewer)
    assert client.post(f"/api/v1/campaigns/{campaign.pk}/leases/").status_code == 403
    assert Lease.objects.count() == 0


def test_api_release_needs_a_known_reason(api, campaign, paragraphs):
    lease_id = api.post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()["id"]
    response = api.post(f"/api/v1/leases/{lease_id}/release/", {"reason": "bored"}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["reason"]
    assert Lease.objects.get(pk=lease_id).status == "active"


def test_api_question_filters(api, campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    assert len(api.get("/api/v1/questions/?split=dev&status=pending").json()["results"]) == 3
    assert api.get("/api/v1/questions/?split=train").json()["results"] == []
    assert list(api.get("/api/v1/questions/?status=done").json()["errors"]) == ["status"]
    other = APIClient()
    other.force_authenticate(annotators[1])
    assert other.get("/api/v1/questions/").json()["results"] == []


def test_a_draft_save_brings_back_an_expired_lease_nobody_took(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    expire(lease, ago=timedelta(minutes=1))
    saved = draft_save(lease=lease, draft={"questions": ["encore là"]})
    assert (saved.status, saved.finished_at) == ("active", None)
    assert saved.expires_at > timezone.now() + timedelta(minutes=29)


def test_a_draft_save_keeps_the_text_when_someone_took_the_paragraph(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    Lease.objects.filter(pk=lease.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    lease_claim_next(campaign=campaign, annotator=annotators[1])  # takes the same paragraph
    saved = draft_save(lease=Lease.objects.get(pk=lease.pk), draft={"questions": ["gardé"]})
    assert (saved.status, saved.draft) == ("expired", {"questions": ["gardé"]})


@pytest.mark.parametrize("bad", ["a\x00b", "\ud800"])
def test_text_the_database_cannot_store_is_refused(campaign, paragraphs, annotators, bad):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    with pytest.raises(ServiceError) as error:
        draft_save(lease=lease, draft={"current": {"text": bad}})
    assert list(error.value.errors) == ["draft"]
    payload = good_questions(paragraphs[0])
    payload[0]["text"] = f"Question {bad} ?"
    with pytest.raises(ServiceError) as error:
        questions_submit(lease=lease, questions=payload)
    assert list(error.value.errors) == ["questions[0].text"]
    assert Lease.objects.get(pk=lease.pk).draft == {}
    assert Question.objects.count() == 0


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/leases/²/",
        "/api/v1/leases/99999999999999999999999/",
        "/api/v1/questions/?campaign=²",
        "/api/v1/questions/?campaign=99999999999999999999999",
        "/api/v1/questions/?author=a%00b",
    ],
)
def test_odd_ids_and_text_in_urls_are_4xx(api, path):
    response = api.get(path)
    assert 400 <= response.status_code < 500
    assert "errors" in response.json()


def test_a_give_back_note_with_a_nul_is_refused_and_changes_nothing(
    campaign, paragraphs, annotators
):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    with pytest.raises(ServiceError) as error:
        lease_release(lease=lease, reason="skip", note="trop\x00court")
    assert list(error.value.errors) == ["note"]
    lease.refresh_from_db()
    assert (lease.status, lease.release_note) == ("active", "")


def test_api_a_question_is_counted_in_code_points_up_to_1000(api, campaign, paragraphs):
    """Issue 25: the page and the server count a question's characters alike (code points,
    Python's len): 1,000 emoji-laden characters pass, 1,001 answer a 400 naming the field."""
    lease_id = api.post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()["id"]
    payload = good_questions(paragraphs[0])
    longest = ("Pourquoi 🌊 la Loire " * 60)[:999] + "?"
    assert len(longest) == 1000 and len(longest.encode("utf-16-le")) // 2 == 1050
    payload[0]["text"] = longest + "x"
    response = api.post(f"/api/v1/leases/{lease_id}/submit/", {"questions": payload}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "questions[0].text": ["Une question fait au plus 1 000 caractères (celle-ci en a 1001)."]
    }
    assert Question.objects.count() == 0
    payload[0]["text"] = longest
    response = api.post(f"/api/v1/leases/{lease_id}/submit/", {"questions": payload}, format="json")
    assert response.status_code == 201
    assert Question.objects.get(position=0).text == longest
