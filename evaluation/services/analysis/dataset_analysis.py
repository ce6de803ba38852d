"""The dataset analysis job: the figures of the FQuAD paper's analysis section, per split.

Question types, answer types (each answer typed inside its paragraph by spaCy's French
pipeline, `evaluation.services.analysis.answer_types`; the results name the pipeline and its
version), question
and answer lengths in words, and the lexical overlap between a question and its paragraph
(the share of the question's words found in the paragraph). The questions are those that
count in releases (`annotation.selectors.questions.dataset_questions`): never a rejected one.

Those figures are the answerable questions' (a v1.1 dataset's). Beside them, each split counts
its unanswerable questions (SQuAD 2.0 / FQuAD 2.0), with their length and overlap: an
unanswerable question that shares few words with its paragraph is trivially unanswerable, the
kind the papers' adversarial writing avoids.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_noop

from annotation.models import Answer, QuestionType
from annotation.selectors.questions import dataset_questions
from annotation.services.answer_types import answer_types_store_chunk
from core.i18n import Text
from core.languages import find
from core.languages import languages as all_languages
from core.services.jobs import job_enqueue, job_run
from corpus.models import Article, Split
from evaluation.models import DatasetAnalysis
from evaluation.services.analysis.answer_types import (
    AnswerType,
    answer_types,
    load_french,
    pipeline_name,
)

WORD = re.compile(r"\w+")
OVERLAP_BUCKETS = ((0, 20), (20, 40), (40, 60), (60, 80), (80, 101))
LENGTH_BUCKETS = ((1, 5), (5, 10), (10, 15), (15, 20), (20, 30), (30, 10_000))


def analysis_start(*, created_by=None) -> DatasetAnalysis:
    """Record an analysis and send it to the default queue."""
    with transaction.atomic():
        analysis = DatasetAnalysis.objects.create(created_by=created_by)
        job_enqueue(job=analysis, task="evaluation.tasks.analysis_task", queue="default")
    return analysis


def _words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def overlap(question: str, paragraph: str) -> float:
    """Return the share (%) of the question's words that also occur in the paragraph."""
    words = _words(question)
    if not words:
        return 0.0
    vocabulary = set(_words(paragraph))
    return 100.0 * sum(word in vocabulary for word in words) / len(words)


def _buckets(values, edges) -> list[dict]:
    total = len(values) or 1
    rows = []
    for low, high in edges:
        count = sum(low <= v < high for v in values)
        rows.append({"low": low, "high": high, "count": count, "share": 100.0 * count / total})
    return rows


def _summary(values) -> dict:
    if not values:
        return {"mean": None, "median": None}
    return {"mean": statistics.mean(values), "median": statistics.median(values)}


TAG_CHUNK = 2000  # answers typed, then saved in one transaction


def spoken_languages() -> list[str]:
    """The language codes of the corpus's articles, as stored ("fr", "fr-ca", "th")."""
    return sorted(Article.objects.order_by().values_list("language", flat=True).distinct())


def pipeline_languages(model: str) -> list[str]:
    """The stored language codes whose registry entry types answers with spaCy `model`."""
    return [
        code
        for code in spoken_languages()
        if (entry := find(code)) is not None
        and entry.answer_types is not None
        and entry.answer_types.model == model
    ]


def typed_answers(languages: list[str] | None = None) -> QuerySet:
    """Return the answers the analysis types and stores the type of: the original answers of
    the questions that count in the dataset (`dataset_questions`), at their right place.

    Not the additional answers (the figures are one answer per question, the original one,
    as the answer-length figures), nor the plausible spans of unanswerable questions, which
    answer nothing (docs/answer-types.md).
    """
    answers = Answer.objects.filter(
        question__in=dataset_questions().values("pk"),
        kind=Answer.Kind.ORIGINAL,
        misaligned=False,
        no_answer=False,
    )
    if languages is not None:  # the languages the pipeline types (core.languages)
        answers = answers.filter(question__paragraph__article__language__in=languages)
    return answers


def answer_types_store(
    *, pipeline: str, nlp=None, report=None, languages: list[str] | None = None
) -> int:
    """Type the answers of `typed_answers` not yet typed by `pipeline`; return how many.

    TAG_CHUNK answers at a time, paragraph by paragraph, each chunk saved in its own
    transaction (`bulk_update`): a job stopped anywhere keeps the chunks saved, and the next
    run types only the rest; a run on unchanged data types none. The rows are locked and
    read again before the save: an answer whose span changed meanwhile (a review
    correction, which clears its type) is left untyped for the next chunk, not given the
    type of its old span.
    """
    pending = typed_answers(languages).exclude(answer_type_pipeline=pipeline)
    total, stored = pending.count(), 0
    while True:
        chunk = list(
            pending.order_by("question__paragraph_id", "pk").values_list(
                "pk", "answer_start", "text", "question__paragraph__text"
            )[:TAG_CHUNK]
        )
        if not chunk:
            return stored
        kinds = answer_types([(context, start, text) for _pk, start, text, context in chunk], nlp)
        types = {
            pk: (start, text, kind.value)
            for (pk, start, text, _context), kind in zip(chunk, kinds, strict=True)
        }
        stored += answer_types_store_chunk(types=types, pipeline=pipeline)
        if report is not None:
            report(min(stored, total), total)


