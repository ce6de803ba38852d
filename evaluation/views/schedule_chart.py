"""A release schedule's chart (admins): each baseline's dev and test F1 across the schedule's
snapshots, with the human performance of each snapshot; the same figures as a table.

Exports cannot read baseline runs (they are evaluation's, a floor above), so the schedule page
of exports loads this page's chart as an htmx partial and links to it.

The human line of a snapshot is FQuAD's human performance computed from the snapshot's own
answers (its internal gold file, which the schedule's retention keeps): each question with
three answers, each in turn against the two others (`evaluation.metrics.human_performance`).
A finished snapshot never changes, so each figure is computed once and cached.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.charts import line_chart
from core.errors import ServiceError
from core.permissions import role_required
from core.roles import Role
from evaluation.metrics import human_performance, language_normalization
from evaluation.models import BaselineRun
from exports.models import Release, ReleaseSchedule
from exports.services.releases import release_gold

admin_only = role_required(Role.ADMIN)

SNAPSHOTS_CHARTED = 30  # the newest finished snapshots
SPLITS = ("dev", "test")
COLORS = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7d8c")
HUMAN_COLOR = "#57606a"


def snapshot_human_f1(release: Release, split: str) -> float | None:
    """Return the human F1 of a finished snapshot's split (None: no question with three
    answers, or no such split), cached for good (a finished release never changes)."""
    norm = language_normalization(release.options.get("language") or settings.WIKIPEDIA_LANGUAGE)
    key = f"schedule-chart:human:{release.pk}:{split}:{norm.name}:{norm.version}"
    found = cache.get(key)
    if found is None:
        try:
            gold = release_gold(release=release, split=split)
        except ServiceError:
            gold = {}
        found = {"f1": human_performance(list(gold.values()), norm)["f1"]}
        cache.set(key, found, timeout=None)
    return found["f1"]


# The kinds that score a release with one model; a learning curve is many models, drawn on
# the results page instead.
CHARTED_KINDS = (
    BaselineRun.Kind.LEXICAL,
    BaselineRun.Kind.FINETUNE,
    BaselineRun.Kind.EVALUATE,
    BaselineRun.Kind.HTTP,
)
KIND_NAMES = {
    BaselineRun.Kind.LEXICAL: gettext_lazy("lexical"),
    BaselineRun.Kind.FINETUNE: gettext_lazy("fine-tuned"),
    BaselineRun.Kind.EVALUATE: gettext_lazy("evaluated"),
    BaselineRun.Kind.HTTP: gettext_lazy("served"),
}


def _baseline(run: BaselineRun) -> str:
    """A baseline's name across releases: its model and, in words, its kind."""
    kind = str(KIND_NAMES[run.kind])
    return f"{run.model_name} ({kind})" if run.model_name else kind


def schedule_figures(schedule: ReleaseSchedule) -> dict:
    """Return the chart's figures: the snapshots in time order, each with the human F1 and
    each baseline's F1 per split (its newest finished run on that snapshot)."""
    snapshots = list(
        schedule.snapshots.filter(status=Release.Status.SUCCEEDED).order_by("-created_at", "-pk")[
            :SNAPSHOTS_CHARTED
        ]
    )
    snapshots.reverse()
    runs = BaselineRun.objects.filter(
        release__in=snapshots, status=BaselineRun.Status.SUCCEEDED, kind__in=CHARTED_KINDS
    ).order_by("created_at", "pk")
    scores: dict[str, dict[int, dict[str, float]]] = {}
    for run in runs:  # oldest first: a newer run of the same baseline replaces an older one
        per_split = {
            split: run.metrics[split]["f1"]
            for split in SPLITS
            if isinstance(run.metrics.get(split), dict) and run.metrics[split].get("f1") is not None
        }
        if per_split:
            scores.setdefault(_baseline(run), {}).setdefault(run.release_id, {}).update(per_split)
    baselines = sorted(scores)
    rows = [
        {
            "release": release,
            "human": {split: snapshot_human_f1(release, split) for split in SPLITS},
            "scores": [
                {split: scores[name].get(release.pk, {}).get(split) for split in SPLITS}
                for name in baselines
            ],
        }
        for release in snapshots
    ]
    return {"baselines": baselines, "rows": rows}


def _chart(figures: dict) -> dict:
    series = []
    for split, dash in zip(SPLITS, ("", "6 4"), strict=True):
        series.append(
            {
                "label": _("humans, %(split)s") % {"split": split},
                "points": [(i, row["human"][split]) for i, row in enumerate(figures["rows"], 1)],
                "color": HUMAN_COLOR,
                "dash": dash,
                "dots": True,
            }
        )
        for index, name in enumerate(figures["baselines"]):
            series.append(
                {
                    "label": f"{name}, {split}",
                    "points": [
                        (i, row["scores"][index][split]) for i, row in enumerate(figures["rows"], 1)
                    ],
                    "color": COLORS[index % len(COLORS)],
                    "dash": dash,
                    "dots": True,
                }
            )
    # The snapshots are numbered as in the table: a tick on each, no 0.
    return line_chart(
        _("F1 across the snapshots"),
        series,
        x_max=len(figures["rows"]),
        y_max=100.0,
        numbered=True,
    )


@admin_only
def schedule_chart_page(request, pk: int):
    """The chart and its table; as an htmx request, the partial the schedule page loads."""
    schedule = get_object_or_404(ReleaseSchedule, pk=pk)
    figures = schedule_figures(schedule)
    context = {"schedule": schedule, "figures": figures, "chart": _chart(figures)}
    if request.htmx:
        return render(request, "evaluation/schedule_chart.html#schedule-chart", context)
    return render(request, "evaluation/schedule_chart.html", context)
