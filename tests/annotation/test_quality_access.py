"""Who reads the quality table: reviewers and admins, page and API; only admins pause.

Issue 12, item 12: reviewers see the per-annotator figures (read-only) and reach them from
their home page; the pause and resume controls, by form or API, stay with admins.
"""

import pytest
from rest_framework.test import APIClient

from annotation.services.work import lease_claim_next, questions_submit
from tests.annotation.conftest import good_questions


@pytest.fixture
def written(campaign, paragraphs, annotators):
    """ann0 wrote three questions (none reviewed yet)."""
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    return questions_submit(lease=lease, questions=good_questions(lease.paragraph))


def api_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_reviewer_reads_the_quality_page_without_pause_controls(client, reviewer, written):
    client.force_login(reviewer)
    response = client.get("/manage/quality/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="quality-table"' in html
    assert '<tr data-annotator="ann0">' in html
    # Read-only: no form posts to the pause view, no note field, no button.
    assert "/pause/" not in html
    assert 'name="note"' not in html
    assert 'method="post" action="/manage/annotators/' not in html
    # Each annotator's state is shown as text instead: ann0, and ann1 and ann2 (no question yet).
    assert html.count('<span class="work-state">') == 3


def test_an_admin_still_gets_the_pause_form(client, admin_user, written, annotators):
    client.force_login(admin_user)
    html = client.get("/manage/quality/").content.decode()
    assert f'action="/manage/annotators/{annotators[0].pk}/pause/"' in html
    assert f'id="pause-note-{annotators[0].pk}" name="note"' in html


def test_the_reviewer_home_links_to_the_quality_page(client, reviewer):
    client.force_login(reviewer)
    html = client.get("/review/").content.decode()
    assert 'id="quality-link" href="/manage/quality/"' in html


def test_an_annotator_is_refused_the_quality_page(client, annotator, written):
    client.force_login(annotator)
    assert client.get("/manage/quality/").status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client, db):
    response = client.get("/manage/quality/")
    assert (response.status_code, response["Location"]) == (
        302,
        "/accounts/login/?next=/manage/quality/",
    )


def test_a_reviewer_cannot_pause_by_form(client, reviewer, written, annotators):
    client.force_login(reviewer)
    response = client.post(
        f"/manage/annotators/{annotators[0].pk}/pause/", {"action": "pause", "note": "non"}
    )
    assert response.status_code == 403
    annotators[0].refresh_from_db()
    assert (annotators[0].paused_at, annotators[0].pause_note) == (None, "")


def test_a_reviewer_reads_the_quality_api(reviewer, written):
    response = api_for(reviewer).get("/api/v1/quality/")
    assert response.status_code == 200
    assert [(row["annotator"], row["questions"], row["reviewed"]) for row in response.json()] == [
        ("ann0", 3, 0)
    ]


def test_the_quality_api_refuses_annotators_and_anonymous_calls(annotator, written):
    refused = api_for(annotator).get("/api/v1/quality/")
    assert (refused.status_code, list(refused.json()["errors"])) == (403, ["detail"])
    anonymous = APIClient().get("/api/v1/quality/")
    assert anonymous.status_code == 401
    assert anonymous["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("method", ["post", "delete"])
def test_a_reviewer_cannot_pause_or_resume_by_api(reviewer, written, annotators, method):
    call = getattr(api_for(reviewer), method)
    response = call(f"/api/v1/annotators/{annotators[0].pk}/pause/", {"note": "non"}, format="json")
    assert response.status_code == 403
    annotators[0].refresh_from_db()
    assert (annotators[0].paused_at, annotators[0].pause_note) == (None, "")
