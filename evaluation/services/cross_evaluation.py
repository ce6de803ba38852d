"""A finished baseline run scored on another dataset (issue 25 item 14): the dev or test split of
another finished release, or an imported SQuAD-format file, as the FQuAD paper's cross-lingual
table scores a FQuAD-trained model on SQuAD's dev set and back (docs/experiments.md).

A `CrossEvaluation` is a job: recorded with its target checked (`cross_evaluation_start`), run
by a worker (queue gpu for a transformers run, default otherwise) that predicts with the run's
model (`evaluation.run_predict`, as model rounds do) and scores with the run's own scoring
(`score_split`: EM, F1, per question and answer type). The results page's matrix shows it as
a column. Answerable questions only: a SQuAD v2.0 target's unanswerable questions are left out
(the run's model may never have learnt to abstain), and the figures say how many.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import ServiceError
from core.i18n import Text
from core.inputs import object_by_id
from core.services.jobs import job_enqueue, job_run
from evaluation.gpu_extra import gpu_extra_problem
from evaluation.metrics import language_normalization
from evaluation.models import BaselineRun, CrossEvaluation
from evaluation.release_data import training_file_examples
from evaluation.run_predict import run_predict
from evaluation.services.baselines.execute import release_gold_examples, score_split
from evaluation.services.baselines.runs import GPU_KINDS
from evaluation.services.baselines.sources import training_files_readable
from evaluation.services.leaderboard.submissions import release_split_normalization
from exports.models import Release
from exports.services.releases import release_gold

SCORABLE = (*GPU_KINDS, BaselineRun.Kind.LEXICAL, BaselineRun.Kind.HTTP)


def _check_run(run: BaselineRun) -> None:
    if run.status != BaselineRun.Status.SUCCEEDED:
        raise ServiceError({"run": [_("Only a finished run can be scored on another dataset.")]})
    if run.kind not in SCORABLE:
        raise ServiceError(
            {"run": [_("A learning curve is many models: score one fine-tuning run instead.")]}
        )
    if run.kind == BaselineRun.Kind.FINETUNE and not run.checkpoint:
        raise ServiceError({"run": [_("This fine-tuning run kept no checkpoint to score.")]})
    if run.kind in GPU_KINDS and (problem := gpu_extra_problem()):
        raise ServiceError({"run": [problem]})


def _release_target(run: BaselineRun, release_id, split) -> dict:
    release = object_by_id(
        Release.objects, release_id, field="release", missing=_("No such release.")
    )
    name = f"{release.name} {release.version}"
    if release.status != Release.Status.SUCCEEDED:
        raise ServiceError(
            {"release": [_("The release %(name)s is not finished.") % {"name": name}]}
        )
    if release.pk == run.release_id:
        raise ServiceError(
            {"release": [_("The run is already scored on its own release's dev and test.")]}
        )
    if split not in CrossEvaluation.Split.values:
        raise ServiceError({"split": [_("Choose dev or test.")]})
    if split not in release.options.get("splits", []):
        raise ServiceError(
            {
                "split": [
                    _("The release %(name)s has no %(split)s split.")
                    % {"name": name, "split": split}
                ]
            }
        )
    return {"release": release, "split": split, "target_label": f"{name} · {split}"}


def _file_target(file_id, user, as_user: bool) -> dict:
    readable = training_files_readable(user, as_user=as_user)
    found = object_by_id(
        readable, file_id, field="file", missing=_("No imported file that you may read.")
    )
    if not found.counts.get("answerable", found.counts.get("questions", 0)):
        raise ServiceError(
            {
                "file": [
                    _("The file %(name)s has no answerable question to score.")
                    % {"name": found.name}
                ]
            }
        )
    return {"training_file": found, "file_key": found.pk, "target_label": found.name}


def cross_evaluation_record(
    *, run: BaselineRun, release=None, split="", file=None, created_by=None, as_user=True
) -> CrossEvaluation:
    """Check and record a pending evaluation of `run` on a release's split or an imported
    file (ids, as the doors pass them). Refused (400 naming the field): an unfinished run, a
    learning curve, a fine-tuning without checkpoint; both targets or neither; the run's own
    release; a release not finished or without that split; a file the user may not read.
    An evaluation of the same run on the same target that has not failed is a 409; a failed
    one is replaced."""
    _check_run(run)
    if (release in (None, "")) == (file in (None, "")):
        raise ServiceError(
            {"release": [_("Give a release and its split, or an imported file: one of them.")]}
        )
    if file in (None, ""):
        target = _release_target(run, release, split)
        same = {"release": target["release"], "split": target["split"]}
        field = "release"
    else:
        target = _file_target(file, created_by, as_user)
        same = {"file_key": target["file_key"]}
        field = "file"
    with transaction.atomic():
        # The unique constraints hold the rule; the lock keeps two requests from both
        # replacing one failed evaluation.
        found = CrossEvaluation.objects.select_for_update().filter(run=run, **same).first()
        if found is not None and found.status != CrossEvaluation.Status.FAILED:
            raise ServiceError(
                {field: [_("Run #%(run)d is already scored there.") % {"run": run.pk}]},
                status=409,
            )
        if found is not None:
            found.delete()
        return CrossEvaluation.objects.create(run=run, created_by=created_by, **target)


def cross_evaluation_start(**arguments) -> CrossEvaluation:
    """Record an evaluation and send it to its queue (gpu for a transformers run)."""
    with transaction.atomic():
        evaluation = cross_evaluation_record(**arguments)
        gpu = evaluation.run.kind in GPU_KINDS
        job_enqueue(
            job=evaluation,
            task="evaluation.tasks."
            + ("gpu_cross_evaluation_task" if gpu else "cross_evaluation_task"),
            queue="gpu" if gpu else "default",
        )
    return evaluation


def _target_questions(evaluation: CrossEvaluation):
    """Return (answered examples, gold {id: answers}, normalization) of the target."""
    if evaluation.release_id is not None:
        release = evaluation.release
        gold = release_gold(release=release, split=evaluation.split)
        examples = release_gold_examples(release, evaluation.split)
        norm = release_split_normalization(question_ids=gold, release=release)
    else:
        found = evaluation.training_file
        if found is None:
            raise RuntimeError(f"the file {evaluation.target_label} no longer exists")
        examples = training_file_examples(found)
        gold = {e["id"]: list(e["answers"]["text"]) for e in examples}
        norm = language_normalization(found.language)
    examples = [e for e in examples if e["answers"]["text"]]
    answered = {e["id"] for e in examples}
    return examples, {k: v for k, v in gold.items() if k in answered and v}, norm


def _work(evaluation: CrossEvaluation, report) -> Text:
    report(10, Text(gettext_noop("Reading %(target)s"), {"target": evaluation.target_label}))
    examples, gold, norm = _target_questions(evaluation)
    if not gold:
        raise RuntimeError(f"{evaluation.target_label} holds no answerable question to score")
    report(30, Text(gettext_noop("Predicting %(n)d questions"), {"n": len(gold)}))
    predictions = run_predict(evaluation.run, examples)
    metrics, breakdown = score_split(
        evaluation.run, evaluation.split, examples, predictions, gold, norm
    )
    CrossEvaluation.objects.filter(pk=evaluation.pk).update(
        metrics=metrics,
        breakdown=breakdown,
        normalization=norm.name,
        normalization_version=norm.version,
    )
    return Text(
        gettext_noop("F1 %(f1).1f / EM %(em).1f on %(n)d questions"),
        {"f1": metrics["f1"], "em": metrics["exact_match"], "n": len(gold)},
    )


def cross_evaluation_execute(*, evaluation: CrossEvaluation) -> None:
    """Run the evaluation as its job (a redelivered task for a finished one does nothing)."""
    job_run(evaluation, _work)


def cross_evaluations_of(runs) -> dict[int, list[CrossEvaluation]]:
    """Return {run id: its evaluations, oldest first} for the matrix."""
    found: dict[int, list[CrossEvaluation]] = {}
    rows = CrossEvaluation.objects.filter(run__in=[r.pk for r in runs]).order_by("created_at", "pk")
    for row in rows:
        found.setdefault(row.run_id, []).append(row)
    return found


def cross_evaluation_targets(user) -> list[dict]:
    """Return what a run may be scored on, for the form: every finished release's dev and
    test, and the imported files `user` may read ({"value", "label"})."""
    targets = []
    for release in Release.objects.filter(status=Release.Status.SUCCEEDED).order_by("-pk")[:100]:
        for split in ("dev", "test"):
            if split in release.options.get("splits", []):
                targets.append(
                    {
                        "value": f"release-{release.pk}-{split}",
                        "label": f"{release.name} {release.version} · {split}",
                    }
                )
    for found in training_files_readable(user)[:100]:
        targets.append({"value": f"file-{found.pk}", "label": found.name, "file": found})
    return targets


def parse_target(value: str) -> dict:
    """Read the form's target ("release-<id>-<split>" or "file-<id>") as the service's
    arguments; anything else is refused naming the field."""
    parts = (value or "").split("-")
    if len(parts) == 3 and parts[0] == "release" and parts[1].isdigit():
        return {"release": int(parts[1]), "split": parts[2]}
    if len(parts) == 2 and parts[0] == "file" and parts[1].isdigit():
        return {"file": int(parts[1])}
    raise ServiceError({"target": [_("Choose a release's split or an imported file.")]})
