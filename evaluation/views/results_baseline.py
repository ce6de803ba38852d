"""The "score a baseline" page: the form that starts a baseline run or a learning curve on
the release, training on its train split or on other sources."""

from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from core.inputs import parse_id
from core.templatetags.numbers import grouped
from evaluation.models import BaselineRun
from evaluation.services.baselines.runs import (
    HYPERPARAMETERS,
    baseline_run_start,
    hyperparameter_ok,
)
from evaluation.services.baselines.sources import training_files_readable
from evaluation.services.curves.learning_curves import learning_curve_start
from evaluation.views.results import (
    admin_only,
    results_redirect,
    results_release,
    results_render,
)
from exports.selectors import release_choices

STARTED_FIELDS = ("kind", "model", "epochs", "max_steps", "fractions")
# The settings the page asks for, by the names its fields show.
PAGE_SETTINGS = {"epochs": gettext_lazy("Epochs"), "max_steps": gettext_lazy("Maximum steps")}


@admin_only
@require_http_methods(["GET", "POST"])
def results_baseline_page(request):
    """The form; a post starts the run and comes back here (refused: a 4xx naming the
    fields, what was typed kept)."""
    release = results_release(request)
    if request.method == "POST" and release is not None:
        return _start_run(request, release)
    return _render(request, release)


def _render(request, release, *, errors=None, posted=None, status=200):
    context = {
        "kinds": BaselineRun.Kind.choices,
        "source_releases": [r for r in release_choices() if _has_train_questions(r)],
        "training_files": list(training_files_readable(request.user)[:100]),
        "errors": errors or {},
        "posted": posted or {},
    }
    return results_render(
        request, "results-baseline", release, context, status=status, errors=errors
    )


def _has_train_questions(release) -> bool:
    """Whether the release offers a train split to train on: built with one that holds
    questions (a split without a question has no file: `splits_without_questions`)."""
    empty = release.manifest.get("splits_without_questions", [])
    return "train" in release.options.get("splits", []) and "train" not in empty


def _ids(request, name: str) -> list:
    values = []
    for value in request.POST.getlist(name):
        try:
            values.append(parse_id(value, name))
        except ServiceError:
            values.append(value)  # refused by the service, naming the field
    return values


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
                fractions=request.POST.get("fractions", ""),
            )
    except ServiceError as error:
        posted = {name: request.POST.get(name, "") for name in STARTED_FIELDS}
        for name in ("train_releases", "train_files"):
            posted[name] = request.POST.getlist(name)
        errors = _page_errors(error.errors, hyperparameters)
        return _render(request, release, errors=errors, posted=posted, status=error.status)
    messages.success(request, _("Baseline run %(n)d is queued.") % {"n": run.pk})
    return results_redirect(request, release)


def _page_errors(errors: dict, hyperparameters: dict) -> dict:
    """The service names a bad setting by its key, under `hyperparameters` ("max_steps: a
    number from 1 to 10000000."); the page names it as its field does, beside that field."""
    if "hyperparameters" not in errors:
        return errors
    errors = dict(errors)
    for name, value in hyperparameters.items():
        if not hyperparameter_ok(name, value):
            _kind, low, high = HYPERPARAMETERS[name]
            errors[name] = [
                _("%(field)s: a whole number from %(low)s to %(high)s.")
                % {"field": PAGE_SETTINGS[name], "low": grouped(low), "high": grouped(high)}
            ]
    if any(name in errors for name in hyperparameters):
        del errors["hyperparameters"]
    return errors
