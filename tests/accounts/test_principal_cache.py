"""Token calls read who the caller is from the cache, and forget it the moment it changes."""

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from accounts.services import annotator_pause, token_issue


@pytest.fixture
def api(annotator):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=annotator)}")
    assert client.get("/api/v1/me/").status_code == 200  # the cache now knows the token
    return client


def test_a_known_token_costs_no_query(api, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = api.get("/api/v1/me/")
    assert response.json()["roles"] == ["annotator"]


def test_a_role_taken_away_is_seen_at_once(api, annotator):
    annotator.groups.remove(Group.objects.get(name="annotator"))
    assert api.get("/api/v1/me/").json()["roles"] == []


def test_a_deactivated_user_is_refused_at_once(api, annotator):
    annotator.is_active = False
    annotator.save(update_fields=["is_active"])
    assert api.get("/api/v1/me/").status_code == 401


def test_a_deleted_token_is_refused_at_once(api, annotator):
    ApiToken.objects.filter(user=annotator).delete()
    assert api.get("/api/v1/me/").status_code == 401


def test_a_pause_is_seen_at_once(api, annotator, campaign_with_paragraph):
    annotator_pause(user=annotator, note="")
    response = api.post(f"/api/v1/campaigns/{campaign_with_paragraph.pk}/leases/")
    assert response.status_code == 403


def test_a_user_read_from_the_cache_is_never_saved(api, annotator):
    request_user = api.get("/api/v1/me/").wsgi_request.user
    assert request_user.pk == annotator.pk
    with pytest.raises(RuntimeError):
        request_user.save()
    assert User.objects.get(pk=annotator.pk).username == "ann"


@pytest.fixture
def campaign_with_paragraph(db):
    from annotation.services.campaigns import campaign_create
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store

    article_store(
        language="fr",
        source=SourceArticle(title="Loire", source_title="Loire"),
        paragraphs=["La Loire est le plus long fleuve de France. " * 15],
        wave="1.0",
        split="train",
        kind="file",
    )
    return campaign_create(name="Pause", splits=["train"])
