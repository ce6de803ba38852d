"""Journey: an admin checks a queue; htmx posts with the CSRF header and the status polls
itself until the real worker has finished the job."""

import pytest
from playwright.sync_api import expect

from core.models import WorkerCheck
from core.roles import Role
from tests.e2e.test_sign_in import sign_in
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_admin_watches_a_worker_check_finish(page, live_server, redis_worker):
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password="a long e2e password")
    sign_in(page, live_server, "e2e-admin", "a long e2e password")
    page.goto(f"{live_server.url}/manage/system/")
    page.get_by_label("File", exact=True).select_option("scrape")
    page.get_by_role("button", name="Vérifier").click()

    status = page.locator(".job-status").first
    expect(status.locator(".badge")).to_have_text("Terminé")
    expect(status.locator("progress")).to_have_attribute("value", "100")
    expect(status).not_to_have_attribute("hx-get", "")  # polling stopped
    check = WorkerCheck.objects.get()
    assert (check.queue, check.status) == ("scrape", "succeeded")
    assert page.url == f"{live_server.url}/manage/system/"  # htmx swap, no page load
    assert page.console_problems == []
