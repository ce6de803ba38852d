"""The interface language follows the account across browsers (issue 25 §7).

The phone stayed in English after its owner switched to French on the desktop: the choice
lived in each browser's cookie. Two browser contexts of one account here, a laptop and a phone.
"""

import pytest
from playwright.sync_api import expect

from core.roles import Role
from tests.e2e.conftest import keep_screenshot
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"


def sign_in(browser, live_server, *, width, height):
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill("e2e-lang")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Connexion").click()
    expect(page).to_have_url(f"{live_server.url}/annotate/")
    return context, page


def choose(page, *, label: str, language: str, button: str, phone: bool):
    if phone:
        page.locator("summary.site-menu-toggle").click()
    page.get_by_label(label).select_option(language)
    page.get_by_role("button", name=button).click()


def test_switching_on_the_laptop_reaches_the_phone_on_its_next_page(browser, live_server):
    UserFactory(username="e2e-lang", roles=[Role.ANNOTATOR], password=PASSWORD)
    phone_context, phone = sign_in(browser, live_server, width=390, height=844)
    laptop_context, laptop = sign_in(browser, live_server, width=1366, height=768)

    choose(phone, label="Langue", language="en", button="Changer", phone=True)
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    expect(phone.get_by_role("heading", name="Your campaigns")).to_be_visible()
    laptop.reload()  # the laptop follows the account
    expect(laptop.locator("html")).to_have_attribute("lang", "en")

    choose(laptop, label="Language", language="fr", button="Change", phone=False)
    expect(laptop.locator("html")).to_have_attribute("lang", "fr")
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.get_by_role("heading", name="Vos campagnes")).to_be_visible()
    keep_screenshot(phone, "language-phone-follows-fr-390.png")
    keep_screenshot(laptop, "language-laptop-fr-1366.png")
    # Signed out, the phone keeps the account's last choice (its cookie was brought in line).
    phone.locator("summary.site-menu-toggle").click()
    phone.get_by_role("button", name="Déconnexion").click()
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    for context in (phone_context, laptop_context):
        context.close()
