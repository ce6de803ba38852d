"""Password guessing is slowed per address and per account, without locking people out."""

import pytest
from django.test import Client
from django.test.utils import override_settings
from rest_framework.test import APIClient

from accounts.signin import DEVICE_COOKIE, device_token

LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"
LOCKED = (
    "Too many failed sign-ins for this account in the last hour. Sign in from a browser where "
    "you signed in before, wait for the hour to end, or ask an admin for a link to set a new "
    "password."
)


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def guess(address: str, username: str = "ann", password: str = "wrong", client=None):  # noqa: S107
    client = client or Client()
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


@override_settings(LOGIN_ACCOUNT_FAILURES=5)
def test_an_account_refuses_guesses_from_new_addresses_past_its_hourly_limit(annotator, password):
    codes = [guess(f"10.0.0.{i}").status_code for i in range(5)]  # five addresses, once each
    locked = guess("10.0.1.1", password=password)  # even the right password, from elsewhere

    assert codes == [200] * 5
    assert locked.status_code == 429
    assert LOCKED in locked.content.decode()
    assert "_auth_user_id" not in Client().session
    other = guess("10.0.1.1", username="rev")  # another account is not concerned
    assert other.status_code == 200


@override_settings(LOGIN_ACCOUNT_FAILURES=5)
def test_the_owners_browser_still_signs_in_while_the_account_is_attacked(annotator, password):
    mine = Client()
    first = guess("192.0.2.10", password=password, client=mine)  # signed in before
    assert first.status_code == 302
    assert mine.cookies[DEVICE_COOKIE]["httponly"] is True
    mine.post("/accounts/logout/")
    for i in range(8):
        guess(f"10.0.0.{i}")  # the attack locks the account for new browsers

    back = guess("192.0.2.99", password=password, client=mine)  # trusted, even from elsewhere
    stranger = guess("192.0.2.98", password=password)

    assert back.status_code == 302
    assert stranger.status_code == 429


@override_settings(LOGIN_ACCOUNT_FAILURES=3)
def test_failures_from_the_owners_browser_do_not_count_against_the_account(annotator, password):
    mine = Client()
    mine.cookies[DEVICE_COOKIE] = device_token("ANN")  # case does not matter
    for _ in range(5):
        assert guess("192.0.2.10", client=mine).status_code == 200  # a typo, five times

    assert guess("10.9.9.9", password=password).status_code == 302  # nobody else was locked


@override_settings(LOGIN_ACCOUNT_FAILURES=3)
def test_a_forged_device_cookie_is_not_trusted(annotator, password):
    forged = Client()
    forged.cookies[DEVICE_COOKIE] = "ann:forged"
    for i in range(3):
        guess(f"10.0.0.{i}")

    assert guess("10.0.3.1", password=password, client=forged).status_code == 429


@override_settings(LOGIN_ACCOUNT_FAILURES=3)
def test_the_token_api_counts_the_same_failures_and_refuses_with_429(annotator, password):
    api = APIClient()
    for i in range(3):
        refused = api.post(
            TOKEN, {"username": "ann", "password": "nope"}, format="json", REMOTE_ADDR=f"10.1.0.{i}"
        )
        assert refused.status_code == 400
    locked = api.post(
        TOKEN, {"username": "ann", "password": password}, format="json", REMOTE_ADDR="10.1.1.1"
    )

    assert locked.status_code == 429
    assert locked.json() == {"errors": {"detail": [LOCKED]}}
    assert guess("10.2.0.1", password=password).status_code == 429  # the form knows it too


def test_the_account_limit_is_the_asvs_figure_by_default(settings):
    assert settings.LOGIN_ACCOUNT_FAILURES == 100
