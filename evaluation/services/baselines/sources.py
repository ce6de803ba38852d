"""Training sources: releases' train splits and imported SQuAD-format files."""

from __future__ import annotations

import hashlib
import io
import re
import uuid
from pathlib import Path

from django.core.files import File
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.inputs import check_text, object_by_id, too_deep_message
from evaluation.models import BaselineRun, TrainingFile
from evaluation.release_data import (
    squad_problem_skip,
    squad_training_examples,
)
from exports.formats.squad import SquadFormatError, SquadTooDeep, read_squad
from exports.models import Release
from exports.services.releases import release_storage

MAX_TRAINING_FILE_BYTES = 500 * 1024 * 1024  # SQuAD v1.1's train is 30 MB, v2.0's 40 MB
MAX_SKIPPED_NAMED = 1000  # a file's skipped questions named on its row (all are counted)
MAX_SOURCES = 10
LANGUAGE = re.compile(r"[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?")


def training_files_readable(user, *, as_user: bool = True):
    """Return the training files `user` may train on: their own and the shared ones (every
    file for the command line: no user, `as_user=False`)."""
    files = TrainingFile.objects.all()
    if user is None and not as_user:
        return files
    if user is None:
        return files.none()
    return files.filter(Q(created_by=user) | Q(shared=True))


def _id_list(values, field: str) -> list[int]:
    if values is None:
        return []
    if not isinstance(values, list | tuple) or len(values) > MAX_SOURCES:
        raise ServiceError({field: [_("A list of at most %(n)d ids.") % {"n": MAX_SOURCES}]})
    ids = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
            raise ServiceError({field: [_("An id is a whole number.")]})
        if value in ids:
            raise ServiceError({field: [_("Source %(id)d is given twice.") % {"id": value}]})
        ids.append(value)
    return ids


def _train_count(release: Release) -> int:
    """Return how many questions the release's train split holds (its file's counts)."""
    for name in ("hf-train.jsonl", "squad-train.json"):
        found = release.files.filter(name=name, internal=False).first()
        if found is not None:
            return int(found.counts.get("questions", 0))
    return 0


def _check_sources(*, kind, release, train_releases, train_files, user, as_user) -> list[dict]:
    """Return the run's training sources, checked, in the order given (releases first)."""
    release_ids = _id_list(train_releases, "train_releases")
    file_ids = _id_list(train_files, "train_files")
    if not release_ids and not file_ids:
        return []
    field = "train_releases" if release_ids else "train_files"
    if kind != BaselineRun.Kind.FINETUNE:
        raise ServiceError(
            {field: [_("Only a fine-tuning run trains: the other kinds take no training source.")]}
        )
    if len(release_ids) + len(file_ids) > MAX_SOURCES:
        raise ServiceError({field: [_("At most %(n)d sources.") % {"n": MAX_SOURCES}]})
    return _release_sources(release_ids) + _file_sources(release, file_ids, user, as_user)


def _release_sources(release_ids: list[int]) -> list[dict]:
    """Return the releases as sources: each finished, with questions in its train split."""
    sources = []
    found = {r.pk: r for r in Release.objects.filter(pk__in=release_ids)}
    for pk in release_ids:
        source = found.get(pk)
        if source is None:
            raise ServiceError({"train_releases": [_("No release %(id)d.") % {"id": pk}]})
        name = f"{source.name} {source.version}"
        if source.status != Release.Status.SUCCEEDED:
            raise ServiceError(
                {"train_releases": [_("The release %(name)s is not finished.") % {"name": name}]}
            )
        if "train" not in source.options.get("splits", []) or _train_count(source) == 0:
            raise ServiceError(
                {
                    "train_releases": [
                        _(
                            "The release %(name)s has no question in a train split: nothing to "
                            "train on."
                        )
                        % {"name": name}
                    ]
                }
            )
        sources.append({"type": "release", "id": pk, "label": f"{name} · train"})
    return sources


def _file_sources(release: Release, file_ids: list[int], user, as_user: bool) -> list[dict]:
    """Return the training files as sources: each readable by the user, with questions the
    release can train on (answered ones only for a v1.1 release)."""
    sources = []
    readable = {
        f.pk: f for f in training_files_readable(user, as_user=as_user).filter(pk__in=file_ids)
    }
    for pk in file_ids:
        source = readable.get(pk)
        if source is None:  # unknown, or another admin's private file: the same answer
            raise ServiceError(
                {"train_files": [_("No training file %(id)d that you may read.") % {"id": pk}]}
            )
        usable = source.counts.get("questions", 0)
        if release.squad_version != "2.0":
            usable = source.counts.get("answerable", 0)
        if usable == 0:
            raise ServiceError(
                {
                    "train_files": [
                        _("The file %(name)s has no question this release can train on.")
                        % {"name": source.name}
                    ]
                }
            )
        sources.append(
            {
                "type": "file",
                "id": pk,
                "label": source.name,
                "translated": source.translated,
            }
        )
    return sources


def _mode(release: Release, sources: list[dict]) -> str:
    """Name the experiment: a union of several sources is augmented; one source is this
    release (in-domain), a translated file (translate-train) or anything else (zero-shot)."""
    if len(sources) > 1:
        return BaselineRun.Mode.AUGMENTED
    (source,) = sources
    if source["type"] == "release" and source["id"] == release.pk:
        return BaselineRun.Mode.IN_DOMAIN
    if source["type"] == "file" and source.get("translated"):
        return BaselineRun.Mode.TRANSLATE_TRAIN
    return BaselineRun.Mode.ZERO_SHOT


