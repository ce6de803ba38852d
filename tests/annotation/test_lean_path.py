"""The work loop's lean way (core/lean.py): a claim and a submission by API token are served
without DRF's dispatch, and answer exactly what DRF's way answers; anything else goes DRF's
way. Each answer here is compared with the same call made DRF's way (a query string, which
the lean way leaves to DRF, or a signed-in session)."""

import json

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from accounts.services import token_issue
from annotation.models import Answer, Lease, Question, QuestionRevision
from core.roles import Role
from tests.annotation.conftest import good_questions
from tests.factories import UserFactory

pytestmark = pytest.mark.both_backends  # `make test` runs it on SQLite too

HEADERS = ("Content-Type", "Allow", "Vary", "WWW-Authenticate")


def _token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user)}")
    return client


def _answer(response) -> tuple:
    """What a client sees: the status, the headers that DRF sets, the body."""
    return (
        response.status_code,
        {name: response.headers.get(name) for name in HEADERS},
        response.content,
    )


def _claim(client, campaign, drf: bool = False):
    return client.post(f"/api/v1/campaigns/{campaign.pk}/leases/" + ("?drf=1" if drf else ""))


def _submit(client, lease_pk, body, drf: bool = False, **extra):
    url = f"/api/v1/leases/{lease_pk}/submit/" + ("?drf=1" if drf else "")
    return client.post(url, body, format="json", **extra)


def test_the_two_hot_calls_are_wrapped_and_keep_their_names():
    for path, name in (
        ("/api/v1/campaigns/7/leases/", "campaign-leases"),
        ("/api/v1/leases/7/submit/", "lease-submit"),
    ):
        match = resolve(path)
        assert getattr(match.func, "lean", False) is True
        assert (match.namespace, match.url_name) == ("api", name)
    # the format-suffix route and every other call are DRF's own
    assert not getattr(resolve("/api/v1/leases/7/submit.json").func, "lean", False)
    assert not getattr(resolve("/api/v1/leases/7/draft/").func, "lean", False)


def test_a_claim_and_a_submission_answer_what_drf_answers(campaign, paragraphs, annotators):
    lean, drf = _token_client(annotators[0]), _token_client(annotators[1])
    claims = [_claim(lean, campaign), _claim(drf, campaign, drf=True)]
    (status_a, headers_a, _), (status_b, headers_b, _) = map(_answer, claims)
    assert (status_a, headers_a) == (status_b, headers_b)
    assert status_a == 201
    assert headers_a["Allow"] == "POST, OPTIONS"
    assert headers_a["Content-Type"] == "application/json"
    assert "Accept" in headers_a["Vary"]
    leases = [claim.json() for claim in claims]
    assert [set(lease) for lease in leases] == [set(leases[1])] * 2
    # the lease held, again: 200 both ways, the same body
    again = _answer(_claim(lean, campaign)), _answer(_claim(lean, campaign, drf=True))
    assert again[0] == again[1]
    assert again[0][0] == 200
    assert json.loads(again[0][2]) == leases[0]

    sent = []
    for client, lease, via_drf in ((lean, leases[0], False), (drf, leases[1], True)):
        paragraph = next(p for p in paragraphs if p.pk == lease["paragraph"]["id"])
        sent.append(_submit(client, lease["id"], {"questions": good_questions(paragraph)}, via_drf))
    assert [response.status_code for response in sent] == [201, 201]
    assert _answer(sent[0])[1] == _answer(sent[1])[1]
    written = Question.objects.filter(lease_id=leases[0]["id"]).order_by("position")
    assert [q["id"] for q in sent[0].json()] == [str(q.uuid) for q in written]
    assert Lease.objects.get(pk=leases[0]["id"]).status == Lease.Status.SUBMITTED


@pytest.mark.parametrize(
    "body",
    [
        {"questions": []},
        {"questions": [{"text": "", "answer_start": 0, "answer_text": "x"}]},
        {"questions": "three"},
        {},
        [1, 2],
    ],
)
def test_a_refused_submission_answers_what_drf_answers(campaign, paragraphs, annotators, body):
    client = _token_client(annotators[0])
    lease = _claim(client, campaign).json()
    lean, drf = _submit(client, lease["id"], body), _submit(client, lease["id"], body, drf=True)
    assert _answer(lean) == _answer(drf)
    assert lean.status_code == 400
    assert set(lean.json()) == {"errors"}
    assert Question.objects.count() == 0
    assert Lease.objects.get(pk=lease["id"]).status == Lease.Status.ACTIVE


def test_refusals_by_id_owner_and_state_answer_what_drf_answers(campaign, paragraphs, annotators):
    mine, other = _token_client(annotators[0]), _token_client(annotators[1])
    lease = _claim(mine, campaign).json()
    paragraph = next(p for p in paragraphs if p.pk == lease["paragraph"]["id"])
    body = {"questions": good_questions(paragraph)}
    for client, pk, status in (
        (mine, "nope", 404),
        (mine, 999_999, 404),
        (other, lease["id"], 403),
    ):
        lean, drf = _submit(client, pk, body), _submit(client, pk, body, drf=True)
        assert _answer(lean) == _answer(drf)
        assert lean.status_code == status
    assert _submit(mine, lease["id"], body).status_code == 201
    lean, drf = _submit(mine, lease["id"], body), _submit(mine, lease["id"], body, drf=True)
    assert _answer(lean) == _answer(drf)
    assert lean.status_code == 409
    for pk in ("nope", 999_999):
        lean = mine.post(f"/api/v1/campaigns/{pk}/leases/")
        drf = mine.post(f"/api/v1/campaigns/{pk}/leases/?drf=1")
        assert _answer(lean) == _answer(drf)
        assert lean.status_code == 404


