"""The dataset analysis job: the figures of the FQuAD paper's analysis section, per split.

Question types, answer types (each answer typed inside its paragraph by spaCy's French
pipeline, `evaluation.answer_types`; the results name the pipeline and its version), question
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
from django.utils import timezone
from django.utils.translation import gettext_noop

from annotation.models import Answer, QuestionType
from annotation.selectors.questions import dataset_questions
from core.i18n import Text
from core.jobs import job_enqueue, job_run
from corpus.models import Split
from evaluation.answer_types import answer_types, pipeline_name
from evaluation.models import DatasetAnalysis

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


def _split_figures(split: str) -> dict:
    questions = dataset_questions(split=split).values_list(
        "pk", "text", "question_type", "paragraph__text"
    )
    rows = list(questions.iterator(chunk_size=2000))
    answers = Answer.objects.filter(
        question__in=questions.values("pk"), kind=Answer.Kind.ORIGINAL, misaligned=False
    ).values_list("question_id", "answer_start", "text")
    originals = {pk: (start, text) for pk, start, text in answers}
    spans = [(r[3], *originals[r[0]]) for r in rows if r[0] in originals]
    types = Counter(str(t.value) for t in answer_types(spans))
    question_lengths = [len(_words(r[1])) for r in rows]
    answer_lengths = [len(_words(text)) for _c, _s, text in spans]
    overlaps = [overlap(r[1], r[3]) for r in rows]
    kinds = Counter(r[2] for r in rows)
    total = len(rows) or 1
    impossible = list(
        dataset_questions(split=split, unanswerable=True)
        .filter(is_impossible=True)
        .values_list("text", "paragraph__text")
        .iterator(chunk_size=2000)
    )
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
        "question_length": _summary(question_lengths)
        | {"buckets": _buckets(question_lengths, LENGTH_BUCKETS)},
        "answer_length": _summary(answer_lengths)
        | {"buckets": _buckets(answer_lengths, LENGTH_BUCKETS)},
        "overlap": _summary(overlaps) | {"buckets": _buckets(overlaps, OVERLAP_BUCKETS)},
    }


def _work(analysis: DatasetAnalysis, report) -> str:
    results = {
        "splits": {},
        "computed_at": timezone.now().isoformat(),
        "answer_types_pipeline": pipeline_name(),
    }
    for i, split in enumerate(Split.values):
        report(int(100 * i / len(Split.values)), split)
        results["splits"][split] = _split_figures(split)
    DatasetAnalysis.objects.filter(pk=analysis.pk).update(results=results)
    counts = ", ".join(f"{s} {f['questions']}" for s, f in results["splits"].items())
    return Text(gettext_noop("Questions analysed: %(counts)s."), {"counts": counts})


def analysis_execute(*, analysis: DatasetAnalysis) -> None:
    job_run(analysis, _work)
