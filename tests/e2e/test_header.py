"""The site header: one row on a phone with a menu that folds, inline on a laptop, no script.

Issue 12: on a phone the header took three rows, so on the annotation page the paragraph and
the question field were never on screen together.
"""

import re

import pytest
from playwright.sync_api import expect

from core.roles import Role
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"


def signed_in(browser, live_server, *, width, height, javascript=True):
    UserFactory(username="e2e-ann", roles=[Role.ANNOTATOR], password=PASSWORD)
    context = browser.new_context(
        viewport={"width": width, "height": height},
        locale="fr-FR",
        java_script_enabled=javascript,
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Nom d’utilisateur").fill("e2e-ann")
    page.get_by_label("Mot de passe").fill(PASSWORD)
    page.get_by_role("button", name="Connexion").click()
    expect(page).to_have_url(f"{live_server.url}/annotate/")
    return context, page


def box(page, selector: str) -> dict:
    return page.locator(selector).first.bounding_box()


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_on_a_phone_the_header_is_one_row_and_its_menu_folds(browser, live_server, javascript):
    context, page = signed_in(browser, live_server, width=390, height=844, javascript=javascript)
    header, brand, toggle = box(page, ".site-header"), box(page, ".brand"), box(page, "summary")
    assert header["height"] <= 60
    # Brand and menu button side by side, on one line each.
    assert abs(brand["y"] + brand["height"] / 2 - (toggle["y"] + toggle["height"] / 2)) < 4
    assert brand["height"] < 30
    sign_out = page.get_by_role("button", name="Déconnexion")
    expect(sign_out).to_be_hidden()
    page.locator("summary", has_text="Menu").click()
    expect(sign_out).to_be_visible()
    expect(page.get_by_role("link", name="Annotateur")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    sign_out.click()
    expect(page).to_have_url(re.compile(r"/accounts/login/$"))
    context.close()


def test_on_a_laptop_the_menu_is_inline(browser, live_server):
    context, page = signed_in(browser, live_server, width=1366, height=768)
    expect(page.locator("summary", has_text="Menu")).to_be_hidden()
    expect(page.get_by_role("button", name="Déconnexion")).to_be_visible()
    expect(page.get_by_label("Langue")).to_be_visible()
    assert box(page, ".site-header")["height"] <= 60
    context.close()
