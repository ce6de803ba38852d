"""Runs of the gpu queue without the `gpu` extra (issue 25 item 11): where the gpu queue is
served from this environment (`make run`), the form and the API refuse them up front, naming
the field and the install; a worker without the extra fails them saying what to install.

The extra is taken away the way Python sees a package that is not installed: a None in
`sys.modules` makes `import torch` raise ModuleNotFoundError and `find_spec` answer None."""

from __future__ import annotations

import importlib
import sys

import pytest
from django.apps import apps as django_apps
from django.utils import translation
from rest_framework.test import APIClient

from core.errors import ServiceError
from evaluation.gpu_extra import gpu_extra_missing
from evaluation.models import BaselineRun
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from evaluation.services.curves.fit import curve_summary
from evaluation.services.curves.learning_curves import learning_curve_execute, learning_curve_record
from evaluation.services.release_scoring import score_with_check
from tests.evaluation.test_baseline_runs import releases_folder  # noqa: F401 (autouse)
from tests.evaluation.test_learning_curve import noisy_flat_points
from tests.evaluation.test_learning_curve_runs import make_release

MESSAGE = (
    "This kind runs on the gpu queue, which needs the gpu extra (torch and transformers): it is "
    "not installed here. Install it, then restart make run: .venv/bin/pip install -e '.[gpu]'"
)
WORKER_ERROR = (
    "RuntimeError: torch not installed on this worker: install the project's `gpu` extra "
    "(.venv/bin/pip install -e '.[gpu]') on the machine that consumes the gpu queue"
)


@pytest.fixture
def without_torch(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    assert gpu_extra_missing() == ["torch"]


@pytest.mark.django_db
def test_a_local_gpu_queue_without_the_extra_refuses_gpu_runs_up_front(
    client, settings, without_torch, django_capture_on_commit_callbacks, sent_tasks
):
    settings.GPU_QUEUE_LOCAL = True
    release = make_release()
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    url = f"/manage/results/baseline/?release={release.pk}"
    form = {"kind": "learning_curve", "model": "camembert", "fractions": "20, 50, 100"}
    refused = client.post(url, form)
    assert refused.status_code == 400
    html = refused.content.decode()
    # On the page the command is code, in a box that never breaks the page's width (issue 25,
    # left over: it wrapped mid-word on a phone); the API's message stays plain text.
    command = '<code class="command">.venv/bin/pip install -e &#x27;.[gpu]&#x27;</code>'
    shown = MESSAGE.replace(".venv/bin/pip install -e '.[gpu]'", command)
    assert f'<p class="field-error" role="alert" data-field="kind">{shown}</p>' in html
    assert f'<li class="message message-error">{shown}</li>' in html  # the flash, the same way
    client.cookies["django_language"] = "fr"
    html = client.post(url, form).content.decode()
    assert f"Installez-le, puis relancez make run\u00a0: {command}</p>" in html
    assert 'value="20, 50, 100"' in html  # the form comes back as typed
    assert '<option value="learning_curve" selected>' in html
    api = APIClient()
    api.cookies["django_language"] = "en"
    api.force_authenticate(release.created_by)
    for kind in ("learning_curve", "finetune", "evaluate"):
        answer = api.post(
            "/api/v1/baseline-runs/",
            {"release": release.pk, "kind": kind, "model": "camembert"},
            format="json",
        )
        assert (answer.status_code, answer.json()) == (400, {"errors": {"kind": [MESSAGE]}})
    assert (BaselineRun.objects.count(), sent_tasks.calls) == (0, [])
    # The sliding window needs no extra.
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(
            "/api/v1/baseline-runs/", {"release": release.pk, "kind": "lexical"}, format="json"
        )
    assert made.status_code == 201, made.content


@pytest.mark.django_db
def test_a_remote_gpu_worker_is_trusted_and_one_without_the_extra_says_what_to_install(
    settings, without_torch
):
    """With Redis the gpu worker is another machine: the web cannot know what it has."""
    settings.GPU_QUEUE_LOCAL = False
    release = make_release()
    curve = learning_curve_record(release=release, model="camembert", fractions=[50, 100])
    learning_curve_execute(run=curve)
    run = baseline_run_record(release=release, kind="evaluate", model="camembert")
    baseline_run_execute(run=run)
    for job in (curve, run):
        job.refresh_from_db()
        assert (job.status, job.error) == (BaselineRun.Status.FAILED, WORKER_ERROR)


def test_a_release_asking_for_a_fine_tuning_is_refused_the_same_way(settings, without_torch):
    settings.GPU_QUEUE_LOCAL = True
    score_with = [{"kind": "lexical"}, {"kind": "finetune", "model": "camembert"}]
    with translation.override("en"), pytest.raises(ServiceError) as refused:
        score_with_check(score_with=score_with, splits=["train", "dev"])
    assert refused.value.errors == {"score_with[1].kind": [MESSAGE]}
    settings.GPU_QUEUE_LOCAL = False
    assert len(score_with_check(score_with=score_with, splits=["train", "dev"])) == 2


@pytest.mark.django_db
def test_stored_curves_are_summarized_again_by_the_migration():
    """Issue 25 item 12: a curve stored before the fix kept "+0.0 F1" and its targets."""
    release = make_release()
    points = noisy_flat_points()
    stale = curve_summary(points, 3126) | {
        "helps": None,
        "proposal": {"how_many": 20, "what": 60, "who": 20},
    }
    stale.pop("helps")
    run = BaselineRun.objects.create(
        release=release,
        kind="learning_curve",
        status="succeeded",
        curve={"points": points, "n_today": 3126, "campaigns": {"1": 5}} | stale,
    )
    migration = importlib.import_module("evaluation.migrations.0010_cross_evaluations")
    migration.learning_curves_summarized_again(django_apps, None)
    run.refresh_from_db()
    assert (run.curve["helps"], run.curve["proposal"], run.curve["campaigns"]) == (
        False,
        {},
        {"1": 5},
    )
