"""Baseline runs recorded and started: the checks of a run's kind, model and settings."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.inputs import check_text
from core.outbound import url_problem
from core.services.jobs import job_enqueue
from evaluation.gpu_extra import gpu_extra_problem
from evaluation.model_names import model_name_problem
from evaluation.models import BaselineRun
from evaluation.services.baselines.sources import _check_sources, _mode
from exports.models import Release

SCORED_SPLITS = ("dev", "test")
GPU_KINDS = (BaselineRun.Kind.FINETUNE, BaselineRun.Kind.EVALUATE)
# (evaluation.services.curves.learning_curves)
GPU_QUEUE_KINDS = (*GPU_KINDS, BaselineRun.Kind.LEARNING_CURVE)

# name: (type, lowest, highest) of the hyper-parameters an admin may set; defaults are the
# FQuAD paper's (TrainConfig).
HYPERPARAMETERS = {
    "epochs": (int, 1, 50),
    "learning_rate": (float, 1e-7, 1.0),
    "warmup_ratio": (float, 0.0, 0.99),
    "weight_decay": (float, 0.0, 1.0),
    "batch_size": (int, 1, 1024),
    "eval_batch_size": (int, 1, 4096),
    "max_length": (int, 32, 4096),
    "stride": (int, 0, 2048),
    "max_steps": (int, 1, 10_000_000),
    "seed": (int, 0, 2**31 - 1),
    "max_answer_tokens": (int, 1, 512),
}


def hyperparameter_ok(name: str, value) -> bool:
    """Whether `value` is a number of the setting's kind within its bounds (compared before
    any conversion: no overflow). `name` is a key of HYPERPARAMETERS."""
    kind, low, high = HYPERPARAMETERS[name]
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if kind is int and isinstance(value, float):
        ok = ok and value.is_integer()
    return ok and low <= value <= high


def _check_hyperparameters(values) -> dict:
    if not isinstance(values, dict):
        raise ServiceError({"hyperparameters": [_("An object of settings.")]})
    errors, clean = [], {}
    for name, value in values.items():
        if name not in HYPERPARAMETERS:
            errors.append(_("Unknown setting “%(name)s”.") % {"name": name})
            continue
        kind, low, high = HYPERPARAMETERS[name]
        if not hyperparameter_ok(name, value):
            errors.append(
                _("%(name)s: a number from %(low)s to %(high)s.")
                % {"name": name, "low": low, "high": high}
            )
            continue
        clean[name] = kind(value)
    if errors:
        raise ServiceError({"hyperparameters": errors})
    return clean


def _check_model(kind: str, model: str) -> str:
    model = check_text(model if isinstance(model, str) else "", "model").strip()
    if kind == BaselineRun.Kind.LEXICAL:
        return ""
    if not model or len(model) > 500:
        raise ServiceError(
            {"model": [_("Give the model: a folder of the models folder, a hub name or a URL.")]}
        )
    if kind == BaselineRun.Kind.HTTP:
        parts = urlsplit(model)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ServiceError({"model": [_("An http:// or https:// address of the server.")]})
        if parts.username or parts.password:  # the address is shown on the leaderboard
            raise ServiceError(
                {"model": [_("No user name or password in the address: it is shown to users.")]}
            )
        if problem := url_problem(model):  # checked again at each request
            raise ServiceError({"model": [problem]})
    elif problem := model_name_problem(model):  # local models: only from MODELS_DIR
        raise ServiceError({"model": [problem]})
    return model


# The same checks for the runs a release asks for once built (evaluation.services.release_scoring).
check_model = _check_model
check_hyperparameters = _check_hyperparameters


def baseline_run_record(
    *,
    release: Release,
    kind: str,
    model: str = "",
    hyperparameters=None,
    created_by=None,
    train_releases=None,
    train_files=None,
    as_user=False,
    fractions=None,
) -> BaselineRun:
    """Check the settings and record a pending baseline run (not sent to any queue).

    `train_releases` and `train_files` (ids) are a fine-tuning run's training sources; none
    means the release's own train split. Training files are those `created_by` may read
    (`training_files_readable`); `as_user=False` with no user is the command line (all).
    `fractions` are a learning curve's (`learning_curve_record` checks them): another kind
    refuses any given, rather than ignore what was typed.
    """
    _check_kind_and_release(kind, release)
    if kind != BaselineRun.Kind.LEARNING_CURVE and not left_out(fractions):
        raise ServiceError(
            {
                "fractions": [
                    _(
                        "Only a learning curve takes percentages of the train questions: "
                        "leave that field empty for this kind."
                    )
                ]
            }
        )
    model = _check_model(kind, model)
    clean = _check_hyperparameters(hyperparameters or {})
    sources = _check_sources(
        kind=kind,
        release=release,
        train_releases=train_releases,
        train_files=train_files,
        user=created_by,
        as_user=as_user,
    )
    if kind == BaselineRun.Kind.FINETUNE and not sources and not _has_train(release):
        raise ServiceError({"release": [_("Fine-tuning needs a release with a train split.")]})
    # Without sources, the row is what it always was (train_sources [], mode "").
    extra = {"train_sources": sources, "mode": _mode(release, sources)} if sources else {}
    return BaselineRun.objects.create(
        release=release,
        kind=kind,
        model=model,
        hyperparameters=clean,
        created_by=created_by,
        **extra,
    )


def left_out(value) -> bool:
    """Whether an optional setting was left out: not given, or blank text."""
    return value is None or (isinstance(value, str) and not value.strip())


def _check_kind_and_release(kind: str, release: Release) -> None:
    """Refuse an unknown kind, a GPU kind without the gpu extra, and a release that is not
    finished or has no split to score."""
    if kind not in BaselineRun.Kind.values:
        kinds = ", ".join(BaselineRun.Kind.values)
        raise ServiceError({"kind": [_("Choose one of %(kinds)s.") % {"kinds": kinds}]})
    if kind in GPU_QUEUE_KINDS and (problem := gpu_extra_problem()):
        raise ServiceError({"kind": [problem]})
    if release.status != Release.Status.SUCCEEDED:
        raise ServiceError({"release": [_("The release is not finished.")]}, status=409)
    if not _scored_splits(release):
        raise ServiceError(
            {"release": [_("The release has neither a dev nor a test split to evaluate on.")]}
        )


def _has_train(release: Release) -> bool:
    """Whether the release was built with a train split."""
    return "train" in release.options.get("splits", [])


def baseline_run_start(**settings) -> BaselineRun:
    """Record a baseline run (`baseline_run_record`'s keywords, checked there) and send it to
    its queue (gpu for transformers, else default)."""
    with transaction.atomic():
        run = baseline_run_record(**settings)
        gpu = run.kind in GPU_QUEUE_KINDS
        job_enqueue(
            job=run,
            task="evaluation.tasks.gpu_baseline_task" if gpu else "evaluation.tasks.baseline_task",
            queue="gpu" if gpu else "default",
        )
    return run


def _scored_splits(release: Release) -> list[str]:
    return [s for s in SCORED_SPLITS if s in release.options.get("splits", [])]
