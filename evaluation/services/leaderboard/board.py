"""The leaderboard of a split: submissions, baseline runs and humans, ranked."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from evaluation.metrics import canonical_name
from evaluation.models import BaselineRun, Submission
from evaluation.selectors.runs import LEADERBOARD_TOP, best_submissions, leaderboard_runs
from evaluation.services.leaderboard.submissions import check_split
from exports.models import Release


def v2_figures(metrics: dict | None) -> dict | None:
    """Return a row's SQuAD v2.0 figures (HasAns/NoAns, no-answer F1) from stored metrics,
    a submission's or a baseline run's split; None when they have none (a v1.1 score)."""
    if not metrics or "HasAns_total" not in metrics and "NoAns_total" not in metrics:
        return None
    no_answer = metrics.get("no_answer") or {}
    return {
        "HasAns_exact": metrics.get("HasAns_exact"),
        "HasAns_f1": metrics.get("HasAns_f1"),
        "HasAns_total": metrics.get("HasAns_total", 0),
        "NoAns_exact": metrics.get("NoAns_exact"),
        "NoAns_f1": metrics.get("NoAns_f1"),
        "NoAns_total": metrics.get("NoAns_total", 0),
        "no_answer_f1": no_answer.get("f1"),
        "best_f1": metrics.get("best_f1"),
        "best_f1_thresh": metrics.get("best_f1_thresh"),
    }


def _submission_row(submission: Submission) -> dict:
    return {
        "kind": "submission",
        "id": submission.pk,
        "label": submission.label,
        "submitted_by": submission.submitted_by.username,
        "exact_match": submission.exact_match,
        "f1": submission.f1,
        "total": submission.total,
        "created_at": submission.created_at,
        "normalization": {
            "name": canonical_name(submission.normalization),  # "word" (before issue 27): chars
            "version": submission.normalization_version,
        },
        "v2": v2_figures(submission.metrics),
        "note": "",
    }


def _baseline_row(run: BaselineRun, split: str) -> dict:
    figures = run.metrics[split]
    return {
        "kind": "baseline",
        "id": run.pk,
        "label": " · ".join(part for part in (run.get_kind_display(), run.model_name) if part),
        "submitted_by": run.created_by.username if run.created_by else None,
        "exact_match": figures.get("exact_match"),
        "f1": figures.get("f1"),
        "total": figures.get("total"),
        "created_at": run.finished_at or run.created_at,
        "normalization": {
            "name": canonical_name(run.normalization),
            "version": run.normalization_version,
        },
        "v2": v2_figures(figures),
        "note": "",
    }


def _human_row(report: dict | None, split: str, squad_version: str = "1.1") -> dict | None:
    if report is None:
        return None
    if squad_version == "2.0":
        return _human_row_v2(report, split)
    figures = report["splits"].get(split)
    if figures is None or figures["questions"] == 0:
        return None
    scores = (figures["exact_match"], figures["f1"], figures["questions"])
    note = _(
        "Measured on the questions of this split now in the database (three answers each), "
        "not on the release's files."
    )
    return _human(scores, report["normalization"], None, note)


def _human(scores: tuple, normalization: dict, v2: dict | None, note: str) -> dict:
    """Return the human performance's row: `scores` is (EM, F1, questions)."""
    exact_match, f1, total = scores
    return {
        "kind": "human",
        "id": None,
        "label": _("Human performance"),
        "submitted_by": None,
        "exact_match": exact_match,
        "f1": f1,
        "total": total,
        "created_at": None,
        "normalization": normalization,
        "v2": v2,
        "note": note,
    }


def _human_row_v2(report: dict, split: str) -> dict | None:
    """SQuAD 2.0's human performance: answerable and unanswerable questions, three judgments."""
    figures = (report.get("v2") or {}).get(split)
    if figures is None or figures["total"] == 0:
        return None
    note = _(
        "Measured on the questions of this split now in the database (three judgments "
        "each, an empty answer for “no answer”), not on the release's files."
    )
    scores = (figures["exact"], figures["f1"], figures["total"])
    return _human(scores, report["normalization"], v2_figures(figures), note)


def _ranked(rows: list[dict]) -> list[dict]:
    """Give each submission its rank (equal figures, equal rank); other rows get none."""
    rank, previous, seen = 0, None, 0
    for row in rows:
        row["rank"] = None
        if row["kind"] != "submission":
            continue
        seen += 1
        figures = (row["f1"], row["exact_match"])
        if figures != previous:
            rank, previous = seen, figures
        row["rank"] = rank
    return rows


@dataclass
class Board:
    """A split's leaderboard: its rows, and whether submissions beyond the top are left out."""

    rows: list[dict]
    more: bool = False
    top: int = LEADERBOARD_TOP


def leaderboard_board(*, release: Release, split: str, human: dict | None) -> Board:
    """Return a split's leaderboard: humans first, then by F1, EM, then age.

    Rows are the best `LEADERBOARD_TOP` submissions (ranked: equal figures, equal rank; the
    ranks are exact, every better submission being among them), the release's newest
    succeeded baseline runs scored on the split, and FQuAD's human performance on the split
    from `human`, the report of every split (None while it is being computed): figures only,
    never an answer.
    """
    check_split(split)
    top = LEADERBOARD_TOP
    submissions = best_submissions(release=release, split=split, top=top)
    more = len(submissions) > top
    scored = [_submission_row(s) for s in submissions[:top]]
    runs = leaderboard_runs(release=release)
    scored += [_baseline_row(run, split) for run in runs if split in run.metrics]
    scored.sort(key=_order)
    row = _human_row(human, split, release.squad_version)
    return Board(rows=_ranked(([row] if row else []) + scored), more=more, top=top)


def leaderboard(*, release: Release, split: str, human: dict | None) -> list[dict]:
    """Return the rows of a split's leaderboard (`leaderboard_board`)."""
    return leaderboard_board(release=release, split=split, human=human).rows


def _order(row: dict):
    figures = (-(row["f1"] or 0.0), -(row["exact_match"] or 0.0))
    return (*figures, row["created_at"], row["kind"], row["id"])
