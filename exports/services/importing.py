"""Import an existing SQuAD-format dataset, so that a team can continue it (PIAF, FQuAD…).

One file is imported in one transaction: all of it, or nothing.

- Articles are matched by (language, title), the title being the file's one without HTML tags
  or entities, spaces collapsed (the raw title is kept as `source_title`). A new article gets
  the wave given, and `split` if given, else a split chosen the way `load_corpus` chooses it;
  an article already there keeps its split and its wave.
- Paragraphs are matched by their exact text within the article, or added after its last one.
- Questions keep the file's id as `source_id` and go to an inactive questions campaign named
  "Import <file name>" (one per language: "Import <file name> (<language>)" when that name
  is already another language's). Every answer is kept: the first is the original answer of
  the account `squad-import`, the others additional answers of `squad-import-2`,
  `squad-import-3`…, since one person gives at most one answer per question. These accounts
  cannot sign in.
- An answer whose text is not at its `answer_start` is moved to its text when that occurs
  exactly once in the paragraph (reported as repaired), else kept as given and flagged
  `misaligned` (listed, left out of releases and scores).
- SQuAD 2.0 files (FQuAD 2.0…): a question with `"is_impossible": true` is stored as an
  unanswerable question, its `plausible_answers` as answers of kind `plausible` (the first by
  `squad-import`, the others by `squad-import-2`…, as answers are), checked and repaired or
  flagged the same way. One without plausible answers is stored too, as it was given.
- A question whose id is already in the platform in that language (XQuAD shares its ids across
  its twelve languages), or earlier in the file, is a duplicate: it is
  listed and not stored again, so a file can be imported twice safely. Malformed entries, and
  questions the platform cannot hold (no answer, an id past 200 characters, NUL characters),
  are skipped and reported; a file that is not SQuAD at all is refused.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from annotation.selectors.questions import source_ids_stored
from annotation.services.imports import (
    MAX_SOURCE_ID,
    ImportedAnswer,
    ImportedQuestion,
    questions_import,
)
from core.errors import ServiceError
from core.text import has_bad_characters
from corpus.models import Split
from corpus.readers import MAX_SOURCE_TITLE, MAX_TITLE, display_title
from corpus.services.articles import (
    ArticleTexts,
    check_language,
    check_wave,
    corpus_analyze,
    corpus_ensure,
)
from exports.formats.offsets import Alignment, check_answer
from exports.formats.records import ExportArticle, ExportQuestion
from exports.formats.squad import SquadFormatError, SquadProblem, read_squad


@dataclass
class ImportReport:
    """What an import stored, matched, repaired, flagged and skipped."""

    articles_created: int = 0
    articles_matched: int = 0
    paragraphs_created: int = 0
    paragraphs_matched: int = 0
    questions_imported: int = 0
    answers_imported: int = 0  # answers of answerable questions
    unanswerable_imported: int = 0  # of the questions imported (SQuAD 2.0 `is_impossible`)
    plausible_imported: int = 0  # their plausible answers
    duplicates: list[str] = field(default_factory=list)  # ids not stored again
    repaired: list[dict] = field(default_factory=list)  # {"id", "from", "to"}
    misaligned: list[dict] = field(default_factory=list)  # {"id", "answer_start", "text"}
    problems: list[str] = field(default_factory=list)  # skipped entries, where and why
    splits: dict[str, int] = field(default_factory=dict)  # new articles per split

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class _Group:
    """The articles of the file that share a display title, their questions by context."""

    title: str
    source_title: str
    paragraphs: dict[str, list[ExportQuestion]] = field(default_factory=dict)


def squad_import(
    *, path: Path, wave: str, language: str, split: str | None = None, seed: int = 0
) -> ImportReport:
    """Import the articles, paragraphs, questions and answers of a SQuAD file, all or none."""
    errors = check_wave(wave) | check_language(language) | _check_split(split)
    if errors:
        raise ServiceError(errors)
    path = Path(path)
    report = ImportReport()
    groups = _read(path, report)
    try:
        with transaction.atomic():
            _store(
                groups,
                file=path.name,
                language=language,
                wave=wave,
                split=split,
                seed=seed,
                report=report,
            )
    except IntegrityError:
        message = _("Another import stored some of these rows meanwhile; run this one again.")
        raise ServiceError({"path": [message]}, status=409) from None
    return report


def _store(groups, *, file, language, wave, split, seed, report) -> None:
    """Store the file through the services of the apps that own its rows."""
    corpus = corpus_ensure(
        articles=[
            ArticleTexts(group.title, group.source_title, list(group.paragraphs))
            for group in groups
        ],
        language=language,
        wave=wave,
        split=split,
        seed=seed,
    )
    report.articles_created, report.articles_matched = (
        corpus.articles_created,
        corpus.articles_matched,
    )
    report.paragraphs_created, report.paragraphs_matched = (
        corpus.paragraphs_created,
        corpus.paragraphs_matched,
    )
    report.splits = corpus.splits
    entries = [
        (corpus.paragraphs[group.title, context], question)
        for group in groups
        for context, questions in group.paragraphs.items()
        for question in questions
    ]
    stored = source_ids_stored([question.id for _paragraph, question in entries], language)
    report.duplicates += [question.id for _paragraph, question in entries if question.id in stored]
    questions = [
        _imported(paragraph, question, report)
        for paragraph, question in entries
        if question.id not in stored
    ]
    imported = questions_import(source=file, language=language, questions=questions)
    report.questions_imported, report.answers_imported = imported.questions, imported.answers
    report.unanswerable_imported = imported.unanswerable
    report.plausible_imported = imported.plausible
    corpus_analyze()


def _check_split(split: str | None) -> dict[str, list[str]]:
    if split is None or split in Split.values:
        return {}
    return {"split": [_("Unknown split “%(split)s”: train, dev or test.") % {"split": split}]}


# ---------------------------------------------------------------------------------------------
# Reading


def _read(path: Path, report: ImportReport) -> list[_Group]:
    """Return the file's articles grouped by display title; refuse a file that is not SQuAD."""
    groups: dict[str, _Group] = {}
    try:
        for article in read_squad(path, on_problem=lambda problem: _noted(problem, report)):
            _group_add(groups, article, report)
    except SquadFormatError as error:
        raise ServiceError({"path": [str(error)]}) from None
    except OSError as error:
        raise ServiceError({"path": [f"{path}: {error.strerror or error}"]}) from None
    return [group for group in groups.values() if group.paragraphs]


