"""Journey: each role signs in from the login page and lands on its own home page."""

import re

import pytest
from playwright.sync_api import expect

from core.roles import Role
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HOMES = {
    Role.ANNOTATOR: ("/annotate/", "Annotateur"),
    Role.REVIEWER: ("/review/", "Relecteur"),
    Role.ADMIN: ("/manage/", "Administrateur"),
}


def sign_in(page, live_server, username, password, *, refused=False):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill(username)
    page.get_by_label("Mot de passe").fill(password)
    page.get_by_role("button", name="Connexion").click()
    # Signed in once the login page is left: a caller's next step (a reload, a cookie and a
    # reload) must not race the sign-in's own navigation ("not attached to an active page").
    if not refused:
        page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.mark.parametrize("role", list(HOMES))
def test_each_role_reaches_its_home(page, live_server, role):
    UserFactory(username=f"e2e-{role}", roles=[role], password="a long e2e password")
    sign_in(page, live_server, f"e2e-{role}", "a long e2e password")
    path, heading = HOMES[role]
    expect(page).to_have_url(f"{live_server.url}{path}")
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    assert page.console_problems == []  # no CSP violation, no script error

    page.get_by_role("button", name="Déconnexion").click()
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))


def test_a_wrong_password_is_refused_with_the_username_kept(page, live_server):
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password="a long e2e password")
    sign_in(page, live_server, "e2e-ann", "wrong password", refused=True)
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_label("Nom d’utilisateur")).to_have_value("e2e-ann")


def test_the_language_switch_turns_the_pages_english(page, live_server):
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Langue").select_option("en")
    page.get_by_role("button", name="Changer").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Sign in")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_the_layout_fits_a_phone(browser, live_server):
    context = browser.new_context(viewport={"width": 375, "height": 740}, locale="fr-FR")
    phone = context.new_page()
    phone.goto(f"{live_server.url}/accounts/login/")
    scroll_width = phone.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= 375
    context.close()
