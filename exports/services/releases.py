"""Use cases of releases: create one, build it as a job, resume it, read its files, diff two.

A build writes every file to a temporary folder, copies them to the releases storage, then
records the files and marks the release done in one transaction. A worker killed at any point
leaves a release that is not done and has no file rows; running the job again first deletes
whatever the killed attempt left in storage, then builds again. A done release never changes.
"""

from __future__ import annotations

import json
import logging
import re
import tempfile
from datetime import timedelta
from pathlib import Path

from django.core.files import File
from django.core.files.storage import storages
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from core.errors import ServiceError
from core.i18n import Text
from core.inputs import check_text
from core.services.jobs import job_enqueue, job_reopen, job_run, job_succeed
from exports.build import build_release_files
from exports.events import release_built
from exports.models import Release, ReleaseFile
from exports.options import check_options
from exports.scoring import score_with_clean

logger = logging.getLogger(__name__)

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+_-]{0,31}")
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
STALE_AFTER = timedelta(minutes=15)
BUILD_TASK = "exports.tasks.release_build_task"


def release_storage():
    return storages["releases"]


def _check_identity(name, version, description) -> dict:
    errors = {}
    if not isinstance(name, str) or not NAME.fullmatch(name):
        errors["name"] = [_("Letters, digits, “.”, “_” and “-”, at most 100, like fquad-1.1.")]
    if not isinstance(version, str) or not VERSION.fullmatch(version):
        errors["version"] = [_("Letters, digits, “.”, “+”, “_” and “-”, at most 32, like 1.1.")]
    if not isinstance(description, str) or len(description) > 5000:
        errors["description"] = [_("At most 5,000 characters of text.")]
    return errors


def release_create(
    *,
    created_by,
    name,
    version,
    description: str = "",
    score_with=None,
    schedule=None,
    data_fingerprint: str = "",
    **options,
) -> Release:
    """Record a release and send its build to the export queue (after the commit).

    `score_with` lists the baselines to run once it is built (docs/release-scoring.md); the
    app that scores releases checks it (`exports.scoring`: evaluation registers the check)."""
    checked, scoring = _checked_release(name, version, description, score_with, options)
    try:
        with transaction.atomic():
            release = Release.objects.create(
                name=name,
                version=version,
                description=description.strip(),
                created_by=created_by,
                options=checked.as_dict(),
                score_with=scoring,
                schedule=schedule,  # a scheduled snapshot (exports.services.schedules)
                data_fingerprint=data_fingerprint,
            )
            job_enqueue(job=release, task=BUILD_TASK, queue="export")
    except IntegrityError:
        raise ServiceError({"name": [_("Another release has this name.")]}) from None
    return release


def _checked_release(name, version, description: str, score_with, options: dict):
    """Return the release's checked options and scoring, or raise a ServiceError naming every
    bad field at once (the description's text checked last)."""
    errors = _check_identity(name, version, description)
    checked = scoring = None
    try:
        checked = check_options(options)
    except ServiceError as error:
        errors |= error.errors
    try:
        scoring = score_with_clean(score_with, splits=checked.splits if checked else None)
    except ServiceError as error:
        errors |= error.errors
    if errors:
        raise ServiceError(errors)
    check_text(description, "description")
    return checked, scoring


def _clear_leftovers(storage, release: Release) -> None:
    """Delete what an earlier, killed attempt wrote for this release."""
    ReleaseFile.objects.filter(release=release).delete()  # none unless the row was edited by hand
    try:
        _dirs, names = storage.listdir(release.storage_prefix)
    except FileNotFoundError:
        return
    for name in names:
        storage.delete(f"{release.storage_prefix}/{name}")


def _store(storage, release: Release, built) -> list[ReleaseFile]:
    rows = []
    for item in built:
        wanted = f"{release.storage_prefix}/{item.name}"
        with item.path.open("rb") as handle:
            stored = storage.save(wanted, File(handle, name=item.name))
        if stored != wanted:  # the storage renamed it: something else wrote there meanwhile
            raise RuntimeError(f"the releases storage kept {wanted} as {stored}")
        rows.append(
            ReleaseFile(
                release=release,
                name=item.name,
                storage_name=stored,
                bytes=item.bytes,
                sha256=item.sha256,
                counts=item.counts,
                media_type=item.media_type,
                internal=item.internal,
            )
        )
    return rows


