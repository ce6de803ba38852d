"""Experiments across datasets (issue 16, item 3): a fine-tuning run trains on sources other
than the release it is scored on (releases' train splits, imported SQuAD-format files), the
modes it is named by, the results page's matrix, the API, the page's forms, the command, and
the bad input refused by field."""

from __future__ import annotations

import io
import json
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation
from rest_framework.test import APIClient

from core.errors import ServiceError
from core.roles import Role
from evaluation.models import BaselineRun, TrainingFile
from evaluation.release_data import training_file_examples
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from evaluation.services.baselines.sources import training_file_import, training_files_readable
from exports.models import Release
from exports.services.releases import release_build, release_create, release_storage
from tests.evaluation.test_baseline_runs import ARTICLES, make_release, releases_folder
from tests.factories import UserFactory

__all__ = ["releases_folder"]  # the autouse fixture: release files in a temporary folder

# A "translated SQuAD" in miniature: three answerable questions, one unanswerable, one whose
# answer is not the context's text at its offset (skipped and counted), one malformed entry
# (no question text: skipped and counted).
CONTEXT = "Pasteur mit au point le vaccin contre la rage en 1885, à Paris."
SQUAD_FILE = {
    "version": "1.1",
    "data": [
        {
            "title": "Pasteur",
            "paragraphs": [
                {
                    "context": CONTEXT,
                    "qas": [
                        {
                            "id": "t1",
                            "question": "Qui mit au point le vaccin ?",
                            "answers": [{"text": "Pasteur", "answer_start": 0}],
                        },
                        {
                            "id": "t2",
                            "question": "En quelle année ?",
                            "answers": [{"text": "1885", "answer_start": CONTEXT.index("1885")}],
                        },
                        {
                            "id": "t3",
                            "question": "Où ?",
                            "answers": [{"text": "Paris", "answer_start": CONTEXT.index("Paris")}],
                        },
                        {
                            "id": "t4",
                            "question": "Quel vaccin contre la grippe ?",
                            "answers": [],
                            "is_impossible": True,
                        },
                        {
                            "id": "t5",
                            "question": "Contre quoi ?",
                            "answers": [{"text": "la rage", "answer_start": 3}],
                        },
                        {"id": "t6", "question": "", "answers": []},
                    ],
                }
            ],
        }
    ],
}


def squad_bytes(document=None) -> bytes:
    return json.dumps(SQUAD_FILE if document is None else document).encode()


def imported(owner=None, *, translated=True, shared=False, name="squad-fr-mt") -> TrainingFile:
    return training_file_import(
        file=io.BytesIO(squad_bytes()),
        name=name,
        language="fr",
        translated=translated,
        shared=shared,
        created_by=owner,
    )


def second_release(release: Release, name: str = "r2") -> Release:
    """Another finished release of the same corpus (its own train split to train on)."""
    other = release_create(created_by=release.created_by, name=name, version="1", formats=["hf"])
    release_build(release=other)
    other.refresh_from_db()
    assert other.status == Release.Status.SUCCEEDED, other.error
    return other


# ---------------------------------------------------------------------------------------------
# Imported training files


