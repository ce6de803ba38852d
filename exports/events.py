"""Signals the exports app sends for the floors above it (evaluation's scoring on release).

A lower floor may not import a higher one (`tests/test_architecture.py`): exports asks, or says
what happened, and the receivers connected in evaluation's `ready` do their part — in the same
transaction when there is one. docs/release-scoring.md tells the whole story.
"""

from django.dispatch import Signal
from django.utils.translation import gettext as _

from core.errors import ServiceError

# Sent by `exports.services.releases.release_create` to check a release's `score_with` list before
# the
# release is recorded: `score_with` (as given) and `splits` (the release's checked splits, or
# None when they were refused). The receiver returns the cleaned list, or raises a
# ServiceError naming the field (`score_with`, `score_with[1].model`…).
score_with_check = Signal()

# Sent by `exports.services.releases` inside the transaction that marks a release done (`_build`),
# and
# again when a build task is delivered once more for a release already done
# (`release_scoring_send`): `release`. The receiver records the release's scoring runs (one
# per `score_with` entry, idempotent) and sends those that never started, on commit.
release_built = Signal()


def score_with_clean(score_with, *, splits) -> list[dict]:
    """Return the checked `score_with` list ([] for none), or raise a ServiceError."""
    if score_with is None or score_with == []:
        return []
    answers = score_with_check.send(sender=None, score_with=score_with, splits=splits)
    if not answers:  # nothing above exports can score: refuse rather than forget the list
        raise ServiceError({"score_with": [_("Scoring is not available on this platform.")]})
    return answers[-1][1]
