"""Use cases of the corpus: store articles, load offline files, run scrapes from Wikipedia."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.languages import codes, is_known
from core.languages import language as language_entry
from corpus.models import Article, Paragraph, Split
from corpus.readers import CorpusFileError, SourceArticle, read_corpus_file
from corpus.segmentation import segment
from corpus.signals import articles_changed
from corpus.splits import assign_splits

WAVE = re.compile(r"^[\w.\-]{1,20}$")
LANGUAGE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]+)?$")


def paragraphs_sha256(paragraphs: list[str]) -> str:
    """Return the fingerprint of an article's stored paragraphs."""
    return hashlib.sha256("\n\n".join(paragraphs).encode()).hexdigest()


def check_wave(wave: str) -> dict[str, list[str]]:
    if WAVE.match(wave or ""):
        return {}
    return {"wave": [_("A wave is 1 to 20 letters, digits, dots or dashes, like 1.1.")]}


def check_language(language: str) -> dict[str, list[str]]:
    """Accept a Wikipedia language code that the registry of languages has an entry for."""
    if not LANGUAGE.match(language or ""):
        return {"language": [_("A language is a Wikipedia language code, like fr or en.")]}
    if not is_known(language):
        return {
            "language": [
                _(
                    "The platform knows the languages %(known)s only; add the language "
                    "to the registry (core/languages/catalogue.py, see docs/languages.md) first."
                )
                % {"known": ", ".join(codes())}
            ]
        }
    return {}


def paragraph_bounds(language: str) -> tuple[int, int | None]:
    """Return the (min, max) paragraph lengths of a language: the settings' bounds, which are
    French characters (FQuAD's 500), scaled by the language's length ratio (core.languages)."""
    rule = language_entry(language).paragraphs
    most = settings.CORPUS_MAX_PARAGRAPH_CHARS
    return rule.min_chars(settings.CORPUS_MIN_PARAGRAPH_CHARS), most and rule.min_chars(most)


def article_store(
    *,
    language: str,
    source: SourceArticle,
    paragraphs: list[str],
    wave: str,
    split: str,
    kind: str,
    scrape_run=None,
    fetched_at=None,
) -> Article | None:
    """Create an article and its paragraphs; return None if the title is already there."""
    try:
        with transaction.atomic():
            article = Article.objects.create(
                language=language,
                title=source.title,
                source_title=source.source_title,
                page_id=source.page_id,
                revision_id=source.revision_id,
                url=source.url,
                wave=wave,
                split=split,
                source=kind,
                scrape_run=scrape_run,
                fetched_at=fetched_at,
                text_sha256=paragraphs_sha256(paragraphs),
            )
            Paragraph.objects.bulk_create(
                Paragraph(article=article, position=i, text=t) for i, t in enumerate(paragraphs)
            )
            articles_changed.send(sender=Article, article_pks=[article.pk])
    except IntegrityError:
        # The unique (language, title) constraint: another run stored it first.
        if Article.objects.filter(language=language, title=source.title).exists():
            return None
        raise
    return article


def current_splits(language: str) -> dict[str, str]:
    """Return {title: split} of the articles already in the corpus for a language."""
    return dict(Article.objects.filter(language=language).values_list("title", "split"))


@dataclass
class LoadResult:
    created: int = 0
    paragraphs: int = 0
    skipped: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    splits: Counter = field(default_factory=Counter)


def _paragraphs_of(source: SourceArticle, language: str) -> list[str]:
    if source.text is None:
        return source.paragraphs
    min_chars, max_chars = paragraph_bounds(language)
    return segment(
        source.text, language=language, min_chars=min_chars, max_chars=max_chars
    ).paragraphs


def _splits_for(titles, *, given, existing, seed, ratios) -> dict[str, str]:
    """Return the split of each new title: the one given, else one that fills the ratios."""
    bad = sorted({v for v in given.values() if v not in Split.values})
    if bad:
        raise ServiceError({"split": [_("Unknown split(s): %(s)s.") % {"s": ", ".join(bad)}]})
    rest = [title for title in titles if title not in given]
    return given | assign_splits(rest, existing=existing | given, seed=seed, ratios=ratios)


@transaction.atomic
def corpus_load(
    *,
    path: Path,
    wave: str,
    language: str,
    seed: int = 0,
    split: str | None = None,
) -> LoadResult:
    """Load the articles of a SQuAD file or a corpus JSONL: all of them, or none on error.

    Articles whose title is already in the corpus are skipped; new ones get splits that fill
    the configured ratios without moving any article already there.
    """
    errors = check_wave(wave) | check_language(language)
    if errors:
        raise ServiceError(errors)
    try:
        sources = read_corpus_file(Path(path))
    except CorpusFileError as error:
        raise ServiceError({"path": [str(error)]}) from None
    existing = current_splits(language)
    result = LoadResult(skipped=[s.title for s in sources if s.title in existing])
    fresh = _fresh_sources(sources, existing)
    splits = _splits_for(
        [source.title for source in fresh],
        given={s.title: split or s.split for s in fresh if split or s.split},
        existing=existing,
        seed=seed,
        ratios=settings.CORPUS_SPLIT_RATIOS,
    )
    for source in fresh:
        _source_store(source, language=language, wave=wave, split=splits[source.title], into=result)
    corpus_analyze()
    return result


