"""Compare two finished releases question by question: added, removed, changed.

Each release is read from its HF JSONL files (one line per question, every split), so the
comparison needs both releases to hold that format. A question is identified by its id; it
changed when its question text, context or answers differ.
"""

from __future__ import annotations

import hashlib
import json

from django.utils.translation import gettext as _

from core.errors import ServiceError
from exports.models import Release
from exports.services import release_file_open

LISTED = 200  # ids listed per kind of change; the counts are always complete


def _fingerprints(release: Release) -> dict[str, tuple[str, str]]:
    """Return {question id: (split, digest of its content)} from the release's HF files."""
    files = release.files.filter(name__startswith="hf-").order_by("name")
    if not files:
        raise ServiceError(
            {"release": [_("%(name)s has no HF JSONL file to compare.") % {"name": release.name}]},
            status=409,
        )
    found = {}
    for item in files:
        split = item.name.removeprefix("hf-").removesuffix(".jsonl")
        with release_file_open(item) as handle:
            for line in handle:
                row = json.loads(line)
                content = json.dumps(
                    [row["question"], row["context"], row["answers"]], ensure_ascii=False
                )
                found[row["id"]] = (split, hashlib.sha256(content.encode()).hexdigest())
    return found


def release_diff(*, old: Release, new: Release) -> dict:
    """Return the questions added, removed and changed from `old` to `new`."""
    for release in (old, new):
        if release.status != Release.Status.SUCCEEDED:
            raise ServiceError(
                {"release": [_("%(name)s is not finished.") % {"name": release.name}]}, status=409
            )
    before, after = _fingerprints(old), _fingerprints(new)
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    return {
        "old": old.name,
        "new": new.name,
        "counts": {"added": len(added), "removed": len(removed), "changed": len(changed)},
        "added": added[:LISTED],
        "removed": removed[:LISTED],
        "changed": changed[:LISTED],
    }
