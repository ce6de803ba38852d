"""The results page for admins: baseline runs beside human performance, per split and type."""

import json
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from annotation.models import QuestionType
from core.charts import bar_chart
from core.errors import ServiceError
from core.i18n import interpolate
from core.inputs import parse_id
from core.pagination import page_cursors
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read
from core.views import job_status_response
from evaluation.models import BaselineRun
from evaluation.selectors.human import HUMAN_FIGURE
from evaluation.selectors.runs import baseline_runs_page
from evaluation.services.baselines import (
    baseline_run_start,
    training_file_delete,
    training_file_import,
    training_file_unshare,
    training_files_readable,
)
from evaluation.services.cross_evaluation import (
    cross_evaluation_start,
    cross_evaluation_targets,
    cross_evaluations_of,
    parse_target,
)
from evaluation.services.curves.learning_curves import learning_curve_start
from evaluation.services.model_loop.rounds import model_rounds_report
from evaluation.views.curves import learning_curve_panels
from exports.models import Release
from exports.selectors import finished_releases, release_choices

admin_only = role_required(Role.ADMIN)

ANSWER_TYPE_LABELS = {  # the FQuAD paper's answer types
    "date": gettext_lazy("date"),
    "number": gettext_lazy("other number"),
    "person": gettext_lazy("person"),
    "place": gettext_lazy("place"),
    "other_entity": gettext_lazy("other proper noun"),
    "common_noun": gettext_lazy("common noun"),
    "verb": gettext_lazy("verb"),
    "adjective": gettext_lazy("adjective"),
    "other": gettext_lazy("other"),
}


def _label(run: BaselineRun) -> str:
    return f"#{run.pk} {run.model_name or run.get_kind_display()}"


F1_SCALE = 100.0  # every F1 chart: one scale, so that dev and test read alike


def _charts(runs, human) -> list[dict]:
    charts = []
    for split in ("dev", "test"):
        items = []
        if human.get(split, {}).get("f1") is not None:
            items.append((_("humans"), round(human[split]["f1"], 1)))
        items += [(_label(r), round(r.metrics[split]["f1"], 1)) for r in runs if split in r.metrics]
        if items:
            title = _("F1 on %(split)s (scale 0–100)") % {"split": split}
            charts.append(bar_chart(title, items, top=F1_SCALE))
    return charts


def _breakdown_rows(runs, key: str, labels: dict) -> list[dict]:
    rows = []
    for value, label in labels.items():
        cells = []
        for run in runs:
            for split in ("dev", "test"):
                figures = run.breakdown.get(split, {}).get(key, {}).get(value)
                cells.append(None if figures is None else figures["f1"])
        shares = [
            run.breakdown.get(split, {}).get(key, {}).get(value, {}).get("share")
            for run in runs[:1]
            for split in ("dev", "test")
        ]
        if any(c is not None for c in cells):
            rows.append({"label": label, "cells": cells, "shares": shares})
    return rows


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


def _no_answer_rows(runs) -> list[dict]:
    """Return a row per finished run and split scored the SQuAD v2.0 way: the answerable and
    unanswerable counts, HasAns/NoAns beside overall, the no-answer classification (FQuAD
    2.0's F1 on telling answerable from unanswerable) and the threshold learnt on dev."""
    rows = []
    for run in runs:
        for split in ("dev", "test"):
            figures = run.metrics.get(split)
            if not figures or "no_answer" not in figures:
                continue  # a v1.1 release's run: answerable questions only
            rows.append(
                {
                    "run": run,
                    "split": split,
                    "figures": figures,
                    "answerable": figures.get("HasAns_total", 0),
                    "unanswerable": figures.get("NoAns_total", 0),
                    "classification": figures["no_answer"],
                    "learnt": figures.get("no_answer_threshold_from") == "dev",
                    "threshold": figures.get("no_answer_threshold"),
                }
            )
    return rows


@admin_only
@require_http_methods(["GET", "POST"])
def results_page(request):
    """A release's baseline runs, a page at a time (newest first; a refused page cursor
    answers 400 with the first page), beside the human performance (the stored figure); the
    charts and breakdowns compare the finished runs of the page. Below, the model in the
    loop: each campaign's model rounds, how often each model was fooled, and how the later
    models do on the earlier rounds' questions."""
    release = None
    if request.GET.get("release"):
        try:
            release = get_object_or_404(
                Release.objects.filter(status=Release.Status.SUCCEEDED),
                pk=parse_id(request.GET["release"], "release"),
            )
        except ServiceError:
            raise Http404 from None
    else:
        release = finished_releases().first()
    if request.method == "POST" and release is not None:
        if request.POST.get("form") == "training-file":
            return _import_file(request, release)
        if request.POST.get("form") in ("training-file-delete", "training-file-unshare"):
            return _manage_file(request, release)
        if request.POST.get("form") == "cross-evaluation":
            return _score_elsewhere(request, release)
        return _start_run(request, release)
    return _render(request, release)


def _own(target: dict, release) -> bool:
    return release is not None and target["value"].startswith(f"release-{release.pk}-")