def _build(release: Release, report=None) -> Text:
    """Write the release's files, store them, and record them with "done" in one transaction."""
    storage = release_storage()
    _clear_leftovers(storage, release)
    options = check_options(release.options)
    with tempfile.TemporaryDirectory(prefix="release-") as folder:
        built = build_release_files(
            options=options,
            name=release.name,
            version=release.version,
            directory=Path(folder),
            report=report,
            with_gold=True,
        )
        rows = _store(storage, release, built.files)
    shown = sum(not row.internal for row in rows)  # the gold files stay on the server
    message = Text.counted(
        gettext_noop("%(n)d file written."), gettext_noop("%(n)d files written."), "n", {"n": shown}
    )
    with transaction.atomic():
        ReleaseFile.objects.bulk_create(rows)
        Release.objects.filter(pk=release.pk).update(manifest=built.manifest)
        # Raises Superseded, rolling the rows back, if a resumed attempt took over meanwhile
        # (this one looked abandoned): the other attempt owns the files.
        job_succeed(release, message)
        if release.score_with:  # its scoring runs commit with "done" (evaluation's receiver)
            release_built.send(sender=Release, release=release)
    return message


def release_build(*, release: Release) -> None:
    """Build the release's files as its job; a redelivered task for a done release does nothing."""
    job_run(release, _build)


def release_scoring_send(*, release: Release) -> None:
    """A build task delivered again for a release already done (its worker died after the
    commit, before the broker heard of it): send the scoring runs that never started."""
    if release.status != Release.Status.SUCCEEDED or not release.score_with:
        return
    with transaction.atomic():
        release_built.send(sender=Release, release=release)


def release_can_resume(release: Release) -> bool:
    """A release can be built again when it failed, or when its worker died (silent for long)."""
    return release.status == Release.Status.FAILED or release.is_stale(silent_for=STALE_AFTER)


def release_resume(*, release: Release) -> Release:
    """Send the build of a failed or abandoned release again (the state is checked in SQL)."""
    with transaction.atomic():
        if not job_reopen(release, silent_for=STALE_AFTER, progress=0):
            raise ServiceError(
                {
                    "release": [
                        _(
                            "Only a failed release, or one silent for 15 minutes, can be "
                            "started again; this one is %(status)s."
                        )
                        % {"status": release.get_status_display()}
                    ]
                },
                status=409,
            )
        job_enqueue(job=release, task=BUILD_TASK, queue="export")
    return release


def release_file_get(*, release: Release, name: str) -> ReleaseFile:
    """Return a file of a finished release by its name (only names the release recorded)."""
    if not release.is_finished or release.status != Release.Status.SUCCEEDED:
        raise ServiceError({"release": [_("This release is not finished.")]}, status=409)
    if not isinstance(name, str) or not FILE_NAME.fullmatch(name):
        raise ServiceError({"name": [_("This release has no such file.")]}, status=404)
    found = ReleaseFile.objects.filter(release=release, name=name, internal=False).first()
    if found is None:
        raise ServiceError({"name": [_("This release has no such file.")]}, status=404)
    return found


def release_file_open(release_file: ReleaseFile):
    """Open a release file for reading, from the releases storage."""
    try:
        return release_storage().open(release_file.storage_name, "rb")
    except FileNotFoundError:
        if release_pruned(release_file.release_id) and not release_file.internal:
            raise ServiceError({"name": [pruned_message()]}, status=410) from None
        logger.error("release file %s is missing from storage", release_file.storage_name)
        raise ServiceError(
            {"name": [_("This file is missing from the storage; ask an admin to check it.")]},
            status=409,
        ) from None


def release_pruned(release_pk: int) -> bool:
    """Tell whether a schedule's retention removed the release's files
    (exports.services.schedules)."""
    return Release.objects.filter(pk=release_pk, files_pruned_at__isnull=False).exists()


def pruned_message() -> str:
    return _(
        "Pruned: the files of this snapshot were removed by its schedule's retention; its "
        "figures and scores stay."
    )


def release_gold(*, release: Release, split: str) -> dict[str, list[str]]:
    """Return {question id: [answers]} of a finished release's split, for scoring."""
    item = ReleaseFile.objects.filter(
        release=release, name=f"gold-{split}.json", internal=True
    ).first()
    if release.status != Release.Status.SUCCEEDED or item is None:
        raise ServiceError(
            {
                "split": [
                    _("This release has no answers for the split “%(split)s”.") % {"split": split}
                ]
            },
            status=409,
        )
    with release_file_open(item) as handle:
        return json.load(handle)
