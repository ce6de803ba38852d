"""Reads of baseline runs and submissions for the pages, bounded whatever their number.

A release's baseline runs are read a page at a time by keyset (`core.pagination`), newest
first, through the index `evaluation_run_by_release`. A leaderboard shows a ranking: its best
`LEADERBOARD_TOP` submissions, read in the ranking's order from the index
`evaluation_submission_board` (one index walk of `LEADERBOARD_TOP + 1` entries, whatever the
number of submissions), and the release's newest `LEADERBOARD_RUNS` succeeded baseline runs.
"""

from __future__ import annotations

from core.pagination import KeysetPage, keyset_page
from evaluation.models import BaselineRun, Submission
from exports.models import Release

RUNS_PAGE = 20
RUN_ORDER = ("-created_at", "-pk")
LEADERBOARD_TOP = 100
LEADERBOARD_RUNS = 20
SUBMISSION_ORDER = ("-f1", "-exact_match", "created_at", "pk")


def baseline_runs_page(*, release: Release, after: str = "", before: str = "") -> KeysetPage:
    """Return a page of the release's baseline runs, newest first (a refused cursor: the
    first page, with `errors` naming the parameter)."""
    runs = BaselineRun.objects.filter(release=release)
    return keyset_page(runs, order=RUN_ORDER, size=RUNS_PAGE, after=after, before=before)


def best_submissions(*, release: Release, split: str, top: int) -> list:
    """Return the split's best `top + 1` submissions, best first (one more than shown: the
    caller knows whether there are others)."""
    submissions = Submission.objects.filter(release=release, split=split)
    return list(submissions.select_related("submitted_by").order_by(*SUBMISSION_ORDER)[: top + 1])


def leaderboard_runs(*, release: Release) -> list:
    """Return the release's newest `LEADERBOARD_RUNS` succeeded baseline runs."""
    runs = BaselineRun.objects.filter(release=release, status=BaselineRun.Status.SUCCEEDED)
    return list(runs.select_related("created_by").order_by(*RUN_ORDER)[:LEADERBOARD_RUNS])
