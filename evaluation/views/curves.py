"""Learning curves on the pages (issue 17): the results page's panel of a finished curve (its
chart, table, estimate and per-type gains), and a campaign's estimate beside its annotation
cost with the proposed question-type targets, which the campaign dashboard loads by htmx."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annotation.models import Campaign, QuestionType
from core.charts import line_chart
from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role
from evaluation.models import BaselineRun
from evaluation.services.curves.campaigns import campaign_learning_estimate, campaign_targets_accept
from evaluation.services.curves.fit import OK, predicted

admin_only = role_required(Role.ADMIN)
PANELS = 3  # the newest finished curves of the results page's runs
FIT_SAMPLES = 40  # points drawn along the fitted curve

COLORS = {"f1": "#1f6feb", "em": "#b35900", "fit": "#1f6feb", "estimate": "#8250df"}


def _chart(curve: dict) -> dict:
    points = curve.get("points", [])
    n_today = curve.get("n_today") or max((p["questions"] for p in points), default=0)
    fit = curve.get("fit", {})
    series = [
        {
            "label": _("dev F1 (measured)"),
            "points": [(p["questions"], p["f1"]) for p in points],
            "dots": True,
            "color": COLORS["f1"],
        },
        {
            "label": _("dev EM (measured)"),
            "points": [(p["questions"], p["exact_match"]) for p in points],
            "dots": True,
            "color": COLORS["em"],
            "dash": "2 3",
        },
    ]
    if fit.get("status") == OK and points:
        series += _fit_series(curve, min(p["questions"] for p in points), n_today)
    return line_chart(
        _("Dev F1 and EM against the training questions"),
        series,
        x_max=4 * n_today if fit.get("status") == OK else n_today,
    )


def _fit_series(curve: dict, start: int, n_today: int) -> list[dict]:
    """Return the fitted curve from the smallest point to 4× today, and the estimates."""
    fit = curve.get("fit", {})
    xs = [start + (4 * n_today - start) * i / FIT_SAMPLES for i in range(FIT_SAMPLES + 1)]
    return [
        {
            "label": _("fitted F1, extended to 4×"),
            "points": [(x, predicted(fit, x)) for x in xs],
            "color": COLORS["fit"],
            "dash": "6 4",
        },
        {
            "label": _("estimates at 2× and 4×"),
            "points": [(e["n"], e["f1"]) for e in curve.get("estimates", [])[1:]],
            "dots": True,
            "line": False,
            "color": COLORS["estimate"],
        },
    ]


def learning_curve_panels(runs, answer_labels=None) -> list[dict]:
    """Return the panels of the finished learning curves among `runs` (the newest first);
    `answer_labels` names the answer types."""
    answer_labels = answer_labels or {}
    curves = [
        r
        for r in runs
        if r.kind == BaselineRun.Kind.LEARNING_CURVE and r.curve.get("points") and "fit" in r.curve
    ]
    labels = dict(QuestionType.choices)
    return [_panel(run, labels, answer_labels) for run in curves[:PANELS]]


def _panel(run, labels: dict, answer_labels: dict) -> dict:
    """Return one finished curve's panel: its chart, points, estimates, per-type gains and
    proposed targets (`labels`: the question types' names)."""
    curve = run.curve
    fit = curve.get("fit", {})
    types = curve.get("types", {})
    return {
        "run": run,
        "curve": curve,
        "chart": _chart(curve),
        "chart_id": f"learning-curve-chart-{run.pk}",
        "fit": fit,
        "rows": [
            p | {"fitted": predicted(fit, p["questions"])}
            for p in sorted(curve["points"], key=lambda p: p["questions"])
        ],
        "estimates": [e for e in curve.get("estimates", []) if e.get("times", 1) > 1],
        "double": next((e for e in curve.get("estimates", []) if e.get("times") == 2), {}),
        "question_types": [
            {"label": labels.get(k, k), **v}
            for k, v in sorted(types.get("question_type", {}).items())
        ],
        "answer_types": [
            {"label": answer_labels.get(k, k), **v}
            for k, v in sorted(types.get("answer_type", {}).items())
        ],
        "proposal": [(labels.get(k, k), v) for k, v in sorted(curve.get("proposal", {}).items())],
    }


def _estimate_context(campaign: Campaign) -> dict:
    estimate = campaign_learning_estimate(campaign=campaign)
    proposal = estimate["proposal"] if estimate else {}
    current = campaign.question_type_targets or {}
    fields = [
        {
            "type": value,
            "label": label,
            "proposed": proposal.get(value),
            "current": current.get(value),
            "value": proposal.get(value, current.get(value)),
        }
        for value, label in QuestionType.choices
    ]
    return {"campaign": campaign, "estimate": estimate, "fields": fields}


def _render(request, context: dict, status: int = 200):
    template = "evaluation/learning_estimate.html"
    if request.htmx:
        template += "#learning-estimate"
    return render(request, template, context, status=status)


@admin_only
@require_GET
def campaign_learning_estimate_view(request, pk: int):
    """The estimate of a campaign (the dashboard loads it by htmx; a page of its own without)."""
    campaign = get_object_or_404(Campaign, pk=pk)
    return _render(request, _estimate_context(campaign))


def _posted_targets(post) -> dict:
    """Read the form's target_<type> fields: blank ones are left out; the rest must be whole
    numbers (the campaign's service checks the range and the sum)."""
    targets = {}
    for value in QuestionType.values:
        raw = post.get(f"target_{value}", "").strip()
        if not raw:
            continue
        try:
            targets[value] = int(raw)
        except ValueError:
            raise ServiceError(
                {"question_type_targets": [_("Each target is a whole percent from 0 to 100.")]}
            ) from None
    return targets


@admin_only
@require_POST
def campaign_targets_accept_view(request, pk: int):
    """Save the targets as posted (the proposal, accepted or edited); 400 naming the field."""
    campaign = get_object_or_404(Campaign, pk=pk)
    try:
        campaign_targets_accept(campaign=campaign, targets=_posted_targets(request.POST))
    except ServiceError as error:
        context = _estimate_context(campaign)
        context["errors"] = error.errors
        posted = {v: request.POST.get(f"target_{v}", "") for v in QuestionType.values}
        for field in context["fields"]:
            field["value"] = posted[field["type"]]
        return _render(request, context, status=400)
    messages.success(request, _("The question-type targets are saved."))
    return redirect("annotation:campaign-dashboard", pk=campaign.pk)
