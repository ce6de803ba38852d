"""Write a release's files into a folder: the data files, the review history, the datasheet
and the manifest. The release job and the `export_release` command both call this.

Each split is read once (`exports.dataset.question_chunks`) and every paragraph handed to the
writers of all the requested formats, to the internal gold file, and to the datasheet's
counts (`exports.datasheet.figures.SheetFigures`). Every file is written while its SHA-256 and size
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
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from django.db.models import Count

from annotation.selectors.questions import dataset_questions
from core.languages import find
from exports.dataset import articles_of, question_chunks
from exports.datasheet.figures import SheetFigures, model_in_the_loop_figures
from exports.datasheet.markdown import datasheet_markdown
from exports.formats import FORMATS
from exports.formats.mrqa import language_tokenizer
from exports.formats.records import (
    ExportCounts,
    ExportParagraph,
    ExportQuestion,
    PushWriter,
    json_strings,
    json_text,
)
from exports.formats.squad import V2_VERSION
from exports.history import history_lines
from exports.manifest import manifest_of
from exports.options import ReleaseOptions, answers_shown, split_selection
from exports.services.tokens import CachedTokenizer

FILE_NAMES = {
    "squad": "squad-{split}.json",
    "hf": "hf-{split}.jsonl",
    "mrqa": "mrqa-{split}.jsonl.gz",
}
HISTORY = "history.jsonl"
DATASHEET = "README.md"
MANIFEST = "manifest.json"

Report = Callable[[int, str], None]


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
) -> tuple[list[BuiltFile], int]:
    """Read one split once and write its file of every format, then its gold file if asked;
    return them and the number of questions the split holds.

    The records carry every shown answer; each writer leaves them out of a held-back split
    itself (`include_answers`), while the gold file always has them. `with_model`: the
    release holds questions written with a model in the loop, and every line of its HF
    files carries the `model_in_the_loop` field (SQuAD's qas carry it where they have one).
    """
    writers = _writers(options, name, split, with_gold=with_gold, with_model=with_model)
    selection = split_selection(options, split)
    read = 0

    def counted(questions: int) -> None:
        nonlocal read
        read = questions
        report(questions)

    with ExitStack() as files:
        outputs = []
        for file_name, writer in writers.items():
            outputs.append(files.enter_context(_Output(directory, file_name, writer.media_type)))
            writer.begin(outputs[-1].sink)
        chunks = _reporting(figures.count(split, question_chunks(selection)), counted)
        for article in articles_of(chain.from_iterable(chunks)):
            for writer in writers.values():
                writer.article(article.title)
            for paragraph in article.paragraphs:
                for writer in writers.values():
                    writer.paragraph(paragraph)
        built = [
            output.built(writer.end(), unanswerable=options.unanswerable)
            for output, writer in zip(outputs, writers.values(), strict=True)
        ]
    return built, read


def _writers(
    options: ReleaseOptions, name: str, split: str, *, with_gold: bool, with_model: bool
) -> dict[str, PushWriter]:
    """Return the split's writers by file name: one per format, then the gold file's."""
    shown = answers_shown(options, split)
    writers = {}
    for fmt in options.formats:
        extra = {}
        if fmt == "mrqa":  # spaCy's tokens, kept between exports (exports.services.tokens)
            # The tokenizer of the release's language (core.languages), never French's.
            spacy = language_tokenizer(options.language)
            tokenize = CachedTokenizer(spacy, spacy.name)
            extra = {"dataset": name, "split": split, "tokenize": tokenize}
        elif fmt == "squad" and options.unanswerable:
            extra = {"version": V2_VERSION, "unanswerable": True}
        elif fmt == "hf" and with_model:
            extra = {"with_model": True}
        writers[FILE_NAMES[fmt].format(split=split)] = FORMATS[fmt](include_answers=shown, **extra)
    if with_gold:
        writers[GOLD.format(split=split)] = _GoldWriter(unanswerable=options.unanswerable)
    return writers


def _reporting(chunks, report: Callable[[int], None]):
    """Pass the chunks on, reporting the questions read so far."""
    read = 0
    for chunk in chunks:
        yield chunk
        read += len(chunk)
        report(read)


def _history_file(directory: Path, options: ReleaseOptions) -> BuiltFile:
    def write(sink):
        lines = 0
        for line in history_lines(options):
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
    entry = find(options.language)
    figures = SheetFigures(characters=bool(entry and entry.splitting.words == "tokenizer"))
    built, gold, empty = _data_files(
        options, name, directory, figures=figures, report=report, with_gold=with_gold
    )
    if options.include_history:
        report(90, HISTORY)
        built.append(_history_file(directory, options))
    report(95, DATASHEET)
    sheet = datasheet_markdown(
        name=name, version=version, options=options, files=built, figures=figures, empty=empty
    ).encode()
    built.append(_write(directory, DATASHEET, "text/markdown", lambda sink: sink.write(sheet)))
    manifest = manifest_of(
        name=name,
        version=version,
        options=options,
        files=built,
        model_in_the_loop=model_in_the_loop_figures(figures, options.splits),
        empty_splits=empty,
    )
    built.append(_manifest(directory, manifest))
    for item in gold:
        item.internal = True
    return ReleaseFiles(files=built + gold, manifest=manifest)


def _data_files(
    options: ReleaseOptions,
    name: str,
    directory: Path,
    *,
    figures: SheetFigures,
    report: Report,
    with_gold: bool,
) -> tuple[list[BuiltFile], list[BuiltFile], list[str]]:
    """Write every split's data files (and gold files if asked), reporting up to 90 %;
    return the data files, the gold files and the splits without a question.

    A split without a question gets no data file (an empty `hf-train.jsonl` read as a broken
    file); its gold file, internal, is still written (`{}`).
    """
    totals, with_model = _question_totals(options)
    total, before = max(1, sum(totals.values())), 0
    built, gold, empty = [], [], []
    for split in options.splits:
        message = f"{' + '.join(options.formats)} · {split}"
        report(int(90 * before / total), message)

        def progress(read, before=before, message=message):
            report(int(90 * min(before + read, total) / total), message)

        files, questions = _split_files(
            directory,
            options,
            name,
            split,
            figures=figures,
            with_gold=with_gold,
            with_model=with_model > 0,
            report=progress,
        )
        if with_gold:  # kept for an empty split too: scoring reads its `{}` as "nothing"
            gold.append(files.pop())
        if questions:
            built += files
        else:  # no question: no data file (docs/decisions.md, "Rough edges an admin meets")
            empty.append(split)
            for item in files:
                item.path.unlink()
        before += totals.get(split, 0)
    return built, gold, empty


def _question_totals(options: ReleaseOptions) -> tuple[dict[str, int], int]:
    """Return the questions of each split (for progress), and how many of all were written
    with a model in the loop (whether the files carry its fields): one grouped count."""
    questions = dataset_questions(
        approved_only=options.approved_only,
        unanswerable=options.unanswerable,
        language=options.language or None,
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
