"""Reads of releases for the pages: the list a page at a time, the finished ones to choose from.

Releases are a list that grows (a build a week for years, each kept): the list page reads them
a page at a time by keyset (`core.pagination`), newest first, through the index
`exports_release_listed`; the choosers (compare two releases, the results and the leaderboard)
offer the newest `RELEASE_CHOICES` finished ones (`exports_release_finished`), plus the one
the page shows when it is older.
"""

from __future__ import annotations

from core.pagination import KeysetPage, keyset_page
from exports.models import Release

RELEASES_PAGE = 50
RELEASE_ORDER = ("-created_at", "-pk")  # total: pk last; the index exports_release_listed
RELEASE_CHOICES = 50


def release_list_page(*, after: str = "", before: str = "") -> KeysetPage:
    """Return a page of releases, newest first (a refused cursor: the first page, with
    `errors` naming the parameter)."""
    releases = Release.objects.select_related("created_by")
    return keyset_page(
        releases, order=RELEASE_ORDER, size=RELEASES_PAGE, after=after, before=before
    )


def finished_releases():
    """Return the finished releases, newest first (a queryset: slice it)."""
    return Release.objects.filter(status=Release.Status.SUCCEEDED).order_by(*RELEASE_ORDER)


def release_choices(*, shown: Release | None = None, limit: int = RELEASE_CHOICES) -> list:
    """Return the newest `limit` finished releases, and `shown` after them when it is older:
    what a page's release chooser offers."""
    choices = list(finished_releases()[:limit])
    if shown is not None and all(release.pk != shown.pk for release in choices):
        choices.append(shown)
    return choices
