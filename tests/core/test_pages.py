"""What every page promises: CSP without inline code, local htmx, CSRF on htmx, i18n."""

import re

from django.conf import settings
from django.contrib.staticfiles import finders

PAGES_BY_ROLE = {"ann": "/annotate/", "rev": "/review/", "boss": "/manage/"}


def test_csp_has_no_unsafe_sources(client, db):
    response = client.get("/accounts/login/")
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response["X-Content-Type-Options"] == "nosniff"


def rendered_pages(client, annotator, reviewer, admin_user):
    yield client.get("/accounts/login/").content.decode()
    for user, extra in (
        (annotator, []),
        (reviewer, []),
        (admin_user, ["/manage/users/", "/manage/system/"]),
    ):
        client.force_login(user)
        for path in [PAGES_BY_ROLE[user.username], *extra]:
            response = client.get(path)
            assert response.status_code == 200, path
            yield response.content.decode()


def test_pages_hold_no_inline_script_or_style(client, annotator, reviewer, admin_user):
    for html in rendered_pages(client, annotator, reviewer, admin_user):
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
        assert re.findall(r"<style\b", html) == []
        assert re.findall(r"\sstyle=", html) == []
        assert re.findall(r"\son[a-z]+=", html) == []


def test_htmx_comes_from_our_own_static_files(admin_client):
    # A page that uses htmx (the others do not load it: tests/core/test_layout.py).
    html = admin_client.get("/manage/system/").content.decode()
    sources = re.findall(r'<script[^>]*src="([^"]+)"', html)
    assert sources[0] == "/static/django_htmx/htmx-2.min.js"
    assert all(src.startswith("/static/") for src in sources)
    assert finders.find("django_htmx/htmx-2.min.js") is not None
    assert "http://" not in html.split("<body")[0] and "https://" not in html.split("<body")[0]


def test_every_htmx_request_carries_the_csrf_token(client, admin_user):
    client.force_login(admin_user)
    response = client.get("/manage/")
    token = response.context["csrf_token"]
    assert f'<body hx-headers=\'{{"X-CSRFToken": "{token}"}}\'>' in response.content.decode()


def test_forms_have_labels(client, db):
    html = client.get("/accounts/login/").content.decode()
    for field_id in re.findall(r'<input[^>]*id="(id_[a-z_0-9]+)"', html):
        assert f'<label for="{field_id}"' in html


def test_pages_are_french_by_default_and_switch_to_english(client, db):
    assert "<title>Connexion" in client.get("/accounts/login/").content.decode()
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/login/"})
    assert response.status_code == 302
    html = client.get("/accounts/login/").content.decode()
    assert '<html lang="en">' in html
    assert "<title>Sign in" in html


def test_the_viewport_is_set_for_phones(client, db):
    assert (
        b'name="viewport" content="width=device-width, initial-scale=1"'
        in client.get("/accounts/login/").content
    )


def test_unknown_pages_are_a_translated_404(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert b"Page introuvable" in response.content


def test_health_endpoint_answers_before_host_checks(client, db):
    response = client.get("/healthz", HTTP_HOST="unknown.example")
    assert response.status_code == 200
    assert response.content.decode().splitlines()[:2] == ["ok", "database: ok"]


def test_settings_language_is_french_with_english_available():
    assert settings.LANGUAGE_CODE == "fr"
    assert [code for code, _name in settings.LANGUAGES] == ["fr", "en"]
