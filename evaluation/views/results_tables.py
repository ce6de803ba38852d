"""The results pages that read a page of a release's baseline runs (newest first; a refused
page cursor answers 400 with the first page): the scores beside human performance, the SQuAD
v2.0 table, the per-type tables and the learning curves. Each compares the finished runs of
its page, and each has the same pager."""

from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from annotation.models import QuestionType
from core.charts import bar_chart
from core.pagination import page_cursors
from evaluation.models import BaselineRun
from evaluation.selectors.runs import baseline_runs_page
from evaluation.views.curves import learning_curve_panels
from evaluation.views.results import (
    ANSWER_TYPE_LABELS,
    admin_only,
    human_figures,
    results_release,
    results_render,
)

F1_SCALE = 100.0  # every F1 chart: one scale, so that dev and test read alike


def _label(run: BaselineRun) -> str:
    return f"#{run.pk} {run.model_name or run.get_kind_display()}"


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


def _runs_page(request, page: str, tables):
    """Render one of these pages: `tables(done, human, reading)` gives its own context."""
    release = results_release(request)
    runs_page = None
    if release is not None:
        runs_page = baseline_runs_page(release=release, **page_cursors(request.GET))
    runs = runs_page.rows if runs_page else []
    done = [r for r in runs if r.status == BaselineRun.Status.SUCCEEDED]
    reading, human = human_figures()
    context = {"page": runs_page, "runs": runs, "done": done, "human": human}
    context.update(tables(done, human, reading))
    status = runs_page.status if runs_page is not None else 200
    return results_render(request, page, release, context, status=status)


def _runs_view(page: str, tables):
    """The view of one of these pages (admins, GET), named `page` in the URL conf."""

    @admin_only
    @require_GET
    def view(request):
        return _runs_page(request, page, tables)

    view.__doc__ = tables.__doc__
    return view


def _scores_tables(done, human, reading) -> dict:
    """Each baseline run of the page beside the human performance (the stored figure)."""
    return {"human_reading": reading, "charts": _charts(done, human)}


def _unanswerable_tables(done, human, reading) -> dict:
    """The finished runs scored the SQuAD v2.0 way: HasAns/NoAns and the no-answer class."""
    return {"no_answer_rows": _no_answer_rows(done)}


def _types_tables(done, human, reading) -> dict:
    """F1 per question type and per answer type of the page's finished runs."""
    return {
        "question_rows": _breakdown_rows(done, "question_type", dict(QuestionType.choices)),
        "answer_rows": _breakdown_rows(done, "answer_type", ANSWER_TYPE_LABELS),
    }


def _curves_tables(done, human, reading) -> dict:
    """The finished learning curves among the page's runs, each with its estimate."""
    return {"learning_curves": learning_curve_panels(done, ANSWER_TYPE_LABELS)}


results_scores_page = _runs_view("results-scores", _scores_tables)
results_unanswerable_page = _runs_view("results-unanswerable", _unanswerable_tables)
results_types_page = _runs_view("results-types", _types_tables)
results_curves_page = _runs_view("results-curves", _curves_tables)
