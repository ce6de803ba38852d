"""Model rounds (issue 15, Beat the AI): how each model of a campaign's loop was fooled, and
how each later model does on the questions written against the earlier ones.

A campaign's first model is its round 1; each switch to another model starts the next round
(`annotation.models.ModelRound`, recorded by `evaluation.services.model_loop.attempts`). A round's
job
(`model_round_execute`) scores that round's model on the questions of the earlier rounds, in
one batch, as a baseline run scores a release: the non-rejected answerable questions whose
counting attempt (`Question.model_attempt`) belongs to an earlier round, with their current
text, against their current original answer, with the campaign language's normalization, and
"fooled" with this round's threshold.

`model_rounds_report` reads, per campaign, the rounds table (the figures of the questions
written in each round) and the matrix (row: the round the questions were written in; column:
a model; cell: its F1 and fooling rate on them).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Avg, Count, F, Q, Sum
from django.utils.translation import gettext_noop

from annotation.models import Answer, Campaign, ModelKind, ModelRound, Question
from annotation.services.model_loop import model_round_results_store
from core.i18n import Text
from core.services.jobs import job_run, job_succeed
from evaluation.baselines.lexical import predict_all
from evaluation.baselines.mrqa_client import predict_over_http
from evaluation.run_predict import run_predict
from evaluation.services.baselines.execute import mrqa_contexts
from evaluation.services.model_loop.attempts import answer_scores, is_fooled


def _rate(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 2) if whole else None


# --- the job ------------------------------------------------------------------------------


def _earlier_questions(model_round: ModelRound) -> list[Question]:
    """The questions the round's model is scored on, by paragraph (a context is read once)."""
    return list(
        Question.objects.filter(
            campaign_id=model_round.campaign_id,
            is_impossible=False,
            model_attempt__round__campaign_id=model_round.campaign_id,
            model_attempt__round__number__lt=model_round.number,
        )
        .exclude(status=Question.Status.REJECTED)
        .select_related("paragraph")
        .only("id", "text", "paragraph__text")
        .annotate(written_in=F("model_attempt__round__number"))
        .order_by("paragraph_id", "position", "id")
    )


def _original_answers(questions: list[Question]) -> dict[int, str]:
    rows = Answer.objects.filter(
        question__in=[q.pk for q in questions], kind=Answer.Kind.ORIGINAL
    ).values_list("question_id", "text")
    return dict(rows)


def _predict(model_round: ModelRound, examples: list[dict]) -> dict[str, str]:
    """Return {example id: answer} of the round's model, for all the examples at once."""
    kind = model_round.model_kind
    if kind == ModelKind.LEXICAL:
        return predict_all(examples)
    if kind == ModelKind.SERVER:
        return predict_over_http(model_round.model_url, mrqa_contexts(examples))
    if kind == ModelKind.RUN and model_round.model_run_id:
        return run_predict(model_round.model_run, examples, in_the_loop=True)
    raise RuntimeError(f"round {model_round.number} has no model to score")


def _figures(scores: list[tuple[float, float, bool]]) -> dict:
    n = len(scores)
    fooled = sum(1 for _em, _f1, was_fooled in scores if was_fooled)
    return {
        "questions": n,
        "exact_match": round(sum(em for em, _f1, _x in scores) / n, 2) if n else None,
        "f1": round(sum(f1 for _em, f1, _x in scores) / n, 2) if n else None,
        "fooled": fooled,
        "fooled_rate": _rate(fooled, n),
    }


def _work(model_round: ModelRound, report) -> Text:
    questions = _earlier_questions(model_round)
    answers = _original_answers(questions)
    questions = [q for q in questions if answers.get(q.pk)]
    by_round: dict[int, list[tuple[float, float, bool]]] = {
        number: [] for number in range(1, model_round.number)
    }
    if questions:
        _score_questions(model_round, questions, answers, by_round, report)
    results = {
        "rounds": {str(number): _figures(scores) for number, scores in sorted(by_round.items())},
        "model": model_round.label,
    }
    message = Text.counted(
        gettext_noop("%(n)d question of the earlier rounds scored"),
        gettext_noop("%(n)d questions of the earlier rounds scored"),
        "n",
        {"n": len(questions)},
    )
    with transaction.atomic():  # the results and "done" commit together
        model_round_results_store(model_round=model_round, results=results)
        job_succeed(model_round, message)
    return message


def _score_questions(model_round: ModelRound, questions, answers: dict, by_round, report):
    """Ask the round's model the questions and add each one's (EM, F1, fooled) to the round
    it was written in."""
    predicting = Text.counted(
        gettext_noop("predicting %(n)d question"),
        gettext_noop("predicting %(n)d questions"),
        "n",
        {"n": len(questions)},
    )
    report(10, predicting)
    examples = [
        {"id": str(q.pk), "context": q.paragraph.text, "question": q.text} for q in questions
    ]
    predictions = _predict(model_round, examples)
    report(90, Text(gettext_noop("scoring")))
    language = Campaign.objects.values_list("language", flat=True).get(pk=model_round.campaign_id)
    for question in questions:
        em, f1 = answer_scores(
            predictions.get(str(question.pk), ""), answers[question.pk], language
        )
        fooled = is_fooled(f1, model_round.f1_threshold)
        by_round.setdefault(question.written_in, []).append((em, f1, fooled))


def model_round_execute(*, round: ModelRound) -> None:  # noqa: A002 (the spec's name)
    """Score the round's model on the earlier rounds' questions, as its job (a redelivered
    task for a finished round does nothing)."""
    job_run(round, _work)


