"""A release's review history (history.jsonl): one JSON line per released question, with its
versions and its reviews; where a split's answers are held back, so is what would tell them.
"""

from __future__ import annotations

import json

from annotation.models import Question, Review
from exports.dataset import selected_questions
from exports.options import ReleaseOptions, answers_shown, split_selection


def history_lines(options: ReleaseOptions):
    """Yield one JSON line per released question: its versions and its reviews."""
    for split in options.splits:
        ids = selected_questions(split_selection(options, split)).values_list("pk", flat=True)
        questions = (
            Question.objects.filter(pk__in=ids)
            .order_by("pk")
            .prefetch_related("revisions__editor", "reviews__reviewer", "reviews__revision")
        )
        shown = answers_shown(options, split)
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
