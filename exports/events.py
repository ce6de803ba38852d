"""Signals the exports app sends for the floors above it (evaluation's scoring on release).

A lower floor may not import a higher one (`tests/test_architecture.py`): exports says what
happened, and the receivers connected in evaluation's `ready` do their part, in the same
transaction when there is one. A signal only announces: what exports must ask of a higher
app (the check of a release's `score_with` list) goes through its extension point
(`exports.scoring`). docs/release-scoring.md tells the whole story.
"""

from django.dispatch import Signal

# Sent by `exports.services.releases` inside the transaction that marks a release done
# (`_build`), and again when a build task is delivered once more for a release already done
# (`release_scoring_send`): `release`. The receiver records the release's scoring runs (one
# per `score_with` entry, idempotent) and sends those that never started, on commit.
release_built = Signal()
