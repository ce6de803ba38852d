"""A release's scoring (docs/release-scoring.md): the extension point where the app that
scores releases (evaluation) plugs its part in.

Exports stores the `score_with` list it is handed and announces "built"
(`exports.events.release_built`); what the list may hold, the check of it and the fields of
the form's "Score with" fieldset belong to the app that registered a `ReleaseScoring`
(`core.extensions`, in its `AppConfig.ready`). The pages show that app's parts through
their places (`core.fragments`): `exports.release.score-with`, `exports.release.scoring`,
`exports.release-form.score-with` and `exports.schedule-form.score-with`. With none
registered, a release scores nothing: its form has no such fields, and a list is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.extensions import extension

POINT = "exports.release_scoring"


@dataclass(frozen=True)
class ReleaseScoring:
    # check(score_with, *, splits) -> the clean list, or a ServiceError naming each bad part
    # (`score_with`, `score_with[1].model`…); `splits` are the release's checked splits, None
    # when they were refused.
    check: Callable[..., list[dict]]
    # fields() -> {name: form field}: the fieldset's fields, added to the release form.
    fields: Callable[[], dict]
    # score_with(cleaned) -> (the list, the form field of each entry) from the fields' values.
    score_with: Callable[[dict], tuple[list[dict], list[str]]]
    # initial(score_with) -> the fields' initial values showing a stored list.
    initial: Callable[[list], dict]
    # add_error(form, entry_field, part, message): show a refusal of one entry's `part`.
    add_error: Callable


def release_scoring() -> ReleaseScoring | None:
    """The registered scoring, or None when no app scores releases."""
    return extension(POINT)


def score_with_clean(score_with, *, splits) -> list[dict]:
    """Return the checked `score_with` list ([] for none), or raise a ServiceError."""
    if score_with is None or score_with == []:
        return []
    scoring = release_scoring()
    if scoring is None:  # nothing above exports can score: refuse rather than forget the list
        raise ServiceError({"score_with": [_("Scoring is not available on this platform.")]})
    return scoring.check(score_with, splits=splits)
