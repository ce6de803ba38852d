"""Import an existing SQuAD-format dataset, so that a team can continue it (PIAF, FQuAD…).

One file is imported in one transaction: all of it, or nothing.

- Articles are matched by (language, title), the title being the file's one without HTML tags
  or entities, spaces collapsed (the raw title is kept as `source_title`). A new article gets
  the wave given, and `split` if given, else a split chosen the way `load_corpus` chooses it;
  an article already there keeps its split and its wave.
- Paragraphs are matched by their exact text within the article, or added after its last one.
- Questions keep the file's id as `source_id` and go to an inactive questions campaign named
  "Import <file name>". Every answer is kept: the first is the original answer of the account
  `squad-import`, the others additional answers of `squad-import-2`, `squad-import-3`…, since
  one person gives at most one answer per question. These accounts cannot sign in.
- An answer whose text is not at its `answer_start` is moved to its text when that occurs
  exactly once in the paragraph (reported as repaired), else kept as given and flagged
  `misaligned` (listed, left out of releases and scores).
- A question whose id is already in the platform, or earlier in the file, is a duplicate: it is
  listed and not stored again, so a file can be imported twice safely. Malformed entries, and
  questions the platform cannot hold (no answer, an id past 200 characters, NUL characters),
  are skipped and reported; a file that is not SQuAD at all is refused.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from annotation.models import Answer, Campaign, Question
from annotation.question_types import classify
from annotation.services.audit import revisions_start
from core.errors import ServiceError
from core.text import has_bad_characters
from corpus.models import Article, Paragraph, Split
from corpus.readers import MAX_SOURCE_TITLE, MAX_TITLE, display_title
from corpus.services import (
    check_language,
    check_wave,
    corpus_analyze,
    current_splits,
    paragraphs_sha256,
)
from corpus.splits import assign_splits
from exports.formats.records import ExportArticle, ExportQuestion
from exports.formats.squad import (
    Alignment,
    SquadFormatError,
    SquadProblem,
    check_answer,
    read_squad,
)

IMPORT_USER = "squad-import"
MAX_SOURCE_ID = 200  # Question.source_id
MAX_CAMPAIGN_NAME = 200  # Campaign.name
LOOKUP_BATCH = 2000  # ids per IN (…) query
# The reader names a question "… (id 'x')"; a duplicate id is the only problem ending so.
DUPLICATE_WHERE = re.compile(r" \(id ('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\)\Z")


@dataclass
class ImportReport:
    """What an import stored, matched, repaired, flagged and skipped."""

    articles_created: int = 0
    articles_matched: int = 0
    paragraphs_created: int = 0
    paragraphs_matched: int = 0
    questions_imported: int = 0
    answers_imported: int = 0
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
    articles, created_pks = _articles_ensure(
        groups, language=language, wave=wave, split=split, seed=seed, report=report
    )
    paragraphs = _paragraphs_ensure(groups, articles, created_pks, report)
    _questions_store(groups, paragraphs, file=file, language=language, report=report)
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
    match = DUPLICATE_WHERE.search(problem.where)
    if match and problem.message.startswith("duplicate id"):
        report.duplicates.append(ast.literal_eval(match.group(1)))
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
    if not question.answers:
        return "no answer (the platform keeps answered questions only)"
    texts = [question.id, question.question, *(answer.text for answer in question.answers)]
    if any(has_bad_characters(text) for text in texts):
        return "the question or an answer holds NUL or broken Unicode"
    return ""


# ---------------------------------------------------------------------------------------------
# Articles and paragraphs


def _articles_ensure(groups, *, language, wave, split, seed, report):
    """Return {title: article} for every group, and the pks of the articles created."""
    titles = [group.title for group in groups]
    found = {a.title: a for a in Article.objects.filter(language=language, title__in=titles)}
    fresh = [group for group in groups if group.title not in found]
    splits = _splits_of_new([group.title for group in fresh], language, split, seed)
    created = Article.objects.bulk_create(
        Article(
            language=language,
            title=group.title,
            source_title=group.source_title,
            wave=wave,
            split=splits[group.title],
            source=Article.Source.FILE,
            text_sha256=paragraphs_sha256(list(group.paragraphs)),
        )
        for group in fresh
    )
    report.articles_created, report.articles_matched = len(created), len(found)
    report.splits = dict(sorted(Counter(splits.values()).items()))
    articles = found | {article.title: article for article in created}
    return articles, {article.pk for article in created}


def _splits_of_new(titles: list[str], language: str, split: str | None, seed: int):
    if split:
        return dict.fromkeys(titles, split)
    ratios = settings.CORPUS_SPLIT_RATIOS
    return assign_splits(titles, existing=current_splits(language), seed=seed, ratios=ratios)


def _paragraphs_ensure(groups, articles, created_pks, report):
    """Return {(title, context): paragraph}, adding each context not yet in its article."""
    stored = _paragraphs_by_text(articles.values())
    following = {
        pk: max((p.position for p in known.values()), default=-1) + 1
        for pk, known in stored.items()
    }
    matched, fresh = set(), []
    for group in groups:
        article = articles[group.title]
        known = stored[article.pk]
        for context in group.paragraphs:
            if context in known:
                matched.add(known[context].pk)
                continue
            known[context] = Paragraph(
                article=article, position=following[article.pk], text=context
            )
            following[article.pk] += 1
            fresh.append(known[context])
    Paragraph.objects.bulk_create(fresh)
    _fingerprints_refresh({paragraph.article_id for paragraph in fresh} - created_pks)
    report.paragraphs_created, report.paragraphs_matched = len(fresh), len(matched)
    return {
        (group.title, context): stored[articles[group.title].pk][context]
        for group in groups
        for context in group.paragraphs
    }


def _paragraphs_by_text(articles) -> dict[int, dict[str, Paragraph]]:
    """Return {article pk: {text: paragraph}} of the stored paragraphs, first one for a text."""
    stored = {article.pk: {} for article in articles}
    for paragraph in Paragraph.objects.filter(article_id__in=stored).order_by("position"):
        stored[paragraph.article_id].setdefault(paragraph.text, paragraph)
    return stored


def _fingerprints_refresh(article_pks: set[int]) -> None:
    """Recompute the fingerprint of articles that were there before and got new paragraphs."""
    for pk in article_pks:
        paragraphs = Paragraph.objects.filter(article_id=pk).order_by("position")
        digest = paragraphs_sha256(list(paragraphs.values_list("text", flat=True)))
        Article.objects.filter(pk=pk).update(text_sha256=digest)


# ---------------------------------------------------------------------------------------------
# Questions and answers


def _questions_store(groups, paragraphs, *, file, language, report) -> None:
    """Store the questions not yet in the platform, with their answers and first version."""
    entries = [
        (paragraphs[group.title, context], question)
        for group in groups
        for context, questions in group.paragraphs.items()
        for question in questions
    ]
    stored = _stored_ids([question.id for _p, question in entries])
    report.duplicates += [question.id for _p, question in entries if question.id in stored]
    entries = [(p, question) for p, question in entries if question.id not in stored]
    if not entries:
        return
    campaign = _campaign_ensure(file, language)
    users = _import_users(max(len(question.answers) for _p, question in entries))
    questions = Question.objects.bulk_create(
        _question_row(campaign, paragraph, question, users[0], position)
        for (paragraph, question), position in zip(entries, _positions(entries), strict=True)
    )
    answers = [
        _answer_row(stored_question, paragraph.text, question, index, users[index], report)
        for stored_question, (paragraph, question) in zip(questions, entries, strict=True)
        for index in range(len(question.answers))
    ]
    Answer.objects.bulk_create(answers)
    firsts = {
        a.question_id: (a.answer_start, a.text) for a in answers if a.kind == Answer.Kind.ORIGINAL
    }
    revisions_start(questions, firsts)
    report.questions_imported, report.answers_imported = len(questions), len(answers)


def _stored_ids(ids: list[str]) -> set[str]:
    """Return which of these source ids the platform already holds."""
    stored = set()
    for start in range(0, len(ids), LOOKUP_BATCH):
        batch = ids[start : start + LOOKUP_BATCH]
        stored |= set(
            Question.objects.filter(source_id__in=batch).values_list("source_id", flat=True)
        )
    return stored


def _positions(entries: list[tuple[Paragraph, ExportQuestion]]) -> list[int]:
    """Number each question after the questions its paragraph already has."""
    pks = {paragraph.pk for paragraph, _q in entries}
    rows = Question.objects.filter(paragraph_id__in=pks).values("paragraph_id")
    last = Counter(
        {row["paragraph_id"]: row["last"] + 1 for row in rows.annotate(last=Max("position"))}
    )
    positions = []
    for paragraph, _q in entries:
        positions.append(last[paragraph.pk])
        last[paragraph.pk] += 1
    return positions


def _question_row(campaign, paragraph, question: ExportQuestion, author, position) -> Question:
    text = question.question  # verbatim: a dataset continued here must come back as it was
    return Question(
        campaign=campaign,
        paragraph=paragraph,
        author=author,
        position=position,
        text=text,
        question_type=classify(text),
        status=Question.Status.PENDING,
        sampled_for_review=False,
        source_id=question.id,
    )


def _answer_row(stored, context, question: ExportQuestion, index, author, report) -> Answer:
    """Build the index-th answer of a question, repaired or flagged as its offset requires."""
    given = question.answers[index]
    check = check_answer(context, given.text, given.answer_start)
    if check.alignment == Alignment.REPAIRABLE:
        report.repaired.append(
            {"id": question.id, "from": given.answer_start, "to": check.answer_start}
        )
    elif check.alignment == Alignment.MISALIGNED:
        report.misaligned.append(
            {"id": question.id, "answer_start": given.answer_start, "text": given.text}
        )
    return Answer(
        question=stored,
        author=author,
        answer_start=check.answer_start,
        text=given.text,
        kind=Answer.Kind.ORIGINAL if index == 0 else Answer.Kind.ADDITIONAL,
        misaligned=check.alignment == Alignment.MISALIGNED,
    )


def _campaign_ensure(file_name: str, language: str) -> Campaign:
    """Return the file's import campaign, created the first time (inactive, every split)."""
    name = f"Import {file_name}"[:MAX_CAMPAIGN_NAME]
    campaign, _created = Campaign.objects.get_or_create(
        name=name,
        defaults={
            "kind": Campaign.Kind.QUESTIONS,
            "language": language,
            "splits": list(Split.values),
            "active": False,
        },
    )
    if campaign.kind != Campaign.Kind.QUESTIONS:
        message = _("The campaign “%(name)s” exists and does not hold questions; rename it first.")
        raise ServiceError({"path": [message % {"name": name}]})
    return campaign


def _import_users(count: int) -> list:
    """Return the accounts that author the 1st, 2nd… answers: squad-import, squad-import-2…"""
    names = [IMPORT_USER] + [f"{IMPORT_USER}-{number}" for number in range(2, count + 1)]
    return [_import_user(name) for name in names]


def _import_user(username: str):
    """Return an account that holds imported work: no role, and it cannot sign in."""
    user, _created = get_user_model().objects.get_or_create(
        username=username, defaults={"is_active": False, "password": make_password(None)}
    )
    return user
