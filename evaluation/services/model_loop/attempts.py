"""Model in the loop (issue 15): a model answers each question while it is written.

A campaign names a model (`annotation.models.ModelKind`): the lexical baseline, a finished
baseline run's model, or a predict server. After "Add the question" the page asks it
(`attempt_make`): the answer, its EM and F1 against the annotator's span, and whether the
question fooled it (F1 under the campaign's threshold, Beat the AI's 40 % by default). Every
attempt is kept, in order; the question stored at submission takes its last one and keeps the
count. A model that is down or slow gives an attempt "unavailable", and the work goes on.
"""

from __future__ import annotations

import logging
from decimal import Decimal, InvalidOperation
from urllib.parse import urlsplit

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.models import (
    Answer,
    Campaign,
    Lease,
    ModelAttempt,
    ModelKind,
    ModelMode,
    ModelRound,
    Question,
)
from annotation.services.model_loop import (
    campaign_model_store,
    model_attempt_store,
    question_attempt_add,
    question_attempts_store,
)
from annotation.services.work import check_kind, check_open
from annotation.validation import MODEL_KEY, question_text_problems, span_problems
from core.errors import ServiceError
from core.inputs import parse_id
from core.outbound import url_problem
from core.ratelimit import RateLimited, rate_take
from core.services.jobs import job_enqueue
from core.text import has_bad_characters
from evaluation.metrics import exact_match, f1, language_normalization
from evaluation.models import BaselineRun
from evaluation.services.model_loop.ask import ModelSpec, ModelUnavailable, ask

logger = logging.getLogger(__name__)


def answer_scores(model_answer: str, answer: str, language: str) -> tuple[float, float]:
    """Return (EM, F1) in percent of the model's answer against the annotator's."""
    norm = language_normalization(language)
    return (
        round(100 * exact_match(model_answer, answer, norm), 2),
        round(100 * f1(model_answer, answer, norm), 2),
    )


def is_fooled(f1_percent: float, threshold: Decimal | float) -> bool:
    """Whether a question fooled the model: its F1 is under the threshold (Beat the AI)."""
    return f1_percent < float(threshold)


# The settings of a campaign's model (the page's and the API's fields).
MODEL_FIELDS = (
    "model_kind",
    "model_run",
    "model_url",
    "model_mode",
    "model_f1_threshold",
    "model_fooling_target",
)
# The kinds of baseline run whose model can answer: all of them, each its own way.
SERVABLE_RUNS = {
    BaselineRun.Kind.LEXICAL: "lexical",
    BaselineRun.Kind.HTTP: "http",
    BaselineRun.Kind.FINETUNE: "checkpoint",
    BaselineRun.Kind.EVALUATE: "checkpoint",
}


def model_label(kind: str, run: BaselineRun | None, url: str) -> str:
    """A model's name for people: what the pages, the rounds and the releases show."""
    if kind == ModelKind.LEXICAL:
        return "lexical"
    if kind == ModelKind.SERVER:
        return urlsplit(url).netloc or url
    if kind == ModelKind.RUN and run is not None:
        name = run.model_name or run.get_kind_display()
        return f"baseline run {run.pk} · {name}"[:200]
    return ""


def round_spec(model_round: ModelRound) -> ModelSpec:
    """The scorer's description of a round's model (`evaluation.services.model_loop.ask.ask`)."""
    kind, run = model_round.model_kind, model_round.model_run
    if kind == ModelKind.SERVER:
        return ModelSpec("http", model_round.model_url, model_round.label)
    if kind == ModelKind.RUN and run is not None:
        served = SERVABLE_RUNS[run.kind]
        if served == "http":
            return ModelSpec("http", run.model, model_round.label)
        if served == "checkpoint":
            folder = run.checkpoint if run.kind == BaselineRun.Kind.FINETUNE else run.model
            return ModelSpec("checkpoint", folder, model_round.label)
    return ModelSpec("lexical", "", model_round.label)


def _number(value, field: str, errors: dict, low, high, message: str):
    """Return the value as a Decimal in [low, high] with at most two decimals, else None."""
    if isinstance(value, bool) or value is None or value == "":
        errors[field] = [message]
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        errors[field] = [message]
        return None
    if not number.is_finite() or not low <= number <= high or number.as_tuple().exponent < -2:
        errors[field] = [message]
        return None
    return number


def _run(value, errors: dict) -> BaselineRun | None:
    message = _("Choose a finished baseline run.")
    try:
        pk = parse_id(value, "model_run")
    except ServiceError:
        errors["model_run"] = [message]
        return None
    run = BaselineRun.objects.filter(pk=pk).first()
    if run is None or run.status != BaselineRun.Status.SUCCEEDED:
        errors["model_run"] = [_("Baseline run %(id)s is not a finished run.") % {"id": pk}]
        return None
    if run.kind == BaselineRun.Kind.FINETUNE and not run.checkpoint:
        errors["model_run"] = [_("Baseline run %(id)s kept no fine-tuned model.") % {"id": pk}]
        return None
    return run


