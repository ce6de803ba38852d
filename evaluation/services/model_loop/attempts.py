"""Model in the loop (issue 15): a model answers each question while it is written.

A campaign names a model (`annotation.models.ModelKind`): the lexical baseline, a finished
baseline run's model, or a predict server. After "Add the question" the page asks it
(`attempt_make`): the answer, its EM and F1 against the annotator's span, and whether the
question fooled it (F1 under the campaign's threshold, Beat the AI's 40 % by default). Every
attempt is kept, in order; the question stored at submission takes its last one and keeps the
count. A model that is down or slow gives an attempt "unavailable", and the work goes on.

The campaign's model settings are checked and stored by `model_loop.campaign_model`.
"""

from __future__ import annotations

import logging
from decimal import Decimal

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.models import (
    Answer,
    Lease,
    ModelAttempt,
    ModelRound,
    Question,
)
from annotation.services.model_loop import (
    model_attempt_store,
    question_attempt_add,
    question_attempts_store,
)
from annotation.services.work import check_kind, check_open
from annotation.validation import MODEL_KEY, question_text_problems, span_problems
from core.errors import ServiceError
from core.ratelimit import RateLimited, rate_take
from evaluation.metrics import exact_match, f1
from evaluation.normalization import normalization_for
from evaluation.services.model_loop.ask import ModelUnavailable, ask
from evaluation.services.model_loop.campaign_model import round_spec

logger = logging.getLogger(__name__)


def answer_scores(model_answer: str, answer: str, language: str) -> tuple[float, float]:
    """Return (EM, F1) in percent of the model's answer against the annotator's."""
    norm = normalization_for(language)
    return (
        round(100 * exact_match(model_answer, answer, norm), 2),
        round(100 * f1(model_answer, answer, norm), 2),
    )


def is_fooled(f1_percent: float, threshold: Decimal | float) -> bool:
    """Whether a question fooled the model: its F1 is under the threshold (Beat the AI)."""
    return f1_percent < float(threshold)


# Attempts: the model answers a question being written.


def _attempt_problems(paragraph: str, data) -> tuple[dict, dict]:
    if not isinstance(data, dict):
        return {"detail": [_("An object with key, text, answer_start and answer_text.")]}, {}
    problems = {}
    key = data.get("key")
    if not isinstance(key, str) or not MODEL_KEY.fullmatch(key):
        problems["key"] = _("Up to 64 letters, digits, - or _.")
    problems |= question_text_problems(data.get("text"), _)
    problems |= span_problems(paragraph, data.get("answer_start"), data.get("answer_text"), _)
    if problems:
        return {field: [message] for field, message in problems.items()}, {}
    return {}, {
        "key": key,
        "text": " ".join(data["text"].split()),  # as the submission stores it
        "answer_start": data["answer_start"],
        "answer_text": data["answer_text"],
    }


def attempt_make(*, lease: Lease, data) -> ModelAttempt:
    """Ask the campaign's model the question being written; keep the attempt, in order.

    The model is asked outside any transaction (it may take a while, or not answer): an
    attempt is recorded either way, "unavailable" when the model is down or slow, and the
    annotator goes on. Nothing is written when the input is refused.
    """
    campaign = lease.campaign
    check_open(lease)
    check_kind(lease, Lease.Kind.WRITE)
    if not campaign.has_model:
        raise ServiceError(
            {"campaign": [_("No model answers this campaign's questions.")]}, status=409
        )
    errors, clean = _attempt_problems(lease.paragraph.text, data)
    if errors:
        raise ServiceError(errors)
    _attempt_allowed(lease)
    return _attempt_record(lease, clean)


def _attempt_allowed(lease: Lease) -> None:
    """Count the annotator's attempt; raise RateLimited (429) past MODEL_ATTEMPTS_RATE: each
    attempt may send a request to a model server."""
    wait = rate_take(
        scope="model-attempts", who=lease.annotator_id, rate=settings.MODEL_ATTEMPTS_RATE
    )
    if wait is not None:
        message = ngettext(
            "You asked the model too many questions in a short time. Try again in %(seconds)d "
            "second.",
            "You asked the model too many questions in a short time. Try again in %(seconds)d "
            "seconds.",
            wait,
        ) % {"seconds": wait}
        raise RateLimited({"detail": [message]}, retry_after=wait)


