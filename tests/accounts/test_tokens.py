"""API tokens are stored as digests: the key is shown once and nobody can read it back."""

import hashlib

from django.db import connection
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import TOKENS_PER_USER, token_issue

TOKEN = "/api/v1/auth/token/"


def test_the_database_holds_no_key_only_its_digest(annotator, password):
    response = APIClient().post(TOKEN, {"username": "ann", "password": password}, format="json")

    key = response.json()["token"]
    stored = ApiToken.objects.get(user=annotator)
    assert (len(key), stored.digest, stored.prefix) == (
        40,
        hashlib.sha256(key.encode()).hexdigest(),
        key[:6],
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT digest, prefix FROM accounts_apitoken")
        assert key not in " ".join(" ".join(row) for row in cursor.fetchall())


def test_each_request_issues_a_new_working_token_and_old_ones_keep_working(annotator, password):
    api = APIClient()
    keys = [
        api.post(TOKEN, {"username": "ann", "password": password}, format="json").json()["token"]
        for _ in range(2)
    ]

    assert keys[0] != keys[1]
    for key in keys:
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api.get("/api/v1/me/").json()["username"] == "ann"


def test_a_user_keeps_their_newest_tokens_only(annotator):
    keys = [token_issue(user=annotator) for _ in range(TOKENS_PER_USER + 2)]
    api = APIClient()

    def works(key):
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return api.get("/api/v1/me/").status_code == 200

    assert [works(key) for key in keys] == [False, False] + [True] * TOKENS_PER_USER
    assert ApiToken.objects.filter(user=annotator).count() == TOKENS_PER_USER == 10


def test_a_wrong_or_an_inactive_users_token_is_refused(annotator):
    key = token_issue(user=annotator)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert api.get("/api/v1/me/").status_code == 401
    annotator.is_active = False
    annotator.save(update_fields=["is_active"])
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/me/").status_code == 401


def test_admins_find_no_token_in_the_django_admin(admin_client):
    for path in ("/django-admin/authtoken/tokenproxy/", "/django-admin/authtoken/token/"):
        assert admin_client.get(path).status_code == 404
    assert b"authtoken" not in admin_client.get("/django-admin/").content.lower()
