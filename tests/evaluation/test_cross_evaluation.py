"""A finished run scored on another dataset (issue 25 item 14): another release's dev or test
split, or an imported file, as the FQuAD paper scores a FQuAD-trained model on SQuAD's dev set
and back. The service and its worker task (a tiny transformer on the CPU, the sliding window),
the matrix's columns, the page's form and the API, and the bad input refused by field.

The second release is built from the same corpus as the first: its dev and test questions are
the run's own, so the figures it gets there must be exactly the run's own figures."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from core.roles import Role
from evaluation.baselines import lexical, sliding_window
from evaluation.metrics import FQUAD_FR, score
from evaluation.models import BaselineRun, CrossEvaluation
from evaluation.release_data import training_file_examples
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from evaluation.services.cross_evaluation import cross_evaluation_execute, cross_evaluation_start
from exports.services.releases import release_build, release_create
from tests.evaluation.test_baseline_runs import make_release, releases_folder
from tests.evaluation.test_baseline_sources import (
    imported,
    matrix_rows,
    second_release,
    tiny_checkpoint,
)
from tests.factories import UserFactory

__all__ = ["releases_folder"]  # the autouse fixture: release files in a temporary folder

RUNS = "/api/v1/baseline-runs/"


def finished_lexical(release) -> BaselineRun:
    run = baseline_run_record(release=release, kind="lexical", created_by=release.created_by)
    baseline_run_execute(run=run)
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    return run


def english_api(user) -> APIClient:
    api = APIClient()
    api.cookies["django_language"] = "en"
    api.force_authenticate(user)
    return api


@pytest.mark.django_db
def test_a_tiny_transformer_is_scored_on_another_release_and_a_file_as_on_its_own(
    models_folder, tmp_path, django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release(include_test_answers=True)
    other = second_release(release)
    admin = release.created_by
    run = baseline_run_record(
        release=release,
        kind="evaluate",
        model=tiny_checkpoint(tmp_path / "tiny"),
        hyperparameters={"eval_batch_size": 4},
        created_by=admin,
    )
    baseline_run_execute(run=run)
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + run.log
    file = imported(admin, translated=False, name="squad-en-dev.json")
    with django_capture_on_commit_callbacks(execute=True):
        on_dev = cross_evaluation_start(run=run, release=other.pk, split="dev", created_by=admin)
        on_file = cross_evaluation_start(run=run, file=file.pk, created_by=admin)
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.gpu_cross_evaluation_task", "gpu"),
        ("evaluation.tasks.gpu_cross_evaluation_task", "gpu"),
    ]
    for evaluation in (on_dev, on_file):
        cross_evaluation_execute(evaluation=evaluation)
        evaluation.refresh_from_db()
        assert evaluation.status == CrossEvaluation.Status.SUCCEEDED, evaluation.error
    # The same questions, the same model, the same scoring: the run's own dev figures.
    assert on_dev.metrics == run.metrics["dev"]
    assert on_dev.breakdown == run.breakdown["dev"]
    assert (on_dev.target_label, on_dev.normalization) == ("r2 1 · dev", "fquad-fr")
    # The file's three answerable questions (its unanswerable one is left out, as the two it
    # skipped when imported), under French normalization (the file says fr).
    assert (on_file.target_label, on_file.metrics["total"]) == ("squad-en-dev.json", 3)
    assert on_file.normalization == "fquad-fr"
    assert 0 <= on_file.metrics["f1"] <= 100


@pytest.mark.django_db
def test_the_page_scores_a_run_elsewhere_and_the_matrix_shows_the_columns(
    client, django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release(include_test_answers=True)
    other = second_release(release)
    admin = release.created_by
    run = finished_lexical(release)
    file = imported(admin, translated=False, name="squad <en>.json")
    client.cookies["django_language"] = "en"
    client.force_login(admin)
    url = f"/manage/results/experiments/?release={release.pk}"
    html = client.get(url).content.decode()
    # The targets: every other finished release's splits and the readable files.
    assert f'<option value="release-{other.pk}-test">r2 1 · test</option>' in html
    assert (
        f'<option value="file-{file.pk}">squad &lt;en&gt;.json (imported file #{file.pk})</option>'
        in html
    )
    assert f'value="release-{release.pk}-dev"' not in html  # its own columns are there already
    for target in (f"release-{other.pk}-test", f"release-{other.pk}-dev", f"file-{file.pk}"):
        with django_capture_on_commit_callbacks(execute=True):
            done = client.post(
                url, {"form": "cross-evaluation", "run": str(run.pk), "target": target}
            )
        assert done.status_code == 302
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.cross_evaluation_task", "default")
    ] * 3
    waiting = matrix_rows(client.get(url).content.decode())
    assert waiting[2][3:6] == ["Waiting for a worker"] * 3
    for evaluation in CrossEvaluation.objects.all():
        cross_evaluation_execute(evaluation=evaluation)
    rows = matrix_rows(client.get(url).content.decode())

    # On r2 the run scores exactly its own r1 figures (the same questions, the same model: the
    # sliding window, not the in-the-loop model); on the file, what the sliding window scores.
    def cell(metrics):
        return f"{metrics['f1']:.1f} / {metrics['exact_match']:.1f}"

    examples = [e for e in training_file_examples(file) if e["answers"]["text"]]
    gold = {e["id"]: e["answers"]["text"] for e in examples}
    on_file = score(gold, sliding_window.predict_all(examples), FQUAD_FR)
    file_cell = cell(on_file)
    dev, test = cell(run.metrics["dev"]), cell(run.metrics["test"])
    assert sliding_window.predict_all(examples) != lexical.predict_all(examples)
    assert rows == [
        [
            "Trained on", "r1 dev F1 / EM", "r1 test F1 / EM", "r2 1 · dev F1 / EM",
            "r2 1 · test F1 / EM", f"squad &lt;en&gt;.json (file #{file.pk}) F1 / EM", "Mode", "Model", "Run",
        ],
        ["Human performance", "—", "—", "—", "—", "—", "—", "—", "—"],
        [
            "nothing (the sliding window learns nothing)", dev, test, dev, test, file_cell, "—", "sliding window (lexical, CPU)",
            f"#{run.pk}",
        ],
    ]  # fmt: skip
    # A second request for the same target is refused, the form kept as posted.
    again = client.post(
        url, {"form": "cross-evaluation", "run": str(run.pk), "target": f"file-{file.pk}"}
    )
    assert again.status_code == 409
    assert (
        f'<p class="field-error" role="alert" data-field="file">Run #{run.pk} is already '
        "scored there.</p>"
    ) in again.content.decode()
    assert CrossEvaluation.objects.count() == 3


@pytest.mark.both_backends  # the constraints and the replacement of a failed one, on SQLite too
@pytest.mark.django_db
def test_the_api_scores_a_run_elsewhere_and_refuses_bad_targets_by_field(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    other = release_create(
        created_by=release.created_by, name="r2", version="1", formats=["hf"], splits=["dev"]
    )
    release_build(release=other)
    admin = release.created_by
    run = finished_lexical(release)
    pending = baseline_run_record(release=release, kind="lexical")
    someone = UserFactory(username="someone", roles=[Role.ADMIN])
    private = imported(someone, name="theirs.json")
    api = english_api(admin)
    url = f"{RUNS}{run.pk}/evaluations/"
    refusals = [
        (url, {}, 400, "release", "Give a release and its split, or an imported file: one of them."),
        (url, {"release": other.pk, "split": "dev", "file": private.pk}, 400, "release", None),
        (url, {"release": release.pk, "split": "dev"}, 400, "release",
         "The run is already scored on its own release's dev and test."),
        (url, {"release": other.pk, "split": "test"}, 400, "split",
         "The release r2 1 has no test split."),
        (url, {"release": other.pk, "split": "train"}, 400, "split", None),
        (url, {"release": 999999, "split": "dev"}, 404, "release", "No such release."),
        (url, {"file": private.pk}, 404, "file", "No imported file that you may read."),
        (f"{RUNS}{pending.pk}/evaluations/", {"release": other.pk, "split": "dev"}, 400, "run",
         "Only a finished run can be scored on another dataset."),
    ]  # fmt: skip
    for where, body, code, field, message in refusals:
        answer = api.post(where, body, format="json")
        assert (answer.status_code, list(answer.json()["errors"])) == (code, [field]), body
        if message:
            assert answer.json()["errors"][field] == [message]
    assert (CrossEvaluation.objects.count(), sent_tasks.calls) == (0, [])
    assert (
        english_api(UserFactory(username="r", roles=[Role.REVIEWER]))
        .post(url, {"release": other.pk, "split": "dev"}, format="json")
        .status_code
        == 403
    )
    with django_capture_on_commit_callbacks(execute=True):
        made = api.post(url, {"release": other.pk, "split": "dev"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["run"], body["release"], body["split"], body["file"], body["status"]) == (
        run.pk,
        other.pk,
        "dev",
        None,
        "pending",
    )
    assert api.post(url, {"release": other.pk, "split": "dev"}, format="json").status_code == 409
    # A failed evaluation is replaced by a new one.
    CrossEvaluation.objects.update(status=CrossEvaluation.Status.FAILED, error="lost")
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post(url, {"release": other.pk, "split": "dev"}, format="json")
    assert again.status_code == 201
    evaluation = CrossEvaluation.objects.get()
    assert evaluation.pk == again.json()["id"] != body["id"]
    cross_evaluation_execute(evaluation=evaluation)
    listed = api.get(url).json()
    assert [(e["target_label"], e["status"], e["metrics"]["f1"]) for e in listed] == [
        ("r2 1 · dev", "succeeded", run.metrics["dev"]["f1"])
    ]
