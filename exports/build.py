"""Write a release's files into a folder: the data files, the review history, the datasheet
and the manifest. The release job and the `export_release` command both call this.

Every file is written in one pass while its SHA-256 and size are computed; the same database
state and options give the same bytes (ordering in `exports.dataset`, deterministic writers).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.utils.translation import gettext as _

from annotation.models import Question
from core.errors import ServiceError
from corpus.models import Split
from exports.dataset import Selection, export_articles, selected_questions
from exports.datasheet import datasheet_markdown
from exports.formats import FORMATS

FORMAT_ORDER = ("squad", "hf", "mrqa")
FILE_NAMES = {
    "squad": "squad-{split}.json",
    "hf": "hf-{split}.jsonl",
    "mrqa": "mrqa-{split}.jsonl.gz",
}
HISTORY = "history.jsonl"
DATASHEET = "README.md"
MANIFEST = "manifest.json"

Report = Callable[[int, str], None]


@dataclass(frozen=True)
class ReleaseOptions:
    formats: list[str]
    splits: list[str]
    approved_only: bool = False
    include_test_answers: bool = False
    include_history: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


def check_options(data: dict) -> ReleaseOptions:
    """Return the release options, or raise a ServiceError naming each bad field."""
    errors: dict[str, list[str]] = {}
    formats, splits = data.get("formats"), data.get("splits", list(Split.values))
    if not isinstance(formats, list) or not formats or any(f not in FORMATS for f in formats):
        errors["formats"] = [_("Choose one or more of squad, hf, mrqa.")]
    if not isinstance(splits, list) or not splits or any(s not in Split.values for s in splits):
        errors["splits"] = [_("Choose one or more of train, dev, test.")]
    flags = ("approved_only", "include_test_answers", "include_history")
    for name in flags:
        if not isinstance(data.get(name, False), bool):
            errors[name] = [_("true or false.")]
    if errors:
        raise ServiceError(errors)
    return ReleaseOptions(
        formats=[f for f in FORMAT_ORDER if f in formats],
        splits=[s for s in Split.values if s in splits],
        **{name: data.get(name, False) for name in flags},
    )


@dataclass
class BuiltFile:
    name: str
    path: Path
    bytes: int
    sha256: str
    media_type: str
    counts: dict = field(default_factory=dict)
    internal: bool = False


class _Hashing:
    """A binary file wrapper that hashes and counts what goes through it."""

    def __init__(self, out):
        self.out, self.digest, self.size = out, hashlib.sha256(), 0

    def write(self, data) -> int:
        self.digest.update(data)
        self.size += len(data)
        return self.out.write(data)

    def flush(self) -> None:
        self.out.flush()


def _write(directory: Path, name: str, media_type: str, write) -> BuiltFile:
    path = directory / name
    with path.open("wb") as raw:
        sink = _Hashing(raw)
        counts = write(sink)
    counts = counts if isinstance(counts, dict) else {}
    return BuiltFile(name, path, sink.size, sink.digest.hexdigest(), media_type, counts)


def _answers_shown(options: ReleaseOptions, split: str) -> bool:
    return split != Split.TEST or options.include_test_answers


def _data_file(directory: Path, options: ReleaseOptions, name: str, split: str, fmt: str):
    with_answers = _answers_shown(options, split)
    kwargs = {"include_answers": with_answers}
    if fmt == "mrqa":
        kwargs |= {"dataset": name, "split": split}
    writer = FORMATS[fmt](**kwargs)
    selection = Selection(split=split, approved_only=options.approved_only)

    def write(sink):
        counts = writer.write(export_articles(selection, with_answers=with_answers), sink)
        return asdict(counts)

    return _write(directory, FILE_NAMES[fmt].format(split=split), writer.media_type, write)


def _history_lines(options: ReleaseOptions):
    """Yield one JSON line per released question: its versions and its reviews."""
    for split in options.splits:
        selection = Selection(split=split, approved_only=options.approved_only)
        ids = selected_questions(selection).values_list("pk", flat=True)
        questions = (
            Question.objects.filter(pk__in=ids)
            .order_by("pk")
            .prefetch_related("revisions__editor", "reviews__reviewer", "reviews__revision")
        )
        for question in questions.iterator(chunk_size=1000):
            yield _history_of(question, shown=_answers_shown(options, split))


def _history_of(question: Question, *, shown: bool) -> bytes:
    versions = sorted(question.revisions.all(), key=lambda v: v.number)
    reviews = sorted(question.reviews.all(), key=lambda r: (r.created_at, r.pk))
    line = {
        "id": question.export_id,
        "status": question.status,
        "versions": [
            {
                "version": v.number,
                "origin": v.origin,
                "editor": v.editor.username,
                "at": v.created_at.isoformat(),
                "question": v.text,
                **({"answer_start": v.answer_start, "answer_text": v.answer_text} if shown else {}),
            }
            for v in versions
        ],
        "reviews": [
            {
                "verdict": r.verdict,
                "reason": r.reason,
                # A reviewer's comment often quotes the right answer: held back with them.
                **({"comment": r.comment} if shown else {}),
                "reviewer": r.reviewer.username,
                "at": r.created_at.isoformat(),
                "version": r.revision.number if r.revision else None,
            }
            for r in reviews
        ],
    }
    return json.dumps(line, ensure_ascii=False).encode() + b"\n"


def _history_file(directory: Path, options: ReleaseOptions) -> BuiltFile:
    def write(sink):
        lines = 0
        for line in _history_lines(options):
            sink.write(line)
            lines += 1
        return {"questions": lines}

    return _write(directory, HISTORY, "application/x-ndjson", write)


@dataclass
class ReleaseFiles:
    """Every file of a release, and what its manifest says."""

    files: list[BuiltFile]  # data files, history, README.md, manifest.json, then gold files
    manifest: dict  # the content of manifest.json: the public files but itself


def build_release_files(
    *,
    options: ReleaseOptions,
    name: str,
    version: str,
    directory: Path,
    report: Report | None = None,
    with_gold: bool = False,
) -> ReleaseFiles:
    """Write every file of a release into `directory`; return them with the manifest.

    The public files come first, the manifest last of them; `with_gold` adds the internal
    gold file of each split (the answers scoring reads, never downloadable), which the
    manifest does not list.
    """
    report = report or (lambda progress, message="": None)
    steps = [(split, fmt) for split in options.splits for fmt in options.formats]
    built = []
    for done, (split, fmt) in enumerate(steps):
        report(int(90 * done / len(steps)), f"{fmt} · {split}")
        built.append(_data_file(directory, options, name, split, fmt))
    if options.include_history:
        report(90, HISTORY)
        built.append(_history_file(directory, options))
    report(95, DATASHEET)
    sheet = datasheet_markdown(name=name, version=version, options=options, files=built).encode()
    built.append(_write(directory, DATASHEET, "text/markdown", lambda sink: sink.write(sheet)))
    manifest = manifest_of(name=name, version=version, options=options, files=built)
    built.append(_manifest(directory, manifest))
    if with_gold:
        built += [_gold_file(directory, options, split) for split in options.splits]
    return ReleaseFiles(files=built, manifest=manifest)


def _manifest(directory: Path, manifest: dict) -> BuiltFile:
    data = json.dumps(manifest, ensure_ascii=False, indent=2).encode() + b"\n"
    return _write(directory, MANIFEST, "application/json", lambda sink: sink.write(data))


def manifest_of(*, name: str, version: str, options: ReleaseOptions, files) -> dict:
    """Return the manifest: what the release holds, with each file's digest and counts."""
    return {
        "name": name,
        "version": version,
        "options": options.as_dict(),
        "files": [
            {"name": f.name, "bytes": f.bytes, "sha256": f.sha256, "counts": f.counts}
            for f in files
        ],
    }


GOLD = "gold-{split}.json"


def _gold_file(directory: Path, options: ReleaseOptions, split: str) -> BuiltFile:
    """Write {question id: [answer texts]} of a split, for scoring on the server only."""
    selection = Selection(split=split, approved_only=options.approved_only)

    def write(sink):
        sink.write(b"{")
        questions = 0
        for article in export_articles(selection, with_answers=True):
            for paragraph in article.paragraphs:
                for question in paragraph.questions:
                    texts = [answer.text for answer in question.answers]
                    item = json.dumps({question.id: texts}, ensure_ascii=False)[1:-1]
                    sink.write((", " if questions else "").encode() + item.encode())
                    questions += 1
        sink.write(b"}\n")
        return {"questions": questions}

    built = _write(directory, GOLD.format(split=split), "application/json", write)
    built.internal = True
    return built