@pytest.mark.django_db
def test_an_imported_file_is_checked_counted_and_stored_like_release_files(releases_folder):
    owner = UserFactory(username="adm", roles=[Role.ADMIN])
    made = imported(owner)
    assert made.counts == {
        "articles": 1,
        "paragraphs": 1,
        "questions": 4,
        "answerable": 3,
        "unanswerable": 1,
        "skipped": 2,
    }
    assert (made.name, made.language, made.translated, made.shared) == (
        "squad-fr-mt",
        "fr",
        True,
        False,
    )
    assert made.squad_version == "2.0"  # it holds an unanswerable question
    assert made.storage_name.startswith("training-files/")
    stored = releases_folder / "releases" / made.storage_name
    assert stored.read_bytes() == squad_bytes()  # the bytes as given
    assert made.bytes == len(squad_bytes())
    examples = training_file_examples(made)
    assert [(e["id"], e["answers"]["text"]) for e in examples] == [
        ("t1", ["Pasteur"]),
        ("t2", ["1885"]),
        ("t3", ["Paris"]),
        ("t4", []),
    ]
    assert examples[0]["context"] == CONTEXT and examples[0]["title"] == "Pasteur"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "options", "field"),
    [
        (b"{not json", {}, "file"),
        (b'{"version": "1.1"}', {}, "file"),
        (squad_bytes({"data": [{"title": "x", "paragraphs": []}]}), {}, "file"),
        (squad_bytes(), {"language": "French!"}, "language"),
        (squad_bytes(), {"name": "x" * 201}, "name"),
        (squad_bytes(), {"name": "a\x00b"}, "name"),
        (squad_bytes(), {"translated": "yes"}, "translated"),
    ],
)
def test_a_bad_training_file_is_refused_by_field_and_stores_nothing(
    releases_folder, content, options, field
):
    with translation.override("en"), pytest.raises(ServiceError) as error:
        training_file_import(file=io.BytesIO(content), **{"name": "f", **options})
    assert list(error.value.errors) == [field]
    assert TrainingFile.objects.count() == 0
    folder = releases_folder / "releases" / "training-files"
    assert not folder.exists() or not list(folder.iterdir())


@pytest.mark.django_db
def test_a_private_file_is_its_owners_and_a_shared_one_every_admins():
    alice = UserFactory(username="alice", roles=[Role.ADMIN])
    bob = UserFactory(username="bob", roles=[Role.ADMIN])
    private = imported(alice, name="alice-private")
    shared = imported(alice, name="alice-shared", shared=True)
    mine = imported(bob, name="bob-private")
    assert set(training_files_readable(alice)) == {private, shared}
    assert set(training_files_readable(bob)) == {shared, mine}
    # The command line (no user) reads them all.
    assert set(training_files_readable(None, as_user=False)) == {private, shared, mine}
    assert set(training_files_readable(None)) == set()


# ---------------------------------------------------------------------------------------------
# Runs with training sources: modes, the default kept, bad input


@pytest.mark.django_db
def test_the_default_run_stores_what_it_always_did():
    release = make_release()
    run = baseline_run_record(release=release, kind="finetune", model="camembert")
    run.refresh_from_db()
    assert (run.train_sources, run.mode) == ([], "")
    lexical = baseline_run_record(release=release, kind="lexical")
    lexical.refresh_from_db()
    assert (lexical.train_sources, lexical.mode) == ([], "")


@pytest.mark.django_db
def test_each_set_of_sources_is_named_by_its_mode():
    release = make_release()
    other = second_release(release)
    translated = imported(release.created_by, translated=True, name="squad-fr-mt")
    english = imported(release.created_by, translated=False, name="squad-en")

    def mode(**sources) -> tuple[str, list[str]]:
        run = baseline_run_record(
            release=release, kind="finetune", model="x", created_by=release.created_by, **sources
        )
        run.refresh_from_db()
        return run.mode, [source["label"] for source in run.train_sources]

    assert mode(train_releases=[release.pk]) == ("in_domain", ["r1 1 · train"])
    assert mode(train_releases=[other.pk]) == ("zero_shot", ["r2 1 · train"])
    assert mode(train_files=[english.pk]) == ("zero_shot", ["squad-en"])
    assert mode(train_files=[translated.pk]) == ("translate_train", ["squad-fr-mt"])
    assert mode(train_releases=[release.pk], train_files=[translated.pk]) == (
        "augmented",
        ["r1 1 · train", "squad-fr-mt"],
    )
    run = BaselineRun.objects.filter(mode="augmented").get()
    assert run.train_sources == [
        {"type": "release", "id": release.pk, "label": "r1 1 · train"},
        {"type": "file", "id": translated.pk, "label": "squad-fr-mt", "translated": True},
    ]