def model_round_run(*, job_pk: int) -> None:
    """Load a round by its job id and run it unless it finished (what its tasks call)."""
    model_round = ModelRound.to_run(job_pk, ModelRound.objects.select_related("model_run"))
    if model_round is not None:
        model_round_execute(round=model_round)


# --- the report ---------------------------------------------------------------------------

_COUNTED = ~Q(status=Question.Status.REJECTED) & Q(is_impossible=False, model_f1__isnull=False)
_VALIDATED = Q(model_fooled=True, status__in=[Question.Status.APPROVED, Question.Status.CORRECTED])


def _written_figures(questions) -> dict[int, dict]:
    """Per round id: the questions whose counting attempt belongs to it, in one query."""
    rows = (
        questions.filter(model_attempt__isnull=False)
        .values("model_attempt__round_id")
        .annotate(
            written=Count("pk"),
            answered=Count("pk", filter=Q(model_fooled__isnull=False)),
            fooled=Count("pk", filter=Q(model_fooled=True)),
            validated=Count("pk", filter=_VALIDATED),
            attempts=Sum("model_attempts"),
            scored=Count("pk", filter=_COUNTED),
            scored_fooled=Count("pk", filter=_COUNTED & Q(model_fooled=True)),
            scored_exact=Avg("model_exact", filter=_COUNTED),
            scored_f1=Avg("model_f1", filter=_COUNTED),
        )
        .order_by()
    )
    return {row["model_attempt__round_id"]: row for row in rows}


def _round_row(model_round: ModelRound, figures: dict) -> dict:
    written = figures.get("written", 0)
    answered = figures.get("answered", 0)
    return {
        "round": model_round,
        "number": model_round.number,
        "label": model_round.label,
        "model_kind": model_round.model_kind,
        "model_run": model_round.model_run_id,
        "f1_threshold": float(model_round.f1_threshold),
        "questions": written,
        "answered": answered,
        "fooled": figures.get("fooled", 0),
        "fooled_rate": _rate(figures.get("fooled", 0), answered),
        "validated": figures.get("validated", 0),
        "validated_rate": _rate(figures.get("validated", 0), answered),
        "attempts_per_question": (
            round(figures["attempts"] / written, 2) if written and figures["attempts"] else None
        ),
    }


def _own_cell(model_round: ModelRound, figures: dict) -> dict:
    """The round's own model on its own questions: the answers given while they were written,
    scored against the current answer (what the job scores a later model on)."""
    scored = figures.get("scored", 0)
    average = figures.get("scored_f1")
    exact = figures.get("scored_exact")
    return {
        "model_round": model_round.number,
        "own": True,
        "status": ModelRound.Status.SUCCEEDED,
        "job": None,
        "questions": scored,
        "exact_match": None if exact is None else round(exact, 2),
        "f1": None if average is None else round(average, 2),
        "fooled": figures.get("scored_fooled", 0),
        "fooled_rate": _rate(figures.get("scored_fooled", 0), scored),
    }


def _later_cell(row_number: int, model: ModelRound) -> dict:
    cell = {"model_round": model.number, "own": False, "status": model.status, "job": model}
    if model.status != ModelRound.Status.SUCCEEDED:
        return cell
    figures = model.results.get("rounds", {}).get(str(row_number))
    if figures is None:  # a round numbered after the job ran: nothing to show
        return cell
    return cell | {
        key: figures.get(key) for key in ("questions", "exact_match", "f1", "fooled", "fooled_rate")
    }


def _report(campaign: Campaign, model_rounds: list[ModelRound], figures: dict) -> dict:
    rows = [_round_row(r, figures.get(r.pk, {})) for r in model_rounds]
    matrix = []
    for question_round in model_rounds:
        own = figures.get(question_round.pk, {})
        cells = []
        for model in model_rounds:
            if model.number < question_round.number:
                cells.append(None)
            elif model.number == question_round.number:
                cells.append(_own_cell(question_round, own))
            else:
                cells.append(_later_cell(question_round.number, model))
        matrix.append({"round": question_round.number, "cells": cells})
    return {"campaign": campaign, "rounds": rows, "matrix": matrix}


def campaign_model_rounds(campaign: Campaign) -> dict:
    """Return one campaign's rounds table and matrix (two queries).

    `rounds`: per round, its model and threshold, the questions written in it (their counting
    attempt is of this round), how many the model answered, fooled (and the rate among the
    answered), the validated fooled (fooled, and approved or corrected and still fooled), and
    the attempts per question. `matrix`: per round of questions, a cell per model: nothing for
    an earlier model, the round's own model (answers given while written, non-rejected
    answerable questions), and each later model's job results (or its job's status).
    """
    model_rounds = list(
        ModelRound.objects.filter(campaign=campaign).select_related("model_run").order_by("number")
    )
    figures = _written_figures(Question.objects.filter(campaign=campaign))
    return _report(campaign, model_rounds, figures)


def model_rounds_report() -> list[dict]:
    """Every campaign that has model rounds, by name, with its table and matrix: two queries
    however many campaigns there are."""
    model_rounds = list(
        ModelRound.objects.select_related("campaign", "model_run").order_by(
            "campaign__name", "campaign_id", "number"
        )
    )
    if not model_rounds:
        return []
    campaign_ids = {r.campaign_id for r in model_rounds}
    figures = _written_figures(Question.objects.filter(campaign_id__in=campaign_ids))
    by_campaign: dict[int, list[ModelRound]] = {}
    for model_round in model_rounds:
        by_campaign.setdefault(model_round.campaign_id, []).append(model_round)
    return [_report(rounds[0].campaign, rounds, figures) for rounds in by_campaign.values()]
