"""The data fingerprint of a campaign group: whether what its release would hold changed.

A scheduled snapshot (`exports.services.schedules`) is built only when its group's
fingerprint differs from the last snapshot's; the fingerprint is a read, a few indexed
aggregates, cheap enough for every tick.
"""

from __future__ import annotations

import hashlib
import json

from django.db.models import Count, Max

from annotation.models import Answer, ModelAttempt, Question, QuestionRevision, Review
from corpus.models import Article
from corpus.selectors import hand_moved_articles


def _summary(rows) -> str:
    figures = rows.order_by().aggregate(n=Count("pk"), last=Max("pk"))
    return f"{figures['n']}/{figures['last'] or 0}"


def data_fingerprint(*, campaigns: tuple[int, ...], options: dict) -> str:
    """Return the SHA-256 of what the group's release would read, in a few indexed reads.

    For the group's questions, answers, question versions, reviews and model attempts: the
    count and the largest id; for the corpus: the articles' count and largest id, and the
    articles moved to another split by hand. Every change a release shows adds or deletes a
    row of these tables (docs/release-schedules.md): a question, an answer, a review (which
    is how a status changes), a version (how a text or span is corrected), an attempt; an
    addition raises the largest id and a deletion lowers the count. The release options and
    the group are part of the digest, so an edited schedule builds again.
    """
    group = {"campaign_id__in": campaigns} if campaigns else {}
    via_question = {"question__campaign_id__in": campaigns} if campaigns else {}
    parts = [
        json.dumps({"campaigns": list(campaigns), "options": options}, sort_keys=True),
        _summary(Question.objects.filter(**group)),
        _summary(Answer.objects.filter(**via_question)),
        _summary(QuestionRevision.objects.filter(**via_question)),
        _summary(Review.objects.filter(**via_question)),
        _summary(ModelAttempt.objects.filter(**group)),
        _summary(Article.objects.all()),
        hand_moved_articles(),
    ]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()