def test_nothing_left_is_204_without_a_body_either_way(campaign, paragraphs):
    people = [UserFactory(username=f"late{i}", roles=[Role.ANNOTATOR]) for i in range(5)]
    clients = [_token_client(person) for person in people]
    for client in clients[:3]:  # three paragraphs, three holders
        assert _claim(client, campaign).status_code == 201
    lean, drf = _claim(clients[3], campaign), _claim(clients[4], campaign, drf=True)
    assert _answer(lean) == _answer(drf)
    assert lean.status_code == 204
    assert lean.content == b""
    assert lean.headers.get("Content-Type") is None


def test_what_the_lean_way_leaves_to_drf_is_drfs_answer(campaign, paragraphs, annotators):
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    nobody = APIClient()
    nobody.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    # a refused token: 401 with its challenge; a role that may not claim: 403
    refused = _claim(nobody, campaign)
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"].startswith("Token")
    assert _claim(_token_client(reviewer), campaign).status_code == 403
    # another method: DRF's answers (on the claim's URL a GET is no action of an annotator's)
    client = _token_client(annotators[0])
    assert client.get(f"/api/v1/campaigns/{campaign.pk}/leases/").status_code == 403
    lease = _claim(client, campaign).json()
    assert client.get(f"/api/v1/leases/{lease['id']}/submit/").status_code == 405
    # a body that is not JSON, JSON that does not parse, an Accept DRF cannot answer
    url = f"/api/v1/leases/{lease['id']}/submit/"
    assert client.post(url, "questions=1", content_type="text/plain").status_code == 415
    broken = client.post(url, b'{"questions": [', content_type="application/json")
    assert broken.status_code == 400
    assert "detail" in broken.json()["errors"]
    assert client.post(url, {}, format="json", HTTP_ACCEPT="text/csv").status_code == 406
    # a session (a signed-in page): DRF's way, with its CSRF check
    page = APIClient(enforce_csrf_checks=True)
    page.force_login(annotators[0])
    assert page.post(url, {"questions": []}, format="json").status_code == 403
    assert Question.objects.count() == 0


def test_a_body_past_the_upload_limit_answers_what_drf_answers(
    campaign, paragraphs, annotators, settings
):
    """Past DATA_UPLOAD_MAX_MEMORY_SIZE the lean way leaves the body to DRF, which answers
    what Django answers (400), and nothing is stored."""
    client = _token_client(annotators[0])
    lease = _claim(client, campaign).json()
    paragraph = next(p for p in paragraphs if p.pk == lease["paragraph"]["id"])
    body = {"questions": good_questions(paragraph)}
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    lean, drf = _submit(client, lease["id"], body), _submit(client, lease["id"], body, drf=True)
    # Django's error page, whose CSRF token differs from one rendering to the next
    assert _answer(lean)[:2] == _answer(drf)[:2]
    assert lean.status_code == 400
    assert Question.objects.count() == 0
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
    assert _submit(client, lease["id"], body).status_code == 201


def test_text_with_the_array_syntax_is_stored_as_typed(campaign, annotators):
    """The arrays of the submission's statement go as PostgreSQL text: quotes, backslashes,
    braces, commas, spaces and the word NULL arrive as typed."""
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store

    text = 'Il dit "NULL" puis {a, b} \\ fin ; un espace , et NULL et \\" et 😀 enfin.'
    article_store(
        language="fr",
        source=SourceArticle(title="Syntaxe", source_title="Syntaxe"),
        paragraphs=[text],
        wave="1.0",
        split="dev",
        kind="file",
    )
    client = _token_client(annotators[0])
    lease = client.post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()
    assert lease["paragraph"]["text"] == text
    spans = ['"NULL"', "{a, b} \\", " , et NULL"]
    questions = [
        {
            "text": f'Que dit-il, "{span}" \\ {{x}} NULL ?',
            "answer_start": text.index(span),
            "answer_text": span,
            "seconds_spent": 7,
        }
        for span in spans
    ]
    sent = client.post(f"/api/v1/leases/{lease['id']}/submit/", {"questions": questions}, "json")
    assert sent.status_code == 201, sent.content
    stored = Question.objects.filter(lease_id=lease["id"]).order_by("position")
    assert [q.text for q in stored] == [q["text"] for q in questions]
    answers = Answer.objects.filter(question__lease_id=lease["id"]).order_by("question__position")
    assert [(a.text, a.answer_start, a.seconds_spent) for a in answers] == [
        (q["answer_text"], q["answer_start"], 7) for q in questions
    ]
    versions = QuestionRevision.objects.filter(question__lease_id=lease["id"]).order_by(
        "question__position"
    )
    assert [(v.text, v.answer_text) for v in versions] == [
        (q["text"], q["answer_text"]) for q in questions
    ]
    assert [q["text"] for q in sent.json()] == [q["text"] for q in questions]
