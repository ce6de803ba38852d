"""A campaign's model in the loop: its settings checked and stored, its label, the round
it asks."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from urllib.parse import urlsplit

from django.db import transaction
from django.utils.translation import gettext as _

from annotation.models import (
    Campaign,
    ModelKind,
    ModelMode,
    ModelRound,
)
from annotation.services.model_loop import (
    campaign_model_store,
)
from core.errors import ServiceError
from core.inputs import parse_id
from core.outbound import url_problem
from core.services.jobs import job_enqueue
from core.text import has_bad_characters
from evaluation.models import BaselineRun
from evaluation.services.model_loop.ask import ModelSpec

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
    clean = _model_defaults(kind)
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
    target = _target(data.get("model_fooling_target", 0), mode, campaign.questions_max, errors)
    if mode == ModelMode.ADVERSARIAL:
        clean["model_fooling_target"] = target
    return errors, clean


def _model_defaults(kind: str) -> dict:
    """Return the settings of a campaign's model before the form's are read."""
    return {
        "model_kind": kind,
        "model_run": None,
        "model_url": "",
        "model_mode": ModelMode.SHOW,
        "model_f1_threshold": Decimal(40),
        "model_fooling_target": 0,
    }


def _target(value, mode: str, high: int, errors: dict) -> int | None:
    """Return the model-fooling target: from 1 to the campaign's most questions per paragraph
    in adversarial mode, none (0) otherwise."""
    target = _whole(value)
    if mode == ModelMode.ADVERSARIAL:
        if target is None or not 1 <= target <= high:
            errors["model_fooling_target"] = [
                _(
                    "From 1 to %(max)d: the model-fooling questions asked of each paragraph, "
                    "at most the campaign's most questions per paragraph."
                )
                % {"max": high}
            ]
    elif target not in (0, None):
        errors["model_fooling_target"] = [_("Only an adversarial campaign asks for a target.")]
    return target


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
