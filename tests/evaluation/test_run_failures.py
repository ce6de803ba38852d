"""A failed baseline run says what failed and what to do in the admin's language; the
library's raw error (English) stays available, folded under "Detail", escaped."""

from __future__ import annotations

import json

import pytest

from evaluation.models import BaselineRun
from evaluation.run_failures import run_failure
from tests.evaluation.test_baseline_runs import make_release, run_here

pytestmark = pytest.mark.django_db

FAILURE = {
    "en": "The fine-tuning failed. The model could not be loaded: check its name (a folder of "
    "the models folder, or a model hub name the workers can download), then start a new run.",
    "fr": "L’affinage a échoué. Le modèle n’a pas pu être chargé\u00a0: vérifiez son nom (un "
    "dossier du dossier des modèles, ou un nom du hub de modèles que les workers peuvent "
    "télécharger), puis lancez une nouvelle évaluation.",
}
DETAIL = {"en": "Detail", "fr": "Détail"}


@pytest.fixture
def failed_finetune(models_folder, releases_folder):
    """A fine-tuning run on a model folder transformers cannot read: a real library error,
    with markup in it (the model type it names)."""
    from evaluation.baselines.qa import save_checkpoint, tiny_model_and_tokenizer

    release = make_release()
    broken = models_folder / "broken"
    save_checkpoint(*tiny_model_and_tokenizer(["Qui fonda une abbaye ?"], vocab_size=50), broken)
    config = json.loads((broken / "config.json").read_text())
    (broken / "config.json").write_text(json.dumps(config | {"model_type": "<b>nope</b>"}))
    run = run_here(release, "finetune", "broken", max_steps=1)
    assert run.status == BaselineRun.Status.FAILED
    assert run.error.startswith("ModelLoadError: model 'broken': ValueError: ")
    assert "<b>nope</b>" in run.error
    return run


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_failed_fine_tuning_says_what_failed_and_what_to_do(client, failed_finetune, language):
    run = failed_finetune
    client.force_login(run.release.created_by)
    client.cookies["django_language"] = language
    page = client.get(
        f"/manage/results/scores/?release={run.release.pk}", HTTP_ACCEPT_LANGUAGE=language
    )
    assert page.status_code == 200
    html = page.content.decode()
    row = html.split(f'<tr data-run="{run.pk}">', 1)[1].split("</tr>", 1)[0]
    assert f'<p class="job-failure">{FAILURE[language]}</p>' in row
    detail = row.split('<details class="job-error-detail">', 1)[1].split("</details>", 1)[0]
    escaped = run.error.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = escaped.replace('"', "&quot;").replace("'", "&#x27;")
    assert detail == f'<summary>{DETAIL[language]}</summary><pre class="job-error">{escaped}</pre>'
    assert "<b>nope</b>" not in html
    # The status the row polls gives the same.
    status = client.get(f"/manage/baseline-runs/{run.pk}/status/", HTTP_ACCEPT_LANGUAGE=language)
    assert f'<p class="job-failure">{FAILURE[language]}</p>' in status.content.decode()


@pytest.mark.parametrize(
    ("kind", "error", "expected"),
    [
        (
            "finetune",
            "OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
            "The fine-tuning failed. The GPU ran out of memory: start a new run with a smaller "
            "batch size or maximum length.",
        ),
        (
            "evaluate",
            "ModelLoadError: model 'camembert-base': OSError: We couldn't connect to "
            "'https://huggingface.co' to load the files",
            "The evaluation of the model failed. The model could not be loaded: check its name "
            "(a folder of the models folder, or a model hub name the workers can download), "
            "then start a new run.",
        ),
        (
            "http",
            "PredictServerError: predict server http://127.0.0.1:9/: connection refused",
            "Scoring the model served over HTTP failed. Check that the server answers at this "
            "address, then start a new run.",
        ),
        (
            "finetune",
            "OSError: We couldn't connect to 'https://huggingface.co' to load the files",
            "The fine-tuning failed. Check the model and the settings, then start a new run; "
            "if it fails again, give the detail below to whoever runs the workers.",
        ),
        (
            "learning_curve",
            "RuntimeError: expected scalar type Float but found Half",
            "The learning curve failed. Check the model and the settings, then start a new run; "
            "if it fails again, give the detail below to whoever runs the workers.",
        ),
        ("lexical", "", ""),
    ],
)
def test_the_sentence_follows_the_kind_and_the_error(settings, kind, error, expected):
    from django.utils import translation

    with translation.override("en"):
        assert run_failure(kind, error) == expected
