"""Scoring on release (issue 17, item 1): the baselines a release names run once it is built.

A release's `score_with` lists baselines: `{"kind": "lexical"}`, `{"kind": "finetune",
"model", "hyperparameters"}` or `{"kind": "http", "model"}`. exports cannot import evaluation;
`EvaluationConfig.ready` plugs evaluation in:

- at exports' extension point (`exports.scoring`, `evaluation.forms.release_scoring_extension`):
  when a release is created, `score_with_check` below checks the list with the baseline runs'
  own rules and returns it clean (errors name `score_with[i].model`…), and the release form's
  "Score with" fieldset is evaluation's;
- on exports' signal `release_built`, sent inside the transaction that marks the release
  done, and again when the build task is delivered once more for a done release:
  `release_scoring_record` records one `BaselineRun` per entry in its slot (`scoring_key`
  "score-<i>", unique per release: an INSERT … ON CONFLICT DO NOTHING, never a
  check-then-act) and sends, on commit, the runs that never started (pending, no attempt).

docs/release-scoring.md holds the exactly-once argument.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.services.jobs import job_enqueue
from evaluation.gpu_extra import gpu_extra_problem
from evaluation.models import BaselineRun
from evaluation.services.baselines.runs import GPU_KINDS, check_hyperparameters, check_model
from exports.models import Release

SCORE_WITH_KINDS = (BaselineRun.Kind.LEXICAL, BaselineRun.Kind.FINETUNE, BaselineRun.Kind.HTTP)
MAX_SCORE_WITH = 5  # a release is scored by a handful of baselines, not a sweep
ENTRY_KEYS = {
    BaselineRun.Kind.LEXICAL: {"kind"},
    BaselineRun.Kind.HTTP: {"kind", "model"},
    BaselineRun.Kind.FINETUNE: {"kind", "model", "hyperparameters"},
}
SCORED_SPLITS = ("dev", "test")


def scoring_key(index: int) -> str:
    return f"score-{index}"


def _check_entry(entry, *, splits) -> dict:
    """Return one entry, clean, or raise a ServiceError keyed by its part (kind, model…)."""
    if not isinstance(entry, dict):
        raise ServiceError({"": [_("An object with a kind: lexical, finetune or http.")]})
    kind = entry.get("kind")
    if not isinstance(kind, str) or kind not in SCORE_WITH_KINDS:
        raise ServiceError({".kind": [_("Choose lexical, finetune or http.")]})
    unknown = sorted(str(key) for key in entry if key not in ENTRY_KEYS[kind])
    if unknown:
        raise ServiceError(
            {
                "": [
                    _("A %(kind)s baseline takes no “%(keys)s”.")
                    % {"kind": kind, "keys": "”, “".join(unknown)}
                ]
            }
        )
    errors, clean = {}, {"kind": kind}
    if kind != BaselineRun.Kind.LEXICAL:
        try:
            clean["model"] = check_model(kind, entry.get("model", ""))
        except ServiceError as error:
            errors[".model"] = error.errors["model"]
    if kind == BaselineRun.Kind.FINETUNE:
        if problem := gpu_extra_problem():
            errors[".kind"] = [problem]
        try:
            clean["hyperparameters"] = check_hyperparameters(entry.get("hyperparameters") or {})
        except ServiceError as error:
            errors[".hyperparameters"] = error.errors["hyperparameters"]
        if not errors and splits is not None and "train" not in splits:
            errors[""] = [_("Fine-tuning needs a train split: add train to the splits.")]
    if errors:
        raise ServiceError(errors)
    return clean


def score_with_check(*, score_with, splits) -> list[dict]:
    """Return the release's `score_with` list checked, or raise a ServiceError naming each bad
    part (`score_with`, `score_with[1].model`, `score_with[0].hyperparameters`…).

    `splits` are the release's checked splits (None when they were refused: the checks that
    depend on them wait until they are right)."""
    if not isinstance(score_with, list | tuple):
        raise ServiceError({"score_with": [_("A list of baselines to run once it is built.")]})
    if len(score_with) > MAX_SCORE_WITH:
        raise ServiceError(
            {"score_with": [_("At most %(n)d baselines per release.") % {"n": MAX_SCORE_WITH}]}
        )
    errors, clean = {}, []
    for index, entry in enumerate(score_with):
        field = f"score_with[{index}]"
        try:
            item = _check_entry(entry, splits=splits)
        except ServiceError as error:
            errors |= {f"{field}{part}": messages for part, messages in error.errors.items()}
            continue
        if item in clean:
            errors[field] = [
                _("The same baseline as entry %(n)d: each is run once.") % {"n": clean.index(item)}
            ]
            continue
        clean.append(item)
    if clean and splits is not None and not any(s in splits for s in SCORED_SPLITS):
        errors.setdefault(
            "score_with", [_("Scoring needs a dev or test split to score on: add one.")]
        )
    if errors:
        raise ServiceError(errors)
    return clean


def release_scoring_record(*, release: Release) -> list[BaselineRun]:
    """Record the release's scoring runs, one per slot, and send those that never started.

    Run inside the transaction that marked the release done (or inside a redelivered build
    task's): the INSERT … ON CONFLICT DO NOTHING keeps one row per slot however often this
    runs, and the runs' tasks are sent once that transaction commits (`job_enqueue`). A run
    already started (or finished) is not sent again."""
    rows = [
        BaselineRun(
            release=release,
            kind=entry["kind"],
            model=entry.get("model", ""),
            hyperparameters=entry.get("hyperparameters", {}),
            created_by_id=release.created_by_id,
            scoring_key=scoring_key(index),
        )
        for index, entry in enumerate(release.score_with)
    ]
    BaselineRun.objects.bulk_create(rows, ignore_conflicts=True)
    runs = list(release_scoring_runs(release))
    for run in runs:
        if run.status == BaselineRun.Status.PENDING and run.attempts == 0:
            gpu = run.kind in GPU_KINDS
            job_enqueue(
                job=run,
                task="evaluation.tasks.gpu_baseline_task"
                if gpu
                else "evaluation.tasks.baseline_task",
                queue="gpu" if gpu else "default",
            )
    return runs


def on_release_built(sender, *, release, **kwargs) -> None:
    """Receiver of `exports.events.release_built`."""
    release_scoring_record(release=release)


def release_scoring_runs(release: Release):
    """The runs a release asked for when it was built, in the order of its `score_with`."""
    return BaselineRun.objects.filter(release=release).exclude(scoring_key="").order_by("id")