def _noted(problem: SquadProblem, report: ImportReport) -> None:
    """Count a repeated id as a duplicate, any other skipped entry as a problem."""
    if problem.duplicate_id is not None:
        report.duplicates.append(problem.duplicate_id)
    else:
        report.problems.append(str(problem))


def _group_add(groups: dict[str, _Group], article: ExportArticle, report: ImportReport) -> None:
    """Add an article's paragraphs and storable questions to the group of its display title."""
    title, where = display_title(article.title), f"article {article.title!r}"
    problem = _title_problem(article.title, title)
    if problem:
        report.problems.append(f"{where}: {problem}")
        return
    group = groups.setdefault(title, _Group(title=title, source_title=article.title.strip()))
    for paragraph in article.paragraphs:
        if not paragraph.context.strip() or has_bad_characters(paragraph.context):
            message = "a context is empty or holds NUL or broken Unicode"
            report.problems.append(f"{where}: {message}")
            continue
        questions = group.paragraphs.setdefault(paragraph.context, [])
        for question in paragraph.questions:
            problem = _question_problem(question)
            if problem:
                report.problems.append(f"{where}, id {question.id!r}: {problem}")
            else:
                questions.append(question)


def _title_problem(source_title: str, title: str) -> str:
    if not title:
        return "the title is empty once HTML is removed"
    if len(title) > MAX_TITLE or len(source_title.strip()) > MAX_SOURCE_TITLE:
        return f"the title is longer than {MAX_TITLE} characters"
    if has_bad_characters(source_title):
        return "the title holds NUL or broken Unicode"
    return ""


def _question_problem(question: ExportQuestion) -> str:
    """Say why the platform cannot hold a question that the reader accepted, or return ""."""
    if len(question.id) > MAX_SOURCE_ID:
        return f"the id is longer than {MAX_SOURCE_ID} characters"
    if not question.answers and not question.is_impossible:
        return "no answer (the platform keeps answered questions only)"
    spans = question.plausible_answers if question.is_impossible else question.answers
    texts = [question.id, question.question, *(answer.text for answer in spans)]
    if any(has_bad_characters(text) for text in texts):
        return "the question or an answer holds NUL or broken Unicode"
    return ""


# ---------------------------------------------------------------------------------------------
# Answers: repaired where the text occurs once, else flagged


def _imported(paragraph, question: ExportQuestion, report: ImportReport) -> ImportedQuestion:
    """Return a question of the file as the annotation app imports it, its answers (the
    plausible ones of an unanswerable question) checked."""
    spans = question.plausible_answers if question.is_impossible else question.answers
    return ImportedQuestion(
        paragraph=paragraph,
        id=question.id,
        text=question.question,
        answers=[_answer(paragraph.text, question, given, report) for given in spans],
        is_impossible=question.is_impossible,
    )


def _answer(context: str, question: ExportQuestion, given, report: ImportReport):
    """Check one answer's offset: repaired when its text is once in the paragraph, else
    flagged misaligned (kept for the record)."""
    check = check_answer(context, given.text, given.answer_start)
    if check.alignment == Alignment.REPAIRABLE:
        report.repaired.append(
            {"id": question.id, "from": given.answer_start, "to": check.answer_start}
        )
    elif check.alignment == Alignment.MISALIGNED:
        report.misaligned.append(
            {"id": question.id, "answer_start": given.answer_start, "text": given.text}
        )
    return ImportedAnswer(
        text=given.text,
        answer_start=check.answer_start,
        misaligned=check.alignment == Alignment.MISALIGNED,
    )
