"""A failed run's error on the results table (found on the admin's day): the worker's message
keeps its lines, but a long one must not push the scores out of a wide screen."""

from __future__ import annotations

import pytest

from core.roles import Role
from evaluation.models import BaselineRun
from tests.e2e.test_sign_in import sign_in
from tests.evaluation.test_baseline_runs import make_release
from tests.factories import UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long e2e password"
ERROR = (
    "OSError: We couldn't connect to 'https://huggingface.co' to load the files, and couldn't"
    " find them in the cached files.\nCheck your internet connection or see how to run the"
    " library in offline mode at"
    " 'https://huggingface.co/docs/transformers/installation#offline-mode'."
)


def test_a_failed_runs_error_leaves_the_scores_in_view_on_a_wide_screen(page, live_server):
    release = make_release()
    admin = UserFactory(username="e2e-admin", roles=[Role.ADMIN], password=PASSWORD)
    BaselineRun.objects.create(
        release=release,
        kind=BaselineRun.Kind.FINETUNE,
        model="camembert-base",
        status=BaselineRun.Status.FAILED,
        error=ERROR,
        created_by=admin,
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    sign_in(page, live_server, "e2e-admin", PASSWORD)
    page.goto(f"{live_server.url}/manage/results/scores/?release={release.pk}")
    table = page.locator("#results-table")
    # What failed and what to do first (the stored error is not a ModelLoadError: the
    # general advice); the raw error folded under "Détail", shown when asked.
    assert table.locator(".job-failure").inner_text() == (
        "L’affinage a échoué. Vérifiez le modèle et les réglages, puis lancez une nouvelle "
        "évaluation\u202f; si elle échoue encore, transmettez le détail ci-dessous à la personne "
        "qui gère les workers."
    )
    assert not table.locator(".job-error").is_visible()
    table.locator(".job-error-detail summary").click()
    assert table.locator(".job-error").inner_text() == ERROR
    hidden = table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
    assert hidden <= 0
    assert page.console_problems == []