def _split_figures(split: str) -> dict:
    questions = dataset_questions(split=split).values_list(
        "pk", "text", "question_type", "paragraph__text"
    )
    rows = list(questions.iterator(chunk_size=2000))
    answers = Answer.objects.filter(
        question__in=questions.values("pk"), kind=Answer.Kind.ORIGINAL, misaligned=False
    ).values_list("question_id", "answer_start", "text", "answer_type")
    originals = {pk: (start, text, kind) for pk, start, text, kind in answers}
    spans = [(r[3], *originals[r[0]]) for r in rows if r[0] in originals]
    stored = Counter(kind for _c, _s, _t, kind in spans)
    untyped = stored.pop("", 0)
    types = {kind: stored[kind] for kind in AnswerType if stored[kind]}
    question_lengths = [len(_words(r[1])) for r in rows]
    answer_lengths = [len(_words(text)) for _c, _s, text, _k in spans]
    overlaps = [overlap(r[1], r[3]) for r in rows]
    kinds = Counter(r[2] for r in rows)
    total = len(rows) or 1
    impossible = _unanswerable(split)
    impossible_overlaps = [overlap(text, paragraph) for text, paragraph in impossible]
    return {
        "questions": len(rows),
        "answerable": len(rows),
        "unanswerable": len(impossible),
        "unanswerable_share": 100.0 * len(impossible) / ((len(rows) + len(impossible)) or 1),
        "unanswerable_question_length": _summary([len(_words(t)) for t, _p in impossible]),
        "unanswerable_overlap": _summary(impossible_overlaps),
        "question_types": {t: 100.0 * kinds[t] / total for t in QuestionType.values},
        "answer_types": {t: 100.0 * n / (len(spans) or 1) for t, n in sorted(types.items())},
        "answer_types_untyped": untyped,
        "question_length": _summary(question_lengths)
        | {"buckets": _buckets(question_lengths, LENGTH_BUCKETS)},
        "answer_length": _summary(answer_lengths)
        | {"buckets": _buckets(answer_lengths, LENGTH_BUCKETS)},
        "overlap": _summary(overlaps) | {"buckets": _buckets(overlaps, OVERLAP_BUCKETS)},
    }


def _unanswerable(split: str) -> list[tuple[str, str]]:
    """Return (question, paragraph) of the split's questions said unanswerable."""
    return list(
        dataset_questions(split=split, unanswerable=True)
        .filter(is_impossible=True)
        .values_list("text", "paragraph__text")
        .iterator(chunk_size=2000)
    )


def _work(analysis: DatasetAnalysis, report) -> str:
    # Answer types for the languages whose registry entry names a pipeline, each with its own
    # (French's rules read French): another language's answers stay untyped, the page says so.
    models = sorted({e.answer_types.model for e in all_languages() if e.answer_types})
    pipeline, typed = "", 0
    for model in models:
        languages = pipeline_languages(model)
        if not languages:
            continue
        nlp = load_french(model)
        pipeline = pipeline_name(nlp)
        typed += answer_types_store(
            pipeline=pipeline,
            nlp=nlp,
            languages=languages,
            report=lambda done, total: report(int(80 * done / (total or 1)), "answer types"),
        )
    spoken = spoken_languages()
    results = {
        "splits": {},
        "computed_at": timezone.now().isoformat(),
        "answer_types_pipeline": pipeline,
        "answer_types_stored": typed,
        "languages": spoken,
        # The languages of the corpus that lack a piece (core.languages), by piece.
        "unavailable": {
            piece: [code for code in spoken if not (find(code) and find(code).has(piece))]
            for piece in ("question_types", "answer_types")
        },
    }
    for i, split in enumerate(Split.values):
        report(80 + int(20 * i / len(Split.values)), split)
        results["splits"][split] = _split_figures(split)
    DatasetAnalysis.objects.filter(pk=analysis.pk).update(results=results)
    counts = ", ".join(f"{s} {f['questions']}" for s, f in results["splits"].items())
    return Text(
        gettext_noop("Questions analysed: %(counts)s. Answers typed now: %(typed)s."),
        {"counts": counts, "typed": typed},
    )


def analysis_execute(*, analysis: DatasetAnalysis) -> None:
    job_run(analysis, _work)
