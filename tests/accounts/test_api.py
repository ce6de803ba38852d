"""Token auth, who-am-I, the import API, and the shape of every error."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

User = get_user_model()


@pytest.fixture
def api():
    return APIClient()


def test_token_for_good_credentials_authenticates_scripts(api, annotator, password):
    response = api.post(
        "/api/v1/auth/token/", {"username": "ann", "password": password}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = api.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json() == {
        "id": annotator.pk,
        "username": "ann",
        "email": "ann@example.org",
        "roles": ["annotator"],
    }


def test_token_refused_for_bad_credentials(api, annotator):
    response = api.post("/api/v1/auth/token/", {"username": "ann", "password": "x"}, format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["errors"]
    assert list(response.json()["errors"]) == ["non_field_errors"]


def test_token_request_missing_fields_names_them(api, db):
    response = api.post("/api/v1/auth/token/", {}, format="json")
    assert response.status_code == 400
    assert sorted(response.json()["errors"]) == ["password", "username"]


def test_anonymous_gets_401_in_the_error_shape(api, db):
    response = api.get("/api/v1/me/")
    assert response.status_code == 401
    assert list(response.json()["errors"]) == ["detail"]


def test_session_auth_works_for_the_pages_scripts(client, reviewer):
    client.force_login(reviewer)
    assert client.get("/api/v1/me/").json()["roles"] == ["reviewer"]


def test_import_api_creates_and_answers_links(api, admin_user):
    api.force_authenticate(admin_user)
    response = api.post(
        "/api/v1/users/import/",
        {"csv": "username,email,role\nkim,kim@example.org,reviewer\n"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["skipped"] == []
    (created,) = body["created"]
    assert (created["username"], created["role"]) == ("kim", "reviewer")
    assert created["set_password_url"].startswith("http://testserver/accounts/set-password/")


def test_import_api_bad_csv_is_400_naming_the_field_and_changes_nothing(api, admin_user):
    api.force_authenticate(admin_user)
    count = User.objects.count()
    response = api.post(
        "/api/v1/users/import/",
        {"csv": "username,email,role\nkim,not-an-email,reviewer\n"},
        format="json",
    )
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["file"]
    assert User.objects.count() == count


def test_import_api_missing_csv_names_the_field(api, admin_user):
    api.force_authenticate(admin_user)
    response = api.post("/api/v1/users/import/", {}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["csv"]


def test_import_api_is_for_admins_only(api, reviewer):
    api.force_authenticate(reviewer)
    response = api.post(
        "/api/v1/users/import/",
        {"csv": "username,email,role\nkim,kim@example.org,admin\n"},
        format="json",
    )
    assert response.status_code == 403
    assert list(response.json()["errors"]) == ["detail"]
    assert not User.objects.filter(username="kim").exists()


def test_token_requests_are_rate_limited(api, annotator, settings):
    from django.core.cache import cache

    cache.delete("throttle_auth_127.0.0.1")  # not clear(): Redis also holds the job queues
    answers = [
        api.post(
            "/api/v1/auth/token/", {"username": "ann", "password": "guess"}, format="json"
        ).status_code
        for _ in range(21)
    ]
    assert answers[:20] == [400] * 20
    assert answers[20] == 429
    cache.delete("throttle_auth_127.0.0.1")  # not clear(): Redis also holds the job queues


def test_a_forged_forwarded_for_does_not_escape_the_rate_limit(api, annotator):
    from django.core.cache import cache

    cache.delete("throttle_auth_127.0.0.1")  # not clear(): Redis also holds the job queues
    answers = [
        api.post(
            "/api/v1/auth/token/",
            {"username": "ann", "password": "guess"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"10.0.0.{i}",
        ).status_code
        for i in range(21)
    ]
    assert answers[20] == 429
    cache.delete("throttle_auth_127.0.0.1")  # not clear(): Redis also holds the job queues
