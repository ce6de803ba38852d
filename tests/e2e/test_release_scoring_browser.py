"""Journey: an admin builds a release with "Score with: lexical" from the form; a real worker
(every queue) builds it, then runs the baseline; the release page, never reloaded, shows the
run appear, then its dev and test scores (htmx polling that stops once everything ended)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core.roles import Role
from evaluation.models import BaselineRun
from exports.models import Release
from tests.e2e.test_sign_in import sign_in
from tests.evaluation.test_baseline_runs import make_release
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"


@pytest.fixture
def shared_var(tmp_path, settings, redis_worker_factory):
    """One VAR_DIR for the worker and this process (the release files and their gold)."""
    var = tmp_path / "var"
    settings.VAR_DIR = var
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(var / "releases")},
        },
    }
    make_release()  # the questions (and a first release, built here)
    redis_worker_factory(VAR_DIR=str(var))
    return var


def test_an_admin_watches_the_scores_of_a_new_release_arrive(
    page,
    live_server,
    shared_var,
):
    UserFactory(username="e2e-admin", roles=[Role.ADMIN], password=PASSWORD)
    sign_in(page, live_server, "e2e-admin", PASSWORD)
    page.goto(f"{live_server.url}/manage/releases/")
    form = page.locator("#release-form")
    form.locator("input[name=name]").fill("scored")
    form.locator("input[name=version]").fill("1")
    form.locator("#score-with input[name=score_lexical]").check()
    form.locator("button[type=submit]").click()

    release = Release.objects.get(name="scored")
    expect(page).to_have_url(f"{live_server.url}/manage/releases/{release.pk}/")
    page.evaluate("window.stillTheSamePage = true")
    scoring = page.locator("#release-scoring")
    row = scoring.locator("tr[data-slot='score-0']")
    expect(row).to_be_visible()
    # The SQuAD paper's sliding window finds none of this small release's answers.
    expect(row.locator("td.num")).to_have_text(["0,0 / 0,0", "0,0 / 0,0"])
    expect(row.locator(".badge")).to_have_class("badge badge-succeeded")
    expect(scoring).not_to_have_attribute("hx-get", "")  # everything ended: polling stopped
    assert page.evaluate("window.stillTheSamePage") is True  # swapped in place, no reload
    run = BaselineRun.objects.get(release=release)
    assert (run.scoring_key, run.kind, run.status, run.attempts) == (
        "score-0",
        "lexical",
        "succeeded",
        1,
    )
    link = scoring.locator("#release-scoring-results")
    assert link.get_attribute("href") == f"/manage/results/?release={release.pk}"
    assert page.console_problems == []