def _url(value, errors: dict) -> str:
    url = value.strip() if isinstance(value, str) else ""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(url) > 500:
        errors["model_url"] = [_("An http:// or https:// address of the predict server.")]
    elif parts.username or parts.password:
        errors["model_url"] = [_("No user name or password in the address: it is shown to users.")]
    elif has_bad_characters(url):
        errors["model_url"] = [_("The text holds characters that cannot be stored.")]
    elif problem := url_problem(url):  # checked again at each request (DNS changes)
        errors["model_url"] = [problem]
    return url


def _whole(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 3:
        return int(value.strip())
    return None


def campaign_model_check(campaign: Campaign, data: dict) -> tuple[dict, dict]:
    """Return (errors by field, clean settings) of a campaign's model in the loop."""
    errors: dict[str, list[str]] = {}
    kind = data.get("model_kind", ModelKind.NONE)
    if kind not in ModelKind.values:
        errors["model_kind"] = [
            _("Choose one of %(kinds)s.") % {"kinds": ", ".join(ModelKind.values)}
        ]
        return errors, {}
    clean = {
        "model_kind": kind,
        "model_run": None,
        "model_url": "",
        "model_mode": ModelMode.SHOW,
        "model_f1_threshold": Decimal(40),
        "model_fooling_target": 0,
    }
    if kind == ModelKind.NONE:
        return errors, clean
    if campaign.kind != Campaign.Kind.QUESTIONS:
        errors["model_kind"] = [_("A model answers the questions of a questions campaign only.")]
    if kind == ModelKind.RUN:
        clean["model_run"] = _run(data.get("model_run"), errors)
    elif kind == ModelKind.SERVER:
        clean["model_url"] = _url(data.get("model_url"), errors)
    mode = data.get("model_mode", ModelMode.SHOW)
    if mode not in ModelMode.values:
        errors["model_mode"] = [_("Choose show or adversarial.")]
    clean["model_mode"] = mode
    threshold = data.get("model_f1_threshold", Decimal(40))
    clean["model_f1_threshold"] = _number(
        threshold,
        "model_f1_threshold",
        errors,
        Decimal(0),
        Decimal(100),
        _("A percentage from 0 to 100 (at most two decimals), like 40."),
    )
    target = _whole(data.get("model_fooling_target", 0))
    high = campaign.questions_max
    if mode == ModelMode.ADVERSARIAL:
        if target is None or not 1 <= target <= high:
            errors["model_fooling_target"] = [
                _(
                    "From 1 to %(max)d: the model-fooling questions asked of each paragraph, "
                    "at most the campaign's most questions per paragraph."
                )
                % {"max": high}
            ]
        clean["model_fooling_target"] = target
    elif target not in (0, None):
        errors["model_fooling_target"] = [_("Only an adversarial campaign asks for a target.")]
    return errors, clean


def campaign_model_set(*, campaign: Campaign, data: dict, user=None) -> Campaign:
    """Set the model that answers a campaign's questions while they are written.

    A new model, or a new threshold, starts the next round (its `ModelRound`, whose job
    scores the new model on the earlier rounds' questions); the mode and the target alone
    change nothing of the rounds. "none" stops asking; the rounds stay. The rules are
    evaluation's; annotation stores the settings and the round (`campaign_model_store`).
    """
    if not isinstance(data, dict):
        raise ServiceError({"detail": [_("An object of settings.")]})
    errors, clean = campaign_model_check(campaign, data)
    if errors:
        raise ServiceError(errors)
    run = clean["model_run"]
    label = model_label(clean["model_kind"], run, clean["model_url"])
    with transaction.atomic():
        campaign, started = campaign_model_store(
            campaign=campaign, settings=clean, label=label, user=user
        )
        if started is not None and started.number > 1:
            _round_send(started, run)
    return campaign


def _round_send(model_round: ModelRound, run: BaselineRun | None) -> None:
    """Send the job of a round after the first: it scores the round's model on the earlier
    rounds' questions."""
    gpu = run is not None and SERVABLE_RUNS[run.kind] == "checkpoint"
    task = "gpu_model_round_task" if gpu else "model_round_task"
    job_enqueue(job=model_round, task=f"evaluation.tasks.{task}", queue="gpu" if gpu else None)


def campaign_model_data(campaign: Campaign) -> dict:
    """A campaign's model settings as the API shows them."""
    return {
        "campaign": campaign.pk,
        "model_kind": campaign.model_kind,
        "model_run": campaign.model_run_id,
        "model_url": campaign.model_url,
        "model_mode": campaign.model_mode,
        "model_f1_threshold": float(campaign.model_f1_threshold),
        "model_fooling_target": campaign.model_fooling_target,
        "model_round": campaign.model_round,
        "model": model_label(campaign.model_kind, campaign.model_run, campaign.model_url),
    }


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