@pytest.mark.django_db
def test_a_release_without_train_can_be_fine_tuned_on_sources():
    release = make_release()
    source = imported(release.created_by)
    Release.objects.filter(pk=release.pk).update(
        options={**release.options, "splits": ["dev", "test"]}
    )
    release.refresh_from_db()
    run = baseline_run_record(
        release=release,
        kind="finetune",
        model="x",
        created_by=release.created_by,
        train_files=[source.pk],
    )
    assert run.mode == "translate_train"


BAD_SOURCES = [
    ("unknown file", lambda c: {"train_files": [999_999]}, "train_files"),
    ("another's private file", lambda c: {"train_files": [c["private"]]}, "train_files"),
    ("unknown release", lambda c: {"train_releases": [999_999]}, "train_releases"),
    ("unfinished release", lambda c: {"train_releases": [c["running"]]}, "train_releases"),
    ("empty train split", lambda c: {"train_releases": [c["no_train"]]}, "train_releases"),
    (
        "file with nothing for v1.1",
        lambda c: {"train_files": [c["only_impossible"]]},
        "train_files",
    ),
    (
        "lexical trains nothing",
        lambda c: {"kind": "lexical", "train_files": [c["shared"]]},
        "train_files",
    ),
    ("not an id", lambda c: {"train_files": ["x"]}, "train_files"),
    ("a boolean", lambda c: {"train_releases": [True]}, "train_releases"),
    ("twice", lambda c: {"train_files": [c["shared"], c["shared"]]}, "train_files"),
    ("not a list", lambda c: {"train_releases": 3}, "train_releases"),
    ("too many", lambda c: {"train_releases": list(range(1, 12))}, "train_releases"),
    ("no evaluation split", lambda c: {"release": c["train_only"]}, "release"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("case", "arguments", "field"), BAD_SOURCES, ids=[c[0] for c in BAD_SOURCES]
)
def test_bad_training_sources_are_refused_by_field_and_record_nothing(case, arguments, field):
    release = make_release()
    admin = release.created_by
    other_admin = UserFactory(username="other", roles=[Role.ADMIN])
    running = second_release(release, "running")
    Release.objects.filter(pk=running.pk).update(status=Release.Status.RUNNING)
    no_train = second_release(release, "no-train")
    Release.objects.filter(pk=no_train.pk).update(options={**no_train.options, "splits": ["dev"]})
    train_only = second_release(release, "train-only")
    Release.objects.filter(pk=train_only.pk).update(
        options={**train_only.options, "splits": ["train"]}
    )
    impossible = {
        "data": [
            {
                "title": "x",
                "paragraphs": [
                    {
                        "context": "abc",
                        "qas": [
                            {"id": "n", "question": "q ?", "answers": [], "is_impossible": True}
                        ],
                    }
                ],
            }
        ]
    }
    only_impossible = training_file_import(
        file=io.BytesIO(squad_bytes(impossible)), name="nulls", created_by=admin
    )
    cases = {
        "private": imported(other_admin, name="theirs").pk,
        "shared": imported(other_admin, name="shared", shared=True).pk,
        "running": running.pk,
        "no_train": no_train.pk,
        "train_only": Release.objects.get(pk=train_only.pk),
        "only_impossible": only_impossible.pk,
    }
    given = {"release": release, "kind": "finetune", "model": "x", **arguments(cases)}
    with translation.override("en"), pytest.raises(ServiceError) as error:
        baseline_run_record(created_by=admin, **given)
    assert list(error.value.errors) == [field]
    assert error.value.status == 400
    assert BaselineRun.objects.count() == 0


@pytest.mark.django_db
def test_another_admins_private_file_reads_as_unknown_but_a_shared_one_trains():
    release = make_release()
    other = UserFactory(username="other", roles=[Role.ADMIN])
    private = imported(other, name="theirs")
    shared = imported(other, name="ours", shared=True)
    with translation.override("en"), pytest.raises(ServiceError) as error:
        baseline_run_record(
            release=release,
            kind="finetune",
            model="x",
            created_by=release.created_by,
            train_files=[private.pk],
        )
    assert error.value.errors == {
        "train_files": [f"No training file {private.pk} that you may read."]
    }
    run = baseline_run_record(
        release=release,
        kind="finetune",
        model="x",
        created_by=release.created_by,
        train_files=[shared.pk],
    )
    assert run.train_sources[0]["label"] == "ours"


# ---------------------------------------------------------------------------------------------
# A tiny transformer trained on an imported file, scored on a release


def tiny_checkpoint(folder: Path) -> str:
    """Save a tiny model in folder (inside the models folder); return its name there."""
    pytest.importorskip("torch", reason="the run fine-tunes a tiny model (gpu extra)")
    pytest.importorskip("transformers", reason="the run fine-tunes a tiny model (gpu extra)")
    from evaluation.baselines.qa import save_checkpoint, tiny_model_and_tokenizer

    texts = [text for _title, _split, text, _questions in ARTICLES] + [CONTEXT]
    texts += [q for *_rest, questions in ARTICLES for q, _a in questions]
    model, tokenizer = tiny_model_and_tokenizer(texts, vocab_size=300)
    save_checkpoint(model, tokenizer, folder)
    return str(folder.relative_to(settings.MODELS_DIR))


@pytest.mark.django_db
def test_a_tiny_model_trained_on_an_imported_file_is_scored_on_a_release(
    releases_folder, models_folder, tmp_path
):
    release = make_release(include_test_answers=False)
    model = tiny_checkpoint(tmp_path / "tiny")
    source = imported(release.created_by, translated=True)
    run = baseline_run_record(
        release=release,
        kind="finetune",
        model=model,
        hyperparameters={"max_steps": 2, "batch_size": 2, "eval_batch_size": 4, "seed": 1},
        created_by=release.created_by,
        train_files=[source.pk],
    )
    baseline_run_execute(run=run)
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + run.log
    assert run.mode == "translate_train"
    # The release is v1.1: the file's 3 answerable questions train, not its unanswerable one.
    assert "train: 4 questions from squad-fr-mt\ntrain: 3 questions in all\n" in run.log
    assert "step 2/2" in run.log
    assert {split: run.metrics[split]["total"] for split in run.metrics} == {"dev": 3, "test": 3}
    assert all(0 <= run.metrics[s]["f1"] <= 100 for s in run.metrics)
    assert (run.normalization, run.device) == ("fquad-fr", "cpu")
    checkpoint = Path(run.checkpoint)
    assert checkpoint == releases_folder / "models" / f"baseline-{run.pk}"
    assert (checkpoint / "model.safetensors").exists()


@pytest.mark.django_db
def test_a_source_gone_before_the_run_fails_it_with_its_name(models_folder, tmp_path):
    release = make_release()
    source = imported(release.created_by)
    run = baseline_run_record(
        release=release,
        kind="finetune",
        model=tiny_checkpoint(tmp_path / "tiny"),
        hyperparameters={"max_steps": 1},
        created_by=release.created_by,
        train_files=[source.pk],
    )
    source.delete()
    baseline_run_execute(run=run)
    run.refresh_from_db()
    assert run.status == BaselineRun.Status.FAILED
    assert "the training source squad-fr-mt no longer exists" in run.error


@pytest.mark.django_db
def test_run_baseline_imports_a_file_and_trains_on_it_with_a_release(models_folder, tmp_path):
    release = make_release()
    other = second_release(release)
    path = tmp_path / "squad-fr.json"
    path.write_bytes(squad_bytes())
    out = StringIO()
    call_command(
        "run_baseline",
        "--release", str(release.pk),
        "--kind", "finetune",
        "--model", tiny_checkpoint(tmp_path / "tiny"),
        "--max-steps", "1",
        "--batch-size", "2",
        "--train-release", str(other.pk),
        "--import-train-file", str(path),
        "--translated",
        "--language", "fr",
        stdout=out,
    )  # fmt: skip
    summary = out.getvalue()
    run = BaselineRun.objects.get()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + run.log
    assert summary.splitlines()[:2] == [
        f"Baseline run {run.pk} (finetune): succeeded",
        "  trained on r2 1 · train + squad-fr.json (augmented)",
    ]
    made = TrainingFile.objects.get()
    assert (made.name, made.language, made.translated, made.shared, made.created_by) == (
        "squad-fr.json",
        "fr",
        True,
        True,
        None,
    )
    assert "train: 3 questions from r2 1 · train" in run.log
    assert "train: 4 questions from squad-fr.json" in run.log
    # --json, with an existing file by id; an unknown one is an error naming the field.
    out = StringIO()
    call_command(
        "run_baseline", "--release", str(release.pk), "--kind", "finetune", "--model", "x",
        "--train-file", str(made.pk), "--queue", "--json", stdout=out,
    )  # fmt: skip
    result = json.loads(out.getvalue())
    assert (result["mode"], result["status"]) == ("translate_train", "pending")
    assert result["train_sources"] == [
        {"type": "file", "id": made.pk, "label": "squad-fr.json", "translated": True}
    ]
    with translation.override("en"), pytest.raises(CommandError, match="train_files: No training"):
        call_command(
            "run_baseline", "--release", str(release.pk), "--kind", "finetune", "--model", "x",
            "--train-file", "999999",
        )  # fmt: skip
    with pytest.raises(CommandError, match="import_train_file: .*missing.json"):
        call_command(
            "run_baseline", "--release", str(release.pk), "--model", "x",
            "--import-train-file", str(tmp_path / "missing.json"),
        )  # fmt: skip
    assert BaselineRun.objects.count() == 2


# ---------------------------------------------------------------------------------------------
# The API, the results page's matrix and forms


def english_api(user) -> APIClient:
    api = APIClient()
    api.cookies["django_language"] = "en"
    api.force_authenticate(user)
    return api


@pytest.mark.django_db
def test_the_api_imports_files_lists_them_per_admin_and_runs_on_them(
    django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    admin = release.created_by
    other = UserFactory(username="other", roles=[Role.ADMIN])
    theirs = imported(other, name="theirs")
    annotator = UserFactory(username="ann", roles=[Role.ANNOTATOR])
    upload = SimpleUploadedFile("squad-fr.json", squad_bytes(), content_type="application/json")
    url = "/api/v1/baseline-runs/training-files/"
    refused = english_api(annotator).post(url, {"file": upload}, format="multipart")
    assert refused.status_code == 403
    api = english_api(admin)
    upload.seek(0)
    made = api.post(
        url, {"file": upload, "translated": "true", "language": "fr"}, format="multipart"
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["name"], body["translated"], body["shared"], body["counts"]["questions"]) == (
        "squad-fr.json",
        True,
        False,
        4,
    )
    assert [f["name"] for f in api.get(url).json()] == ["squad-fr.json"]
    bad = api.post(
        url,
        {"file": SimpleUploadedFile("x.json", b"[1, 2]", content_type="application/json")},
        format="multipart",
    )
    assert (bad.status_code, list(bad.json()["errors"])) == (400, ["file"])
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(
            "/api/v1/baseline-runs/",
            {
                "release": release.pk,
                "kind": "finetune",
                "model": "camembert",
                "train_files": [body["id"]],
            },
            format="json",
        )
    assert started.status_code == 201, started.content
    assert (started.json()["mode"], started.json()["train_sources"][0]["label"]) == (
        "translate_train",
        "squad-fr.json",
    )
    assert [(name, kw["queue"]) for name, kw in sent_tasks.calls] == [
        ("evaluation.tasks.gpu_baseline_task", "gpu")
    ]
    refused = api.post(
        "/api/v1/baseline-runs/",
        {"release": release.pk, "kind": "finetune", "model": "x", "train_files": [theirs.pk]},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json() == {
        "errors": {"train_files": [f"No training file {theirs.pk} that you may read."]}
    }
    assert BaselineRun.objects.count() == 1
    assert TrainingFile.objects.count() == 2


def finished(release, *, metrics, **arguments) -> BaselineRun:
    """A finished run with these figures (what the job stores), for the page's tests."""
    run = baseline_run_record(release=release, created_by=release.created_by, **arguments)
    BaselineRun.objects.filter(pk=run.pk).update(
        status=BaselineRun.Status.SUCCEEDED, metrics=metrics
    )
    return run


def figures(f1: float, em: float) -> dict:
    return {"f1": f1, "exact_match": em, "total": 3, "missing": 0}


def matrix_rows(html: str) -> list[list[str]]:
    """The matrix's rows as their cells' text."""
    import re

    table = html[html.index('id="matrix-table"') :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
    return [
        [
            re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in rows
    ]


@pytest.mark.django_db
def test_the_results_page_shows_the_matrix_of_sources_and_splits(client):
    release = make_release(include_test_answers=True)
    other = second_release(release)
    translated = imported(release.created_by, name="SQuAD-fr <mt>")
    lexical = baseline_run_record(release=release, kind="lexical")
    baseline_run_execute(run=lexical)
    lexical.refresh_from_db()
    in_domain = finished(
        release, kind="finetune", model="camembert-base",
        metrics={"dev": figures(88.04, 78.36), "test": figures(87.5, 75.0)},
    )  # fmt: skip
    finished(  # an older run of the same experiment: not shown
        release, kind="finetune", model="camembert-base", train_releases=[other.pk],
        metrics={"dev": figures(10.0, 5.0)},
    )  # fmt: skip
    zero_shot = finished(
        release, kind="finetune", model="camembert-base", train_releases=[other.pk],
        metrics={"dev": figures(81.25, 70.0), "test": figures(80.0, 66.67)},
    )  # fmt: skip
    augmented = finished(
        release, kind="finetune", model="camembert-base",
        train_releases=[release.pk], train_files=[translated.pk],
        metrics={"dev": figures(90.0, 80.0), "test": figures(89.95, 79.0)},
    )  # fmt: skip
    baseline_run_record(release=release, kind="finetune", model="pending")  # not finished
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    html = client.get(f"/manage/results/experiments/?release={release.pk}").content.decode()
    # The SQuAD paper's sliding window finds none of the answers (test_release_scoring.py).
    assert (lexical.metrics["dev"]["f1"], lexical.metrics["test"]["f1"]) == (0.0, 0.0)
    assert matrix_rows(html) == [
        ["Trained on", "r1 dev F1 / EM", "r1 test F1 / EM", "Mode", "Model", "Run"],
        ["Human performance", "—", "—", "—", "—", "—"],
        [
            f"r1 1 · train + SQuAD-fr &lt;mt&gt; (file #{translated.pk}) · machine-translated",
            "90.0 / 80.0", "90.0 / 79.0",
            "augmented (union of sources)", "camembert-base", f"#{augmented.pk}",
        ],
        [
            "r2 1 · train", "81.3 / 70.0", "80.0 / 66.7",
            "zero-shot (trained elsewhere)", "camembert-base", f"#{zero_shot.pk}",
        ],
        [
            "r1 1 · train (this release)", "88.0 / 78.4", "87.5 / 75.0",
            "trained on this release", "camembert-base", f"#{in_domain.pk}",
        ],
        [
            "nothing (the sliding window learns nothing)", "0.0 / 0.0", "0.0 / 0.0", "—",
            "sliding window (lexical, CPU)", f"#{lexical.pk}",
        ],
    ]  # fmt: skip
    assert "SQuAD-fr <mt>" not in html  # escaped everywhere, the form's list included
    form = client.get(f"/manage/results/baseline/?release={release.pk}").content.decode()
    assert "SQuAD-fr &lt;mt&gt;" in form and "SQuAD-fr <mt>" not in form


@pytest.mark.django_db
def test_a_matrix_row_is_a_training_recipe_not_a_file_name(client):
    """Issue 25 item 13: rows were merged on (kind, model, the sources' names), so a zero-shot
    and a translate-train run on two files called squad.json showed as one row."""
    release = make_release(include_test_answers=True)
    owner = release.created_by
    original = imported(owner, translated=False, name="squad.json")
    machine = imported(owner, translated=True, name="squad.json")
    zero_shot = finished(
        release, kind="finetune", model="camembert-base", train_files=[original.pk],
        metrics={"dev": figures(61.0, 50.0)},
    )  # fmt: skip
    older = finished(  # the same recipe, older: hidden by the newer run
        release, kind="finetune", model="camembert-base", train_files=[machine.pk],
        metrics={"dev": figures(10.0, 5.0)},
    )  # fmt: skip
    translate_train = finished(
        release, kind="finetune", model="camembert-base", train_files=[machine.pk],
        metrics={"dev": figures(70.0, 60.0)},
    )  # fmt: skip
    other_settings = finished(  # the same file and model, other settings: its own row
        release, kind="finetune", model="camembert-base", train_files=[machine.pk],
        hyperparameters={"epochs": 2}, metrics={"dev": figures(72.0, 61.0)},
    )  # fmt: skip
    BaselineRun.objects.filter(pk=older.pk).update(
        created_at=BaselineRun.objects.get(pk=zero_shot.pk).created_at
    )
    client.cookies["django_language"] = "en"
    client.force_login(owner)
    html = client.get(f"/manage/results/experiments/?release={release.pk}").content.decode()
    assert matrix_rows(html)[2:] == [
        [
            f"squad.json (file #{machine.pk}) · machine-translated", "72.0 / 61.0", "—",
            "translate-train", "camembert-base · epochs 2", f"#{other_settings.pk}",
        ],
        [
            f"squad.json (file #{machine.pk}) · machine-translated", "70.0 / 60.0", "—",
            "translate-train", "camembert-base", f"#{translate_train.pk}",
        ],
        [
            f"squad.json (file #{original.pk})", "61.0 / 50.0", "—",
            "zero-shot (trained elsewhere)", "camembert-base", f"#{zero_shot.pk}",
        ],
    ]  # fmt: skip


@pytest.mark.django_db
def test_the_results_page_forms_import_a_file_and_start_a_run_on_it(
    client, django_capture_on_commit_callbacks, sent_tasks
):
    release = make_release()
    other = second_release(release)
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    url = f"/manage/results/baseline/?release={release.pk}"
    files_url = f"/manage/results/training-files/?release={release.pk}"
    upload = SimpleUploadedFile("mt.json", squad_bytes(), content_type="application/json")
    done = client.post(
        files_url, {"form": "training-file", "file": upload, "translated": "on"}, follow=True
    )
    assert "Training file mt.json imported: 4 questions, 2 skipped." in done.content.decode()
    made = TrainingFile.objects.get()
    assert (made.translated, made.shared, made.created_by) == (True, False, release.created_by)
    html = client.get(url).content.decode()
    assert f'<option value="{made.pk}">mt.json · translated · 4 questions</option>' in html
    assert f'<option value="{other.pk}">r2 1 · train</option>' in html
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(
            url,
            {
                "kind": "finetune",
                "model": "camembert",
                "train_releases": [str(release.pk)],
                "train_files": [str(made.pk)],
            },
            follow=True,
        )
    run = BaselineRun.objects.get()
    assert f"Baseline run {run.pk} is queued." in started.content.decode()
    assert run.mode == "augmented"
    refused = client.post(
        url, {"kind": "lexical", "train_files": [str(made.pk)]}, follow=True
    ).content.decode()
    assert "Only a fine-tuning run trains" in refused
    refused = client.post(files_url, {"form": "training-file"}, follow=True).content.decode()
    assert "Choose a SQuAD-format JSON file." in refused
    assert (BaselineRun.objects.count(), TrainingFile.objects.count()) == (1, 1)
    stored = release_storage().listdir("training-files")[1]
    assert len(stored) == 1
