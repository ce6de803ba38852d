"""A campaign's learning curve: the newest finished curve its questions are in, the
estimate the dashboard shows, and the proposed question-type targets accepted
(annotation's campaign service)."""

from __future__ import annotations

from annotation.models import Campaign, Question, QuestionType
from annotation.selectors.reports import counted_leases, seconds_worked
from annotation.services.campaigns import campaign_update
from evaluation.models import BaselineRun


def campaign_learning_run(campaign: Campaign) -> BaselineRun | None:
    """Return the newest finished learning curve whose release's train split holds questions
    written in this campaign (the run recorded them in `curve["campaigns"]`)."""
    return (
        BaselineRun.objects.filter(
            kind=BaselineRun.Kind.LEARNING_CURVE,
            status=BaselineRun.Status.SUCCEEDED,
            curve__campaigns__has_key=str(campaign.pk),
        )
        .select_related("release")
        .order_by("-finished_at", "-pk")
        .first()
    )


def campaign_seconds_per_question(campaign: Campaign) -> tuple[float, bool]:
    """Return (seconds per question, measured): the campaign's worked time (the hours report's
    definition: counted leases, capped at the lease length) over its questions; the
    guideline pace (`seconds_per_question`) when nothing is measured yet."""
    questions = Question.objects.filter(campaign=campaign).count()
    seconds = seconds_worked(counted_leases().filter(campaign=campaign))
    if questions and seconds:
        return seconds / questions, True
    return float(campaign.seconds_per_question), False


def campaign_learning_estimate(*, campaign: Campaign) -> dict | None:
    """Return the learning-curve estimate beside the campaign's annotation cost, or None when
    no finished curve covers the campaign. Doubling the data is today's train questions
    more; its cost is that many questions at the campaign's measured pace."""
    run = campaign_learning_run(campaign)
    if run is None:
        return None
    curve = run.curve
    n_today = curve.get("n_today") or curve.get("train_questions") or 0
    estimates = {row["times"]: row for row in curve.get("estimates", [])}
    per_question, measured = campaign_seconds_per_question(campaign)
    double = estimates.get(2, {})
    labels = dict(QuestionType.choices)
    types = [
        {"type": name, "label": labels.get(name, name), **row}
        for name, row in curve.get("types", {}).get("question_type", {}).items()
    ]
    return {
        "run": run,
        "fit": curve.get("fit", {}),
        "n_today": n_today,
        "more_questions": n_today,
        "hours": n_today * per_question / 3600,
        "seconds_per_question": per_question,
        "measured": measured,
        "gain": double.get("gain"),
        "gain_low": double.get("gain_low"),
        "gain_high": double.get("gain_high"),
        "helps": bool(curve.get("helps")),
        "overall_f1": curve.get("overall_f1"),
        "estimates": [estimates[k] for k in sorted(estimates) if k > 1],
        "types": types,
        "proposal": curve.get("proposal", {}),
    }


def campaign_targets_accept(*, campaign: Campaign, targets) -> Campaign:
    """Save question-type targets an admin accepted or edited (the campaign's own checks:
    known types, whole percents from 0 to 100, at most 100 in all)."""
    if isinstance(targets, dict):
        targets = {k: v for k, v in targets.items() if v is not None}
    return campaign_update(campaign=campaign, question_type_targets=targets)
