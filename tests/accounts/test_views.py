"""Sign-in, sign-out and the role checks of the pages."""

import pytest
from django.urls import reverse

from core.roles import Role
from tests.factories import UserFactory

ROLE_PAGES = {
    Role.ANNOTATOR: "/annotate/",
    Role.REVIEWER: "/review/",
    Role.ADMIN: "/manage/",
}


def test_login_page_is_served(client, db):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'<label for="id_username"' in response.content


def test_login_with_the_right_password_goes_home(client, annotator, password):
    response = client.post("/accounts/login/", {"username": "ann", "password": password})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").url == "/annotate/"


def test_login_with_a_wrong_password_says_so_and_signs_nobody_in(client, annotator):
    response = client.post("/accounts/login/", {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert response.wsgi_request.user.is_authenticated is False
    assert "_auth_user_id" not in client.session
    assert b'role="alert"' in response.content


def test_logout_is_a_post_and_ends_the_session(client, annotator):
    client.force_login(annotator)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:login")
    assert "_auth_user_id" not in client.session


def test_logout_by_get_is_refused(client, annotator):
    client.force_login(annotator)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.session["_auth_user_id"] == str(annotator.pk)


@pytest.mark.parametrize(
    "path", ["/", "/annotate/", "/review/", "/manage/", "/manage/users/", "/manage/system/"]
)
def test_anonymous_is_sent_to_login(client, db, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("role", list(ROLE_PAGES))
def test_each_role_reaches_its_home_and_only_it(client, db, role):
    user = UserFactory(roles=[role])
    client.force_login(user)
    assert client.get("/")["Location"] == ROLE_PAGES[role]
    for other_role, page in ROLE_PAGES.items():
        expected = 200 if other_role == role else 403
        assert client.get(page).status_code == expected, (role, page)


def test_admin_pages_refuse_annotators(client, annotator):
    client.force_login(annotator)
    for page in ("/manage/users/", "/manage/system/"):
        response = client.get(page)
        assert response.status_code == 403
        assert "Accès refusé".encode() in response.content


def test_a_user_with_several_roles_chooses(client, db):
    user = UserFactory(roles=[Role.ANNOTATOR, Role.REVIEWER])
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 200
    assert b'href="/annotate/"' in response.content
    assert b'href="/review/"' in response.content
    assert b'href="/manage/"' not in response.content


def test_a_user_without_role_is_told_to_ask_an_admin(client, db):
    client.force_login(UserFactory(roles=[]))
    response = client.get("/")
    assert response.status_code == 200
    assert "n’a encore aucun rôle".encode() in response.content or b"aucun r" in response.content


def test_there_is_no_self_registration(client, db):
    for path in ("/accounts/signup/", "/accounts/register/"):
        assert client.get(path).status_code == 404


def test_the_login_form_slows_down_password_guessing(client, annotator, password):
    from django.core.cache import cache

    cache.delete("login-attempts:127.0.0.1")
    codes = [
        client.post("/accounts/login/", {"username": "ann", "password": "guess"}).status_code
        for _ in range(21)
    ]
    assert codes[:20] == [200] * 20
    assert codes[20] == 429
    refused = client.post("/accounts/login/", {"username": "ann", "password": password})
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
    cache.delete("login-attempts:127.0.0.1")