def _attempt_record(lease: Lease, clean: dict) -> ModelAttempt:
    """Ask the current round's model and record the attempt (checked input)."""
    campaign = lease.campaign
    model_round = (
        ModelRound.objects.select_related("model_run")
        .filter(campaign=campaign, number=campaign.model_round)
        .first()
    )
    if model_round is None:  # set by hand around the service: no round to record it in
        raise ServiceError(
            {"campaign": [_("No model answers this campaign's questions.")]}, status=409
        )
    scores = {"status": ModelAttempt.Status.UNAVAILABLE, "milliseconds": 0}
    try:
        reply = ask(round_spec(model_round), lease.paragraph.text, clean["text"])
    except ModelUnavailable as error:
        logger.warning("model of campaign %s unavailable: %s", campaign.pk, error)
    else:
        exact, overlap = answer_scores(reply.text, clean["answer_text"], campaign.language)
        scores = {
            "status": ModelAttempt.Status.ANSWERED,
            "model_answer": reply.text,
            "model_answer_start": reply.start,
            "exact_match": exact,
            "f1": overlap,
            "fooled": is_fooled(overlap, model_round.f1_threshold),
            "milliseconds": reply.milliseconds,
        }
    return model_attempt_store(lease=lease, model_round=model_round, clean=clean, scores=scores)


def attempt_data(attempt: ModelAttempt) -> dict:
    """An attempt as the page and the API read it."""
    return {
        "id": attempt.pk,
        "key": attempt.key,
        "number": attempt.number,
        "status": attempt.status,
        "model": attempt.round.label,
        "round": attempt.round.number,
        "threshold": float(attempt.round.f1_threshold),
        "text": attempt.text,
        "answer_start": attempt.answer_start,
        "answer_text": attempt.answer_text,
        "model_answer": attempt.model_answer if attempt.status == "answered" else None,
        "model_answer_start": attempt.model_answer_start,
        "exact_match": attempt.exact_match,
        "f1": attempt.f1,
        "fooled": attempt.fooled,
        "milliseconds": attempt.milliseconds,
    }


# Submission: each stored question takes its attempts.


def on_questions_written(sender, *, lease: Lease, questions, keys, **kwargs) -> None:
    """Give each question just stored its attempts and the model's verdict on it.

    The last attempt counts when it was answered for the question's final text; its EM/F1
    are computed again against the stored answer (the span may have moved since). Otherwise
    (the text changed after it, the model was unavailable, or the page never asked), the
    model is asked after the commit, by a task (`model_answers_fill`).
    """
    campaign = lease.campaign
    keyed = {key: question for key, question in zip(keys, questions, strict=True) if key}
    if not keyed and not campaign.has_model:
        return  # the usual case: no statement at all
    tries: dict[str, list[ModelAttempt]] = {}
    if keyed:
        attempts = ModelAttempt.objects.filter(lease=lease, key__in=keyed).select_related("round")
        for attempt in attempts.order_by("key", "number"):
            tries.setdefault(attempt.key, []).append(attempt)
    waiting = []
    for key, question in zip(keys, questions, strict=True):
        if question.is_impossible:
            continue
        mine = tries.get(key, []) if key else []
        fields = {"model_attempts": len(mine)}
        last = mine[-1] if mine else None
        if last and last.status == ModelAttempt.Status.ANSWERED and last.text == question.text:
            fields |= _verdict(last, question.answers_stored[0].text, campaign.language)
        elif campaign.has_model:
            waiting.append(question.pk)
        if not mine:
            continue
        question_attempts_store(question=question, attempts=mine, fields=fields)
    if waiting:
        transaction.on_commit(lambda: _send_fill(waiting))


def _verdict(attempt: ModelAttempt, answer: str, language: str) -> dict:
    exact, overlap = answer_scores(attempt.model_answer, answer, language)
    return {
        "model_attempt": attempt,
        "model_exact": exact,
        "model_f1": overlap,
        "model_fooled": is_fooled(overlap, attempt.round.f1_threshold),
    }


def _send_fill(question_pks: list[int]) -> None:
    try:
        current_app.send_task(
            "evaluation.tasks.model_answers_fill_task",
            kwargs={"question_pks": question_pks},
            retry=False,
        )
    except Exception:  # the broker is down: the questions stay without a verdict
        logger.exception("could not ask the model about questions %s", question_pks)


def model_answers_fill(*, question_pks: list[int]) -> int:
    """Ask the model about submitted questions that have no verdict yet; return how many
    got one. A question that has one already is left alone (a redelivered task)."""
    done = 0
    questions = (
        Question.objects.filter(pk__in=question_pks, model_attempt__isnull=True)
        .exclude(is_impossible=True)
        .select_related("campaign", "paragraph", "lease")
    )
    for question in questions:
        answer = question.answers.filter(kind=Answer.Kind.ORIGINAL).first()
        if answer is None or question.lease is None or not question.campaign.has_model:
            continue
        lease = question.lease
        lease.campaign, lease.paragraph = question.campaign, question.paragraph
        clean = {
            "key": f"q{question.pk}",  # the model's check at submission: its own row
            "text": question.text,
            "answer_start": answer.answer_start,
            "answer_text": answer.text,
        }
        attempt = _attempt_record(lease, clean)
        verdict = {}
        if attempt.status == ModelAttempt.Status.ANSWERED:
            verdict = _verdict(attempt, answer.text, question.campaign.language)
            done += 1
        question_attempt_add(question=question, attempt=attempt, verdict=verdict)
    return done
