"""The experiments page: the paper's cross-lingual table for one release (a row per training
recipe, its figures on this release's splits and on every other dataset one of its runs was
scored on), with the form that scores a run on another dataset."""

import json

from django.contrib import messages
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.inputs import parse_id
from evaluation.models import BaselineRun
from evaluation.services.cross_evaluation import (
    cross_evaluation_start,
    cross_evaluation_targets,
    cross_evaluations_of,
    parse_target,
)
from evaluation.views.results import (
    admin_only,
    human_figures,
    results_redirect,
    results_release,
    results_render,
)

MATRIX_RUNS = 200  # the newest finished runs of a release the matrix reads


def _source_label(source: dict) -> str:
    """Name one training source: a release's train split by its name, a file by its name and
    id (two files may share a name), marked when machine-translated."""
    if source["type"] != "file":
        return source["label"]
    label = _("%(name)s (file #%(id)d)") % {"name": source["label"], "id": source["id"]}
    if source.get("translated"):
        label += " · " + _("machine-translated")
    return label


def _training_label(run: BaselineRun) -> str:
    """Name what a run trained on: its sources, the release's own train split, or nothing."""
    if run.train_sources:
        return " + ".join(_source_label(source) for source in run.train_sources)
    if run.kind == BaselineRun.Kind.FINETUNE:
        return _("%(name)s · train (this release)") % {
            "name": f"{run.release.name} {run.release.version}"
        }
    if run.kind == BaselineRun.Kind.LEXICAL:
        return _("nothing (the sliding window learns nothing)")
    return _("trained elsewhere (evaluated as it is)")


def _mode_label(run: BaselineRun) -> str:
    if run.mode:
        return run.get_mode_display()
    if run.kind == BaselineRun.Kind.FINETUNE:
        return BaselineRun.Mode.IN_DOMAIN.label
    return "—"


def _recipe(run: BaselineRun) -> tuple:
    """Return a run's training recipe, what makes two runs one experiment: its kind, each
    training source by identity (type, id, machine-translated or not) or the release's own
    train split, its model and its settings. Names are not identities: two files may share
    one, and a zero-shot and a translate-train run on them are two rows."""
    sources = tuple((s["type"], s["id"], bool(s.get("translated"))) for s in run.train_sources)
    if not sources and run.kind == BaselineRun.Kind.FINETUNE:
        sources = (("release", run.release_id, False),)
    settings = json.dumps(run.hyperparameters, sort_keys=True)
    return (run.kind, run.model, sources, settings)


def _settings_label(run: BaselineRun) -> str:
    return ", ".join(f"{name} {value}" for name, value in sorted(run.hyperparameters.items()))


def _matrix(release) -> dict:
    """The paper's cross-lingual table for one release: a row per training recipe (its newest
    finished run), its F1/EM on this release's dev and test splits, then a column per other
    dataset one of these runs was scored on (another release's split, an imported file)."""
    runs = (
        BaselineRun.objects.filter(release=release, status=BaselineRun.Status.SUCCEEDED)
        .exclude(kind=BaselineRun.Kind.LEARNING_CURVE)  # many models: drawn as its curve
        .select_related("release")
        .order_by("-created_at", "-id")[:MATRIX_RUNS]
    )
    rows, seen = [], set()
    for run in runs:
        key = _recipe(run)
        if key in seen:
            continue  # an older run of the same experiment
        seen.add(key)
        rows.append(
            {
                "run": run,
                "training": _training_label(run),
                "settings": _settings_label(run),
                "mode": _mode_label(run),
                "cells": [run.metrics.get(split) for split in ("dev", "test")],
            }
        )
    evaluations = cross_evaluations_of([row["run"] for row in rows])
    columns = {}
    for found in evaluations.values():
        for evaluation in found:
            label = evaluation.target_label
            if evaluation.file_key is not None:  # two files may share a name
                label = _source_label({"type": "file", "id": evaluation.file_key, "label": label})
            columns[evaluation.target_key] = label
    keys = sorted(columns, key=lambda k: (columns[k], k))
    for row in rows:
        by_key = {e.target_key: e for e in evaluations.get(row["run"].pk, [])}
        row["scored_on"] = [by_key.get(key) for key in keys]
    return {"rows": rows, "columns": [{"key": k, "label": columns[k]} for k in keys]}


def _own(target: dict, release) -> bool:
    return release is not None and target["value"].startswith(f"release-{release.pk}-")


@admin_only
@require_http_methods(["GET", "POST"])
def results_experiments_page(request):
    """The matrix; a post scores one of its runs on another dataset and comes back here."""
    release = results_release(request)
    if request.method == "POST" and release is not None:
        return _score_elsewhere(request, release)
    return _render(request, release)


def _render(request, release, *, errors=None, posted=None, status=200):
    """Render the page; a refused form comes back as a 4xx naming its fields, as typed, with
    the same words at the top of the page."""
    _reading, human = human_figures()
    matrix = _matrix(release) if release is not None else {"rows": [], "columns": []}
    context = {
        "human": human,
        "matrix": matrix,
        "cross_targets": [
            t for t in cross_evaluation_targets(request.user) if not _own(t, release)
        ],
        "cross_errors": errors or {},
        "cross_posted": posted or {},
    }
    return results_render(
        request, "results-experiments", release, context, status=status, errors=errors
    )


def _score_elsewhere(request, release):
    """Score one of the release's finished runs on another dataset (the matrix's columns)."""
    posted = {"run": request.POST.get("run", ""), "target": request.POST.get("target", "")}
    try:
        run_id = parse_id(posted["run"], "run")
        run = BaselineRun.objects.filter(pk=run_id, release=release).first()
        if run is None:
            raise ServiceError({"run": [_("Choose one of this release's finished runs.")]})
        evaluation = cross_evaluation_start(
            run=run, **parse_target(posted["target"]), created_by=request.user
        )
    except ServiceError as error:
        return _render(request, release, errors=error.errors, posted=posted, status=error.status)
    messages.success(
        request,
        _("Run #%(run)d is queued to be scored on %(target)s.")
        % {"run": evaluation.run_id, "target": evaluation.target_label},
    )
    return results_redirect(request, release, "#matrix-title")
