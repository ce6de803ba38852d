"""Compare two finished releases question by question: added, removed, changed.

Each release is read from its HF JSONL files (one line per question, every split that holds
one; a split without a question has no file), so the
comparison needs both releases to hold that format. A question is identified by its id; it
changed when its question text, context or answers differ.

At 10× FQuAD two releases hold 1.6 million lines: reading them takes a minute, so the page
reads the comparison as a stored figure (`core.figures`, registered by `ExportsConfig.ready`):
compared during the request while both releases' HF files are small (`SMALL_BYTES` together),
else by a job on the export queue (where the files are) whose result is kept. A finished
release never changes, so the result never goes stale (`max_age` None); the fingerprint is
the digests of the files compared all the same. A file missing from the storage is named in
the refusal (`ServiceError`, 409), never a server error.
"""

from __future__ import annotations

import hashlib
import json

from django.db.models import Sum
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.figures import Figure
from exports.models import Release, ReleaseFile
from exports.services.releases import release_file_open, release_storage

LISTED = 200  # ids listed per kind of change; the counts are always complete
DIFF_FIGURE = "exports.release_diff"
# Both releases' HF files together, compared during the request: about 0.1 s (12 ms a MB).
SMALL_BYTES = 8 * 1024 * 1024


def _hf_files(release: Release):
    return release.files.filter(name__startswith="hf-").order_by("name")


def _fingerprints(release: Release) -> dict[str, tuple[str, bytes]]:
    """Return {question id: (split, digest of its content)} from the release's HF files."""
    files = list(_hf_files(release))
    if not files and not _all_empty(release):
        raise ServiceError(
            {"release": [_("%(name)s has no HF JSONL file to compare.") % {"name": release.name}]},
            status=409,
        )
    found = {}
    for item in files:
        split = item.name.removeprefix("hf-").removesuffix(".jsonl")
        try:
            handle = release_file_open(item)
        except ServiceError:
            raise _missing(release, [item.name]) from None
        with handle:
            for line in handle:
                row = json.loads(line)
                content = json.dumps(
                    [row["question"], row["context"], row["answers"]], ensure_ascii=False
                )
                found[row["id"]] = (split, hashlib.sha256(content.encode()).digest())
    return found


def _all_empty(release: Release) -> bool:
    """Whether the release was built with HF files and no question in any split: a split
    without a question has no data file (exports.build), and none has one then."""
    options = release.options
    empty = release.manifest.get("splits_without_questions", [])
    return "hf" in options.get("formats", []) and all(s in empty for s in options["splits"])


def _missing(release: Release, names: list[str]) -> ServiceError:
    message = _(
        "%(files)s of %(name)s is missing from the storage, so the releases cannot be "
        "compared; ask an admin to restore it."
    )
    return ServiceError(
        {"release": [message % {"files": ", ".join(names), "name": release.name}]}, status=409
    )


def release_diff_check(*, old: Release, new: Release) -> None:
    """Refuse (409) a release that is not finished."""
    for release in (old, new):
        if release.status != Release.Status.SUCCEEDED:
            raise ServiceError(
                {"release": [_("%(name)s is not finished.") % {"name": release.name}]}, status=409
            )


def _compare(old: Release, new: Release) -> dict:
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


def release_diff(*, old: Release, new: Release) -> dict:
    """Return the questions added, removed and changed from `old` to `new`, compared now."""
    release_diff_check(old=old, new=new)
    return _compare(old, new)


def release_files_missing(*, old: Release, new: Release) -> ServiceError | None:
    """Return the refusal naming the first release's HF files missing from the storage, or
    None: asked only while no comparison is stored (one storage look-up per file)."""
    storage = release_storage()
    for release in (old, new):
        names = [item.name for item in _hf_files(release) if not storage.exists(item.storage_name)]
        if names:
            return _missing(release, names)
    return None


# The stored figure: parameters {"old": pk, "new": pk}.


def diff_params(*, old: Release, new: Release) -> dict:
    return {"old": old.pk, "new": new.pk}


def _diff_value(*, old: int, new: int) -> dict:
    releases = Release.objects.in_bulk([old, new])
    return release_diff(old=releases[old], new=releases[new])


def _diff_fingerprint(*, old: int, new: int) -> str:
    """The digests of both releases' HF files (one read): they never change once written."""
    files = ReleaseFile.objects.filter(release_id__in=[old, new], name__startswith="hf-")
    digests = dict.fromkeys([old, new], "")
    for release_id, name, sha256 in files.order_by("name").values_list(
        "release_id", "name", "sha256"
    ):
        digests[release_id] += f"{name}={sha256[:16]};"
    return f"{digests[old]}|{digests[new]}"


def _diff_small(*, old: int, new: int) -> bool:
    files = ReleaseFile.objects.filter(release_id__in=[old, new], name__startswith="hf-")
    return (files.aggregate(total=Sum("bytes"))["total"] or 0) <= SMALL_BYTES


def diff_figure() -> Figure:
    """The figure registered by the app (`ExportsConfig.ready`)."""
    return Figure(
        DIFF_FIGURE, _diff_value, _diff_fingerprint, _diff_small, queue="export", max_age=None
    )