def _fresh_sources(sources: list[SourceArticle], existing: dict) -> list[SourceArticle]:
    """Return the sources whose title the corpus does not hold, the first of each title."""
    fresh, seen = [], set()
    for source in sources:
        if source.title not in existing and source.title not in seen:
            seen.add(source.title)
            fresh.append(source)
    return fresh


def _source_store(
    source: SourceArticle, *, language: str, wave: str, split: str, into: LoadResult
) -> None:
    """Store one loaded article (or name it as empty when no paragraph is left), counted."""
    paragraphs = _paragraphs_of(source, language)
    if not paragraphs:
        into.empty.append(source.title)
        return
    article_store(
        language=language,
        source=source,
        paragraphs=paragraphs,
        wave=wave,
        split=split,
        kind=Article.Source.FILE,
    )
    into.created += 1
    into.paragraphs += len(paragraphs)
    into.splits[split] += 1


@dataclass(frozen=True)
class ArticleTexts:
    """An article of a dataset brought in from elsewhere: its title and its paragraphs."""

    title: str  # as the platform shows it (no HTML)
    source_title: str  # as the dataset wrote it
    paragraphs: list[str]


@dataclass
class EnsuredCorpus:
    """The stored article and paragraph of each text asked for, and what was created."""

    paragraphs: dict[tuple[str, str], Paragraph]  # (title, text) → the stored paragraph
    articles_created: int = 0
    articles_matched: int = 0
    paragraphs_created: int = 0
    paragraphs_matched: int = 0
    splits: dict[str, int] = field(default_factory=dict)  # new articles per split


def corpus_ensure(
    *, articles: list[ArticleTexts], language: str, wave: str, split: str | None, seed: int
) -> EnsuredCorpus:
    """Make sure these articles and paragraphs are in the corpus; return the stored ones.

    Articles are matched by (language, title); a new one gets the wave, and `split` if given,
    else a split that fills the configured ratios without moving any article already there.
    Paragraphs are matched by their exact text within the article, or added after its last
    one (the article's fingerprint is then computed again). Runs in the caller's transaction.
    """
    found = {
        a.title: a
        for a in Article.objects.filter(language=language, title__in=[a.title for a in articles])
    }
    fresh = [article for article in articles if article.title not in found]
    splits = _splits_for(
        [article.title for article in fresh],
        given={article.title: split for article in fresh} if split else {},
        existing=current_splits(language),
        seed=seed,
        ratios=settings.CORPUS_SPLIT_RATIOS,
    )
    created = _articles_create(fresh, splits, language=language, wave=wave)
    stored = found | {article.title: article for article in created}
    ensured = EnsuredCorpus(
        paragraphs={},
        articles_created=len(created),
        articles_matched=len(found),
        splits=dict(sorted(Counter(splits.values()).items())),
    )
    grown = _paragraphs_ensure(articles, stored, {a.pk for a in created}, ensured)
    if created or grown:
        articles_changed.send(sender=Article, article_pks=[a.pk for a in created] + grown)
    return ensured


def _articles_create(
    fresh: list[ArticleTexts], splits: dict[str, str], *, language: str, wave: str
) -> list[Article]:
    """Create the new articles (their paragraphs come after), in one query."""
    return Article.objects.bulk_create(
        Article(
            language=language,
            title=article.title,
            source_title=article.source_title,
            wave=wave,
            split=splits[article.title],
            source=Article.Source.FILE,
            text_sha256=paragraphs_sha256(article.paragraphs),
        )
        for article in fresh
    )


def _paragraphs_ensure(articles, stored: dict[str, Article], created_pks, ensured) -> list[int]:
    """Add each text not yet in its article; fill `ensured` with every text's paragraph.

    Return the articles that were there before and got new paragraphs.
    """
    known = _paragraphs_by_text(stored.values())
    following = {
        pk: max((p.position for p in texts.values()), default=-1) + 1 for pk, texts in known.items()
    }
    matched, fresh = set(), []
    for article in articles:
        row = stored[article.title]
        texts = known[row.pk]
        for text in article.paragraphs:
            if text in texts:
                matched.add(texts[text].pk)
            else:
                texts[text] = Paragraph(article=row, position=following[row.pk], text=text)
                following[row.pk] += 1
                fresh.append(texts[text])
            ensured.paragraphs[article.title, text] = texts[text]
    Paragraph.objects.bulk_create(fresh)
    grown = {paragraph.article_id for paragraph in fresh} - created_pks
    _fingerprints_refresh(grown)
    ensured.paragraphs_created, ensured.paragraphs_matched = len(fresh), len(matched)
    return sorted(grown)


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


def corpus_analyze() -> None:
    """Refresh PostgreSQL's statistics of the corpus tables after a bulk load.

    Without them the planner may think the tables are empty and pick a plan that sorts every
    paragraph's text on each claim (measured by bench/claim_load.py: 60 ms instead of 6 ms).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE corpus_article, corpus_paragraph")


def article_set_split(*, article: Article, split: str) -> Article:
    """Move an article to a split by hand; later waves keep it there."""
    if split not in Split.values:
        raise ServiceError({"split": [_("Unknown split “%(split)s”.") % {"split": split}]})
    with transaction.atomic():
        Article.objects.filter(pk=article.pk).update(split=split, split_fixed=True)
        articles_changed.send(sender=Article, article_pks=[article.pk])
    article.split, article.split_fixed = split, True
    return article