def training_file_import(
    *,
    file,
    name: str = "",
    language: str = "",
    translated: bool = False,
    shared: bool = False,
    created_by=None,
) -> TrainingFile:
    """Check a SQuAD-format JSON file (v1.1 or v2.0) and store it to train baselines on.

    The file is read whole once: a document that is not SQuAD, or that holds no question to
    train on, is refused naming `file`; malformed entries and answers that are not the
    context's text at their offset are skipped, counted, and named on the row (`skipped`:
    the first MAX_SKIPPED_NAMED, each {"id", "reason", "detail"}). The bytes are stored as
    given, in the releases storage, under `training-files/`.
    """
    name = _check_file_fields(file, name, language, translated, shared)
    data = _read_limited(file)
    counts, skipped = _squad_counts(data)
    storage = release_storage()
    stored = storage.save(f"training-files/{uuid.uuid4().hex}.json", File(io.BytesIO(data)))
    try:
        with transaction.atomic():
            return TrainingFile.objects.create(
                name=name,
                language=language,
                translated=translated,
                shared=shared,
                storage_name=stored,
                bytes=len(data),
                sha256=hashlib.sha256(data).hexdigest(),
                squad_version="2.0" if counts["unanswerable"] else "1.1",
                counts=counts,
                skipped=skipped[:MAX_SKIPPED_NAMED],
                created_by=created_by,
            )
    except BaseException:
        storage.delete(stored)
        raise


def _check_file_fields(file, name, language, translated, shared) -> str:
    """Return the file's name (the upload's own when none is given); refuse a bad field."""
    name = check_text(name if isinstance(name, str) else "", "name").strip()
    if not name:
        name = Path(str(getattr(file, "name", "") or "")).name
    if not name or len(name) > 200:
        raise ServiceError({"name": [_("Name the file: at most 200 characters.")]})
    language = language if isinstance(language, str) else None
    if language is None or (language and not LANGUAGE.fullmatch(language)):
        raise ServiceError({"language": [_("A language code such as fr, en or pt-BR.")]})
    for field, value in (("translated", translated), ("shared", shared)):
        if not isinstance(value, bool):
            raise ServiceError({field: [_("True or false.")]})
    return name


def _read_limited(file) -> bytes:
    """Return the upload's bytes, refused naming `file` over MAX_TRAINING_FILE_BYTES."""
    size = getattr(file, "size", None)
    if size is not None and size > MAX_TRAINING_FILE_BYTES:
        raise ServiceError(
            {"file": [_("At most %(n)d MB.") % {"n": MAX_TRAINING_FILE_BYTES // 2**20}]}
        )
    data = file.read(MAX_TRAINING_FILE_BYTES + 1)
    if len(data) > MAX_TRAINING_FILE_BYTES:
        raise ServiceError(
            {"file": [_("At most %(n)d MB.") % {"n": MAX_TRAINING_FILE_BYTES // 2**20}]}
        )
    return data


def _squad_counts(data: bytes) -> tuple[dict, list[dict]]:
    """Return the file's counts and its skipped entries; refuse what is not SQuAD or holds
    no question to train on, naming `file`."""
    problems = []
    try:
        articles = list(read_squad(io.BytesIO(data), on_problem=problems.append))
    except SquadTooDeep:
        raise ServiceError({"file": [too_deep_message()]}) from None
    except SquadFormatError:
        raise ServiceError(
            {"file": [_("Not a SQuAD-format JSON file (an object with a “data” list).")]}
        ) from None
    examples, misaligned = squad_training_examples(articles)
    skipped = [squad_problem_skip(problem) for problem in problems] + misaligned
    answerable = sum(bool(e["answers"]["text"]) for e in examples)
    counts = {
        "articles": len(articles),
        "paragraphs": sum(len(a.paragraphs) for a in articles),
        "questions": len(examples),
        "answerable": answerable,
        "unanswerable": len(examples) - answerable,
        "skipped": len(skipped),
    }
    if not examples:
        raise ServiceError({"file": [_("The file holds no question to train on.")]})
    return counts, skipped


def _training_file_managed(*, file_id, user) -> TrainingFile:
    """Return the training file `user` may unshare or delete, locked: their own, or a shared
    one (a shared file is every admin's: its uploader may have left). Another admin's private
    file answers 404, the same as a file that does not exist, naming `training_file`."""
    return object_by_id(
        training_files_readable(user).select_for_update(),
        file_id,
        field="training_file",
        missing=_("No training file that you may read."),
    )


def training_file_unshare(*, file_id, user) -> TrainingFile:
    """Make a training file private to its uploader again: the other admins can no longer
    see it or start runs on it; runs already recorded keep it as a source."""
    with transaction.atomic():
        found = _training_file_managed(file_id=file_id, user=user)
        TrainingFile.objects.filter(pk=found.pk).update(shared=False)
        found.shared = False
    return found


def training_file_delete(*, file_id, user) -> TrainingFile:
    """Delete a training file and, once the deletion is committed, its stored bytes; return
    the deleted row (its name, for the message).

    Runs that trained on it keep their `train_sources` (its name, as a label); a run that has
    not ended yet and trains on it refuses the deletion (409, naming `training_file`): it
    would fail for want of its source.
    """
    with transaction.atomic():
        found = _training_file_managed(file_id=file_id, user=user)
        waiting = BaselineRun.objects.exclude(status__in=BaselineRun.FINISHED).values_list(
            "pk", "train_sources"
        )
        for run_pk, sources in waiting:
            if any(s.get("type") == "file" and s.get("id") == found.pk for s in sources or []):
                message = _("Run #%(run)d trains on this file and has not ended: delete it after.")
                raise ServiceError({"training_file": [message % {"run": run_pk}]}, status=409)
        stored = found.storage_name
        found.delete()
        if stored:
            transaction.on_commit(lambda: release_storage().delete(stored))
    return found