def _render(request, release, *, errors=None, posted=None, status=None, form="baseline"):
    """Render the page; a refused form comes back as a 4xx naming its fields, as typed, with
    the same words at the top of the page, where the reader lands after the post."""
    if errors:
        messages.error(request, ServiceError(errors).summary())
    matrix = _matrix(release) if release is not None else {"rows": [], "columns": []}
    page = None
    if release is not None:
        page = baseline_runs_page(release=release, **page_cursors(request.GET))
    runs = page.rows if page else []
    done = [r for r in runs if r.status == BaselineRun.Status.SUCCEEDED]
    reading = figure_read(HUMAN_FIGURE)
    human = reading.value["splits"] if reading.value else {}
    context = {
        "releases": release_choices(shown=release),
        "release": release,
        "runs": runs,
        "page": page,
        "query": urlencode({"release": release.pk}) if release else "",
        "done": done,
        "human": human,
        "human_reading": reading,
        "charts": _charts(done, human),
        "question_rows": _breakdown_rows(done, "question_type", dict(QuestionType.choices)),
        "answer_rows": _breakdown_rows(done, "answer_type", ANSWER_TYPE_LABELS),
        "no_answer_rows": _no_answer_rows(done),
        "kinds": BaselineRun.Kind.choices,
        "matrix": matrix,
        "cross_targets": [
            t for t in cross_evaluation_targets(request.user) if not _own(t, release)
        ],
        "source_releases": [r for r in release_choices() if "train" in r.options.get("splits", [])],
        "training_files": list(
            training_files_readable(request.user).select_related("created_by")[:100]
        ),
        "model_rounds": model_rounds_report(),
        "learning_curves": learning_curve_panels(done, ANSWER_TYPE_LABELS),
        "errors": (errors or {}) if form == "baseline" else {},
        "posted": (posted or {}) if form == "baseline" else {},
        "cross_errors": (errors or {}) if form == "cross" else {},
        "cross_posted": (posted or {}) if form == "cross" else {},
    }
    if status is None:
        status = page.status if page is not None else 200
    return render(request, "evaluation/results.html", context, status=status)


def _ids(request, name: str) -> list:
    values = []
    for value in request.POST.getlist(name):
        try:
            values.append(parse_id(value, name))
        except ServiceError:
            values.append(value)  # refused by the service, naming the field
    return values


def _import_file(request, release):
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise ServiceError({"file": [_("Choose a SQuAD-format JSON file.")]})
        made = training_file_import(
            file=upload,
            name=request.POST.get("name", ""),
            language=request.POST.get("language", ""),
            translated=request.POST.get("translated") == "on",
            shared=request.POST.get("shared") == "on",
            created_by=request.user,
        )
    except ServiceError as error:
        messages.error(request, error.summary())
    else:
        message = interpolate(
            ngettext(
                "Training file %(name)s imported: %(n)d question, %(skipped)d skipped.",
                "Training file %(name)s imported: %(n)d questions, %(skipped)d skipped.",
                made.counts["questions"],
            ),
            {"name": made.name, "n": made.counts["questions"], "skipped": made.counts["skipped"]},
        )
        named = [str(skip["id"]) for skip in made.skipped[:5] if skip["id"] is not None]
        if named:
            message += " " + _("Skipped: %(ids)s (the training files table says why).") % {
                "ids": ", ".join(named) + ("…" if made.counts["skipped"] > len(named) else "")
            }
        messages.success(request, message)
    return redirect(f"{request.path}?release={release.pk}")


def _manage_file(request, release):
    """Delete a training file, or stop sharing it (the services say who may)."""
    file_id = request.POST.get("file", "")
    try:
        if request.POST["form"] == "training-file-delete":
            found = training_file_delete(file_id=file_id, user=request.user)
            done = _("Training file %(name)s deleted.") % {"name": found.name}
        else:
            found = training_file_unshare(file_id=file_id, user=request.user)
            done = _("Training file %(name)s is no longer shared.") % {"name": found.name}
    except ServiceError as error:
        messages.error(request, error.summary())
    else:
        messages.success(request, done)
    return redirect(f"{request.path}?release={release.pk}")


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
        return _render(
            request, release, errors=error.errors, posted=posted, status=error.status, form="cross"
        )
    messages.success(
        request,
        _("Run #%(run)d is queued to be scored on %(target)s.")
        % {"run": evaluation.run_id, "target": evaluation.target_label},
    )
    return redirect(f"{request.path}?release={release.pk}#matrix-title")


STARTED_FIELDS = ("kind", "model", "epochs", "max_steps", "fractions")


def _start_run(request, release):
    hyperparameters = {}
    for name in ("epochs", "max_steps"):
        if request.POST.get(name):
            try:
                hyperparameters[name] = int(request.POST[name])
            except ValueError:
                hyperparameters[name] = request.POST[name]
    try:
        if request.POST.get("kind") == BaselineRun.Kind.LEARNING_CURVE:
            run = learning_curve_start(
                release=release,
                model=request.POST.get("model", ""),
                hyperparameters=hyperparameters,
                fractions=request.POST.get("fractions", ""),
                created_by=request.user,
                train_releases=_ids(request, "train_releases"),
                train_files=_ids(request, "train_files"),
            )
        else:
            run = baseline_run_start(
                release=release,
                kind=request.POST.get("kind", ""),
                model=request.POST.get("model", ""),
                hyperparameters=hyperparameters,
                created_by=request.user,
                train_releases=_ids(request, "train_releases"),
                train_files=_ids(request, "train_files"),
                as_user=True,
            )
    except ServiceError as error:
        posted = {name: request.POST.get(name, "") for name in STARTED_FIELDS}
        for name in ("train_releases", "train_files"):
            posted[name] = request.POST.getlist(name)
        return _render(request, release, errors=error.errors, posted=posted, status=error.status)
    messages.success(request, _("Baseline run %(n)d is queued.") % {"n": run.pk})
    return redirect(f"{request.path}?release={release.pk}")


@admin_only
def baseline_run_status(request, pk: int):
    return job_status_response(request, get_object_or_404(BaselineRun, pk=pk))
