"""Model in the loop, after review: a reviewer's new answer span scores the model again.

`annotation.services.reviews` sends `annotation.events.answer_changed` inside its
transaction when a review changes a question's original answer (a correction of the span,
or an unanswerable question found answerable). The question's model figures (`model_exact`,
`model_f1`, `model_fooled`) are then computed again: the model's answer of the attempt that
counts against the new answer, with the campaign language's normalization, and "fooled" with
the threshold of the attempt's round (the one the annotator wrote against). The attempt row
keeps what the annotator saw.

A correction of the question's text alone changes nothing here: the model answered the text
the annotator wrote, and asking it again would score another question.
"""

from __future__ import annotations

from django.dispatch import receiver

from annotation.events import answer_changed
from annotation.models import Answer, ModelAttempt, Question
from annotation.services.model_loop import question_verdict_store
from evaluation.services.model_loop.attempts import answer_scores, is_fooled


def question_model_rescore(question: Question) -> Question:
    """Score the model's answer of the question's counting attempt against its current
    original answer; store and return the question (unchanged without an answered attempt)."""
    attempt = (
        ModelAttempt.objects.select_related("round")
        .filter(pk=question.model_attempt_id, status=ModelAttempt.Status.ANSWERED)
        .first()
        if question.model_attempt_id
        else None
    )
    answer = (
        Answer.objects.filter(question_id=question.pk, kind=Answer.Kind.ORIGINAL)
        .only("text")
        .first()
    )
    if attempt is None or answer is None:
        return question
    exact, f1 = answer_scores(attempt.model_answer, answer.text, question.campaign.language)
    fooled = is_fooled(f1, attempt.round.f1_threshold)
    question_verdict_store(question=question, exact=exact, f1=f1, fooled=fooled)
    return question


@receiver(answer_changed, dispatch_uid="evaluation.services.model_loop.review")
def _answer_changed(sender, question: Question, **kwargs) -> None:
    question_model_rescore(question)
