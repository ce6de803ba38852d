"""Local models only from the models folder (evaluation/model_names.py): names relative to
MODELS_DIR, no absolute path, no `..`, no link out of it; a refusal says the same whether or not
something exists outside."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from evaluation.model_names import ModelNameError, checkpoint_location, model_location
from evaluation.models import BaselineRun
from evaluation.services.baselines.execute import baseline_run_execute
from tests.evaluation.test_baseline_runs import make_release

ABSOLUTE = (
    "Name the model relative to the models folder, or by its model hub name: not by an "
    "absolute path."
)
SHAPE = (
    "A model name is letters, digits, “.”, “_” and “-”, in parts separated by “/”, with no "
    "“..”: a folder of the models folder or a model hub name."
)


@pytest.fixture
def models(settings, tmp_path):
    """A models folder holding `tiny/config.json`, beside an `outside` folder with a file."""
    root = tmp_path / "models"
    (root / "tiny").mkdir(parents=True)
    (root / "tiny" / "config.json").write_text("{}")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_text("root:x:0:0")
    settings.MODELS_DIR = root
    return root


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "model", "message"),
    [
        ("evaluate", "/etc/passwd", ABSOLUTE),
        ("finetune", "/etc", ABSOLUTE),
        ("evaluate", "~root/.ssh", ABSOLUTE),
        ("evaluate", "C:/Windows", ABSOLUTE),
        ("evaluate", "../../../../etc", SHAPE),
        ("finetune", "tiny/../../outside", SHAPE),
        ("evaluate", "a//b", SHAPE),
        ("evaluate", "a\\b", SHAPE),
        ("learning_curve", "..", SHAPE),
    ],
)
def test_a_path_outside_the_models_folder_is_refused_at_input_naming_model(kind, model, message):
    release = make_release()
    client = APIClient()
    client.force_authenticate(release.created_by)
    client.cookies["django_language"] = "en"
    before = BaselineRun.objects.count()

    response = client.post(
        "/api/v1/baseline-runs/",
        {"release": release.pk, "kind": kind, "model": model},
        format="json",
    )

    assert (response.status_code, response.json()) == (400, {"errors": {"model": [message]}})
    assert BaselineRun.objects.count() == before


@pytest.mark.django_db
def test_a_release_scored_by_a_finetune_of_an_absolute_path_is_refused_naming_the_entry():
    from core.errors import ServiceError
    from exports.services.releases import release_create

    with translation.override("en"), pytest.raises(ServiceError) as refused:
        release_create(
            created_by=None,
            name="r",
            version="1",
            formats=["squad"],
            score_with=[{"kind": "finetune", "model": "/etc/passwd"}],
        )
    assert refused.value.errors == {"score_with[0].model": [ABSOLUTE]}


def test_a_folder_of_the_models_folder_is_found_by_its_name(models):
    assert model_location("tiny") == str(models / "tiny")


def test_a_name_that_is_not_there_is_a_hub_name(models):
    assert model_location("camembert-base") == "camembert-base"
    assert model_location("almanach/camembert-base") == "almanach/camembert-base"
    with pytest.raises(ModelNameError, match="no such folder in the models folder, and not a"):
        model_location("a/b/c")


def test_a_link_out_of_the_folder_is_refused_the_same_whether_its_target_exists(models, tmp_path):
    (models / "escape").symlink_to(tmp_path / "outside")
    (models / "ghost").symlink_to(tmp_path / "nothing-here")

    messages = []
    for name in ("escape", "ghost", "escape/secret.txt", "ghost/secret.txt"):
        with pytest.raises(ModelNameError) as refused:
            model_location(name)
        messages.append(str(refused.value).replace(repr(name), "NAME"))

    assert messages == ["model NAME: not inside the models folder"] * 4


def test_a_file_linking_out_of_a_model_folder_is_refused(models, tmp_path):
    (models / "tiny" / "tokenizer.json").symlink_to(tmp_path / "outside" / "secret.txt")

    with pytest.raises(ModelNameError, match="a file links outside the models folder"):
        model_location("tiny")


def test_a_link_inside_the_folder_is_followed(models):
    (models / "current").symlink_to(models / "tiny")

    assert model_location("current") == str(models / "tiny")


def test_a_served_checkpoint_is_inside_the_models_folder_or_the_platforms_own(
    models, settings, tmp_path
):
    settings.VAR_DIR = tmp_path / "var"
    own = settings.VAR_DIR / "models" / "baseline-3"
    own.mkdir(parents=True)

    assert checkpoint_location(str(own)) == str(own)
    assert checkpoint_location("tiny") == str(models / "tiny")
    with pytest.raises(ModelNameError, match="^the checkpoint is not inside the models folder$"):
        checkpoint_location(str(tmp_path / "outside"))
    with pytest.raises(ModelNameError, match="^the checkpoint is not inside the models folder$"):
        checkpoint_location("/etc")


@pytest.mark.django_db
@pytest.mark.parametrize("model", ["/etc/passwd", "../../../../etc/passwd"])
def test_an_older_run_with_a_path_fails_without_reading_it(models, model):
    pytest.importorskip("transformers", reason="an evaluate run loads transformers (gpu extra)")
    run = BaselineRun.objects.create(
        release=make_release(), kind="evaluate", model=model, status="pending"
    )

    baseline_run_execute(run=run)

    run.refresh_from_db()
    assert run.status == BaselineRun.Status.FAILED
    assert run.error == (f"ModelNameError: model {model!r}: not a name the models folder accepts")
