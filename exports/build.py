"""Write a release's files into a folder: the data files, the review history, the datasheet
and the manifest. The release job and the `export_release` command both call this.

Each split is read once (`exports.dataset.question_chunks`) and every paragraph handed to the
writers of all the requested formats, to the internal gold file, and to the datasheet's
counts (`exports.datasheet.SheetFigures`). Every file is written while its SHA-256 and size
are computed; the same database state and options give the same bytes (ordering in
`exports.dataset`, deterministic writers).

A release is SQuAD v1.1 (answerable questions only: the files of every release before
unanswerable questions, byte for byte) or v2.0 (`squad_version`: the unanswerable questions
too, in the SQuAD 2.0 layout; MRQA leaves them out; the gold file gives them `[]`).
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from itertools import chain
from pathlib import Path

from django.db.models import Count
from django.utils.translation import gettext as _

from annotation.models import Campaign, Question, Review
from annotation.selectors.questions import dataset_questions
from core.errors import ServiceError
from corpus.models import Split
from exports.dataset import Selection, articles_of, question_chunks, selected_questions
from exports.datasheet.markdown import SheetFigures, datasheet_markdown, model_in_the_loop_figures
from exports.formats import FORMATS
from exports.formats.mrqa import spacy_tokenizer
from exports.formats.records import (
    ExportCounts,
    ExportParagraph,
    ExportQuestion,
    PushWriter,
    json_strings,
    json_text,
)
from exports.formats.squad import V2_VERSION
from exports.services.tokens import CachedTokenizer

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
SQUAD_VERSIONS = ("1.1", "2.0")


@dataclass(frozen=True)
class ReleaseOptions:
    formats: list[str]
    splits: list[str]
    approved_only: bool = False
    include_test_answers: bool = False
    include_history: bool = False
    squad_version: str = "1.1"  # "2.0": unanswerable questions too (SQuAD 2.0, FQuAD 2.0)
    # The campaigns whose questions the release takes, by id (sorted); () for every campaign.
    campaigns: tuple[int, ...] = ()

    def as_dict(self) -> dict:
        """The options as stored; `campaigns` only when some are chosen, so that a release of
        every campaign keeps the options (and manifest) releases always had."""
        data = asdict(self)
        if self.campaigns:
            data["campaigns"] = list(self.campaigns)
        else:
            del data["campaigns"]
        return data

    @property
    def unanswerable(self) -> bool:
        """Whether the release holds unanswerable questions (SQuAD v2.0)."""
        return self.squad_version == "2.0"


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
    squad_version = data.get("squad_version", "1.1")
    if not isinstance(squad_version, str) or squad_version not in SQUAD_VERSIONS:
        errors["squad_version"] = [
            _("“1.1” (answerable questions only) or “2.0” (with unanswerable questions).")
        ]
    campaigns = data.get("campaigns")
    campaigns = [] if campaigns is None else campaigns
    try:
        campaigns = check_campaigns(campaigns)
    except ServiceError as error:
        errors |= error.errors
    if errors:
        raise ServiceError(errors)
    return ReleaseOptions(
        formats=[f for f in FORMAT_ORDER if f in formats],
        splits=[s for s in Split.values if s in splits],
        **{name: data.get(name, False) for name in flags},
        squad_version=squad_version,
        campaigns=campaigns,
    )


def check_campaigns(value) -> tuple[int, ...]:
    """Return campaign ids as a sorted tuple, or refuse (`campaigns`) a value that is not a
    list of ids of existing campaigns, naming the unknown ones."""
    if not isinstance(value, list | tuple) or any(
        isinstance(pk, bool) or not isinstance(pk, int) or pk < 1 for pk in value
    ):
        raise ServiceError({"campaigns": [_("A list of campaign ids.")]})
    wanted = set(value)
    found = set(Campaign.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    if unknown := sorted(wanted - found):
        raise ServiceError(
            {"campaigns": [_("No such campaign: %(ids)s.") % {"ids": ", ".join(map(str, unknown))}]}
        )
    return tuple(sorted(wanted))


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


BUFFER = 1 << 20  # bytes per write to the file: one system call per MB, not per paragraph


class _Output:
    """A release file open for writing, hashed and counted as it is written."""

    def __init__(self, directory: Path, name: str, media_type: str) -> None:
        self.name, self.path, self.media_type = name, directory / name, media_type
        self.raw = self.path.open("wb", buffering=BUFFER)
        self.sink = _Hashing(self.raw)

    def __enter__(self) -> _Output:
        return self

    def __exit__(self, *error) -> None:
        self.raw.close()

    def built(self, counts: ExportCounts | dict, *, unanswerable: bool = False) -> BuiltFile:
        """Close the file and describe it (a v2.0 release's counts say how many questions are
        unanswerable, and how many a format left out)."""
        self.raw.close()
        if isinstance(counts, ExportCounts):
            counts = counts.as_dict(unanswerable=unanswerable)
        digest = self.sink.digest.hexdigest()
        return BuiltFile(self.name, self.path, self.sink.size, digest, self.media_type, counts)


def _write(directory: Path, name: str, media_type: str, write) -> BuiltFile:
    with _Output(directory, name, media_type) as output:
        counts = write(output.sink)
        return output.built(counts if isinstance(counts, dict) else {})


def _answers_shown(options: ReleaseOptions, split: str) -> bool:
    return split != Split.TEST or options.include_test_answers


class _GoldWriter(PushWriter):
    """{question id: [answer texts]} of a split, for scoring on the server only.

    An unanswerable question (v2.0) has no answer: `[]`, which the SQuAD v2.0 scoring reads as
    "no answer is right" (the official script's gold `[""]`).
    """

    media_type = "application/json"

    def __init__(self, *, unanswerable: bool = False) -> None:
        self.unanswerable = unanswerable

    def begin(self, out) -> None:
        self._out, self._questions, self._impossible = out, 0, 0
        out.write(b"{")

    def article(self, title: str) -> None:
        pass

    def paragraph(self, paragraph: ExportParagraph) -> None:
        items = []
        for question in paragraph.questions:
            texts = json_strings(_gold_texts(question))
            items.append(f"{', ' if self._questions else ''}{json_text(question.id)}: {texts}")
            self._questions += 1
            self._impossible += question.is_impossible
        self._out.write("".join(items).encode())

    def end(self) -> dict:
        self._out.write(b"}\n")
        if self.unanswerable:
            return {"questions": self._questions, "unanswerable": self._impossible}
        return {"questions": self._questions}


def _gold_texts(question: ExportQuestion):
    if question.is_impossible:
        return ()
    return (answer.text for answer in question.answers)


GOLD = "gold-{split}.json"


def _split_files(
    directory: Path,
    options: ReleaseOptions,
    name: str,
    split: str,
    *,
    figures: SheetFigures,
    with_gold: bool,
    report: Callable[[int], None],
    with_model: bool = False,
) -> list[BuiltFile]:
    """Read one split once and write its file of every format, then its gold file if asked.

    The records carry every shown answer; each writer leaves them out of a held-back split
    itself (`include_answers`), while the gold file always has them. `with_model`: the
    release holds questions written with a model in the loop, and every line of its HF
    files carries the `model_in_the_loop` field (SQuAD's qas carry it where they have one).
    """
    shown = _answers_shown(options, split)
    writers = {}  # file name -> writer
    for fmt in options.formats:
        extra = {}
        if fmt == "mrqa":  # spaCy's tokens, kept between exports (exports.services.tokens)
            spacy = spacy_tokenizer()
            tokenize = CachedTokenizer(spacy, spacy.name)
            extra = {"dataset": name, "split": split, "tokenize": tokenize}
        elif fmt == "squad" and options.unanswerable:
            extra = {"version": V2_VERSION, "unanswerable": True}
        elif fmt == "hf" and with_model:
            extra = {"with_model": True}
        writers[FILE_NAMES[fmt].format(split=split)] = FORMATS[fmt](include_answers=shown, **extra)
    if with_gold:
        writers[GOLD.format(split=split)] = _GoldWriter(unanswerable=options.unanswerable)
    selection = _selection(options, split)
    with ExitStack() as files:
        outputs = []
        for file_name, writer in writers.items():
            outputs.append(files.enter_context(_Output(directory, file_name, writer.media_type)))
            writer.begin(outputs[-1].sink)
        chunks = _reporting(figures.count(split, question_chunks(selection)), report)
        for article in articles_of(chain.from_iterable(chunks)):
            for writer in writers.values():
                writer.article(article.title)
            for paragraph in article.paragraphs:
                for writer in writers.values():
                    writer.paragraph(paragraph)
        return [
            output.built(writer.end(), unanswerable=options.unanswerable)
            for output, writer in zip(outputs, writers.values(), strict=True)
        ]


def _selection(options: ReleaseOptions, split: str) -> Selection:
    return Selection(
        split=split,
        approved_only=options.approved_only,
        unanswerable=options.unanswerable,
        campaigns=options.campaigns,
    )


def _reporting(chunks, report: Callable[[int], None]):
    """Pass the chunks on, reporting the questions read so far."""
    read = 0
    for chunk in chunks:
        yield chunk
        read += len(chunk)
        report(read)


def _history_lines(options: ReleaseOptions):
    """Yield one JSON line per released question: its versions and its reviews."""
    for split in options.splits:
        ids = selected_questions(_selection(options, split)).values_list("pk", flat=True)
        questions = (
            Question.objects.filter(pk__in=ids)
            .order_by("pk")
            .prefetch_related("revisions__editor", "reviews__reviewer", "reviews__revision")
        )
        shown = _answers_shown(options, split)
        for question in questions.iterator(chunk_size=1000):
            yield _history_of(question, shown=shown, unanswerable=options.unanswerable)


def _verdict_shown(verdict: str, *, shown: bool) -> str:
    """A review's verdict in the history; where the answers are held back, "answerable" (a
    question written unanswerable that a reviewer answered) is written as what it also is, a
    correction: it would tell which held-back questions have an answer."""
    if not shown and verdict == Review.Verdict.ANSWERABLE:
        return Review.Verdict.CORRECT
    return verdict


def _history_of(question: Question, *, shown: bool, unanswerable: bool = False) -> bytes:
    """One question's line; in a v2.0 release each shown version also says whether it was
    unanswerable (its span then being the plausible one)."""
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
                **({"is_impossible": v.is_impossible} if shown and unanswerable else {}),
            }
            for v in versions
        ],
        "reviews": [
            {
                "verdict": _verdict_shown(r.verdict, shown=shown),
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


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a release is written.

    The pass allocates a few objects per question and per answer (rows, records, strings),
    freed by reference counting as each chunk is written; with the collector on, those
    allocations set off collections that walk every object the process holds (Django's
    modules, models, settings), about a fifth of the export's CPU at FQuAD 1.1 size
    (bench/export_scale.py). The pass makes no reference cycles worth collecting mid-way;
    the collector is back as it was afterwards (a worker runs one task at a time, so nothing
    else runs in this process meanwhile).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


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
    with collector_paused():
        return _build_release_files(
            options=options,
            name=name,
            version=version,
            directory=directory,
            report=report or (lambda progress, message="": None),
            with_gold=with_gold,
        )


def _build_release_files(
    *,
    options: ReleaseOptions,
    name: str,
    version: str,
    directory: Path,
    report: Report,
    with_gold: bool,
) -> ReleaseFiles:
    totals, with_model = _question_totals(options)
    total, before = max(1, sum(totals.values())), 0
    figures = SheetFigures()
    built, gold = [], []
    for split in options.splits:
        message = f"{' + '.join(options.formats)} · {split}"
        report(int(90 * before / total), message)

        def progress(read, before=before, message=message):
            report(int(90 * min(before + read, total) / total), message)

        files = _split_files(
            directory,
            options,
            name,
            split,
            figures=figures,
            with_gold=with_gold,
            with_model=with_model > 0,
            report=progress,
        )
        if with_gold:
            gold.append(files.pop())
        built += files
        before += totals.get(split, 0)
    if options.include_history:
        report(90, HISTORY)
        built.append(_history_file(directory, options))
    report(95, DATASHEET)
    sheet = datasheet_markdown(
        name=name, version=version, options=options, files=built, figures=figures
    ).encode()
    built.append(_write(directory, DATASHEET, "text/markdown", lambda sink: sink.write(sheet)))
    manifest = manifest_of(
        name=name,
        version=version,
        options=options,
        files=built,
        model_in_the_loop=model_in_the_loop_figures(figures, options.splits),
    )
    built.append(_manifest(directory, manifest))
    for item in gold:
        item.internal = True
    return ReleaseFiles(files=built + gold, manifest=manifest)


def _question_totals(options: ReleaseOptions) -> tuple[dict[str, int], int]:
    """Return the questions of each split (for progress), and how many of all were written
    with a model in the loop (whether the files carry its fields): one grouped count."""
    questions = dataset_questions(
        approved_only=options.approved_only, unanswerable=options.unanswerable
    ).filter(paragraph__article__split__in=options.splits)
    if options.campaigns:
        questions = questions.filter(campaign_id__in=options.campaigns)
    counts = (
        questions.order_by()
        .values_list("paragraph__article__split")
        .annotate(n=Count("pk"), with_model=Count("model_attempt"))
        .values_list("paragraph__article__split", "n", "with_model")
    )
    totals, with_model = {}, 0
    for split, n, written_with_model in counts:
        totals[split] = n
        with_model += written_with_model
    return totals, with_model


def _manifest(directory: Path, manifest: dict) -> BuiltFile:
    data = json.dumps(manifest, ensure_ascii=False, indent=2).encode() + b"\n"
    return _write(directory, MANIFEST, "application/json", lambda sink: sink.write(data))


def manifest_of(
    *,
    name: str,
    version: str,
    options: ReleaseOptions,
    files,
    model_in_the_loop: dict | None = None,
) -> dict:
    """Return the manifest: what the release holds, with each file's digest and counts, and
    (only in a release with questions written with a model in the loop) the datasheet's
    model-in-the-loop figures."""
    manifest = {
        "name": name,
        "version": version,
        "options": options.as_dict(),
        "files": [
            {"name": f.name, "bytes": f.bytes, "sha256": f.sha256, "counts": f.counts}
            for f in files
        ],
    }
    if model_in_the_loop:
        manifest["model_in_the_loop"] = model_in_the_loop
    if options.campaigns:  # a release of some campaigns names them
        manifest["campaigns"] = campaign_names(options.campaigns)
    return manifest


def campaign_names(ids) -> list[dict]:
    """Return [{"id", "name"}] of these campaigns, by id (the manifest's and datasheet's)."""
    return [
        {"id": pk, "name": name}
        for pk, name in Campaign.objects.filter(pk__in=ids).order_by("pk").values_list("pk", "name")
    ]
