"""The model in the loop's tables: a campaign's model settings, its rounds, the attempts and
each question's verdict.

They are annotation's rows, so annotation writes them; evaluation decides (it checks the
settings, asks the model, scores its answers: docs/model-in-the-loop.md) and hands the values
to these functions. Evaluation's functions call them inside their own transaction where they
have one, so each use case still commits as one.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from annotation.models import Campaign, Lease, ModelAttempt, ModelRound, Question


def _identity(kind, run_id, url, threshold) -> tuple:
    return (kind, run_id, url, Decimal(threshold).quantize(Decimal("0.01")))


def campaign_model_store(
    *, campaign: Campaign, settings: dict, label: str, user=None
) -> tuple[Campaign, ModelRound | None]:
    """Store a campaign's model settings (checked by evaluation's `campaign_model_check`).

    A new model, or a new threshold, starts the next round, labelled `label`: round 1 is done
    at once (no earlier questions to score), a later one is returned pending, for the caller
    to send its job in the same transaction. The mode and the target alone change nothing of
    the rounds. Return the campaign and the round started (None when none was).
    """
    run = settings["model_run"]
    started = None
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        current = (
            ModelRound.objects.filter(campaign=campaign, number=campaign.model_round).first()
            if campaign.model_round
            else None
        )
        for name, value in settings.items():
            setattr(campaign, name, value)
        if campaign.has_model:
            wanted = _identity(
                settings["model_kind"],
                run.pk if run else None,
                settings["model_url"],
                settings["model_f1_threshold"],
            )
            before = current and _identity(
                current.model_kind, current.model_run_id, current.model_url, current.f1_threshold
            )
            if wanted != before:
                campaign.model_round += 1
                started = _round_create(campaign, run, label, user)
        campaign.save()
    return campaign, started


def _round_create(campaign: Campaign, run, label: str, user) -> ModelRound:
    first = campaign.model_round == 1
    done = {"status": ModelRound.Status.SUCCEEDED, "progress": 100, "finished_at": timezone.now()}
    return ModelRound.objects.create(
        **(done if first else {}),
        campaign=campaign,
        number=campaign.model_round,
        model_kind=campaign.model_kind,
        model_run=run,
        model_url=campaign.model_url,
        label=label,
        f1_threshold=campaign.model_f1_threshold,
        created_by=user,
    )


def model_round_results_store(*, model_round: ModelRound, results: dict) -> None:
    """Store the figures of a round's job (the caller marks the job done in the same
    transaction)."""
    ModelRound.objects.filter(pk=model_round.pk).update(results=results)
    model_round.results = results


def model_attempt_store(
    *, lease: Lease, model_round: ModelRound, clean: dict, scores: dict
) -> ModelAttempt:
    """Record an attempt of the question `clean["key"]` of the lease, numbered after the
    earlier ones."""
    with transaction.atomic():
        # The lease's row lock numbers a question's attempts one after the other.
        Lease.objects.select_for_update().filter(pk=lease.pk).values_list("pk").first()
        last = (
            ModelAttempt.objects.filter(lease=lease, key=clean["key"])
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
        )
        attempt = ModelAttempt.objects.create(
            campaign=lease.campaign,
            lease=lease,
            round=model_round,
            number=(last or 0) + 1,
            **clean,
            **scores,
        )
    attempt.round = model_round
    return attempt


def question_attempts_store(*, question: Question, attempts: list, fields: dict) -> None:
    """Give a question just stored its attempts, their count and the model's verdict
    (`fields`: `model_attempts`, and the `model_*` fields when an attempt counts)."""
    ModelAttempt.objects.filter(pk__in=[a.pk for a in attempts]).update(question=question)
    Question.objects.filter(pk=question.pk).update(**fields)
    for name, value in fields.items():
        setattr(question, name, value)


def question_attempt_add(*, question: Question, attempt: ModelAttempt, verdict: dict) -> None:
    """Add the model's check at submission to a question that has no verdict yet: one more
    attempt, and its verdict (`verdict`, empty when the model did not answer)."""
    with transaction.atomic():
        ModelAttempt.objects.filter(pk=attempt.pk).update(question=question)
        fields = {"model_attempts": F("model_attempts") + 1} | verdict
        Question.objects.filter(pk=question.pk, model_attempt__isnull=True).update(**fields)


def question_verdict_store(*, question: Question, exact: float, f1: float, fooled: bool) -> None:
    """Store the model's scores of a question scored again (its original answer changed)."""
    Question.objects.filter(pk=question.pk).update(
        model_exact=exact, model_f1=f1, model_fooled=fooled
    )
    question.model_exact, question.model_f1, question.model_fooled = exact, f1, fooled
