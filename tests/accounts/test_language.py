"""The interface language follows the account (issue 25 §7), and the browser when anonymous."""

import re

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import token_issue

COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response) -> str:
    match = re.search(r'<html lang="([a-z-]+)">', response.content.decode())
    assert match, response.status_code
    return match.group(1)


def switch(client, language: str, next_url: str = "/annotate/"):
    response = client.post("/i18n/setlang/", {"language": language, "next": next_url})
    assert (response.status_code, response["Location"]) == (302, next_url)
    return response


def test_a_switch_on_one_browser_reaches_the_others_of_the_account(annotator):
    desktop, phone = Client(), Client()
    for browser in (desktop, phone):
        browser.force_login(annotator)
    phone.cookies[COOKIE] = "en"  # chosen on the phone earlier
    assert lang_of(phone.get("/annotate/")) == "en"

    switch(desktop, "fr")
    assert User.objects.get(pk=annotator.pk).language == "fr"
    assert lang_of(desktop.get("/annotate/")) == "fr"
    page = phone.get("/annotate/")
    assert lang_of(page) == "fr"
    assert "Vos campagnes" in page.content.decode()
    assert page["Content-Language"] == "fr"
    # The phone's cookie follows, so its pages stay French after signing out.
    assert page.cookies[COOKIE].value == "fr"
    phone.post("/accounts/logout/")
    assert lang_of(phone.get("/accounts/login/")) == "fr"

    phone.force_login(annotator)
    switch(phone, "en")
    assert User.objects.get(pk=annotator.pk).language == "en"
    assert lang_of(desktop.get("/annotate/")) == "en"


def test_the_account_wins_over_the_browser_headers(annotator, client):
    User.objects.filter(pk=annotator.pk).update(language="en")
    client.force_login(annotator)
    client.cookies[COOKIE] = "fr"
    response = client.get("/annotate/", HTTP_ACCEPT_LANGUAGE="fr")
    assert (lang_of(response), response["Content-Language"]) == ("en", "en")
    assert "Your campaigns" in response.content.decode()


def test_anonymous_pages_follow_the_browser_and_change_no_account(annotator, client):
    assert lang_of(client.get("/accounts/login/")) == "fr"  # the default
    switch(client, "en", "/accounts/login/")
    assert lang_of(client.get("/accounts/login/")) == "en"
    assert User.objects.get(pk=annotator.pk).language == ""


def test_signing_in_adopts_the_browser_choice_when_the_account_has_none(annotator, password):
    browser = Client()
    switch(browser, "en", "/accounts/login/")
    browser.post("/accounts/login/", {"username": "ann", "password": password})
    assert User.objects.get(pk=annotator.pk).language == "en"


def test_signing_in_keeps_the_account_choice_and_brings_the_browser_in_line(annotator, password):
    User.objects.filter(pk=annotator.pk).update(language="en")
    browser = Client()
    switch(browser, "fr", "/accounts/login/")
    signed_in = browser.post("/accounts/login/", {"username": "ann", "password": password})
    assert signed_in.status_code == 302
    assert User.objects.get(pk=annotator.pk).language == "en"
    assert signed_in.cookies[COOKIE].value == "en"
    assert lang_of(browser.get("/annotate/")) == "en"


@pytest.mark.parametrize("language", ["de", "", "fr'><script>"])
def test_an_unknown_language_changes_nothing(annotator, client, language):
    client.force_login(annotator)
    client.post("/i18n/setlang/", {"language": language, "next": "/annotate/"})
    assert User.objects.get(pk=annotator.pk).language == ""


def test_api_token_clients_choose_with_accept_language_session_calls_follow_the_account(
    annotator, client
):
    """Scripts say per request what they want; the pages' own calls match the page."""
    User.objects.filter(pk=annotator.pk).update(language="en")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=annotator)}")
    french = api.get("/api/v1/campaigns/?limit=x", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 400
    assert "Un nombre entier, au moins 1." in french.content.decode()
    client.force_login(annotator)
    english = client.get("/api/v1/campaigns/?limit=x", HTTP_ACCEPT_LANGUAGE="fr")
    assert english.status_code == 400
    assert "A whole number, at least 1." in english.content.decode()
