"""Use cases of annotation: campaigns for now."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.guidelines import default_guidelines
from annotation.models import Campaign, QuestionType
from annotation.services.items import items_sync
from core.errors import ServiceError
from core.i18n import interpolate
from corpus.models import Split
from corpus.services.articles import check_language

FIELDS = (
    "name",
    "kind",
    "language",
    "splits",
    "questions_min",
    "questions_max",
    "review_rate",
    "review_warmup",
    "review_warmup_rate",
    "review_adaptive",
    "review_floor",
    "review_ceiling",
    "review_error_bar",
    "gold_share",
    "qualification_questions",
    "qualification_bar",
    "extra_answers",
    "unanswerable_per_paragraph",
    "lease_minutes",
    "seconds_per_question",
    "question_type_targets",
    "guidelines",
    "active",
)


def _check_bounds(data: dict, errors: dict) -> None:
    """Refuse each number out of its bounds, by field (in the form's order)."""
    _check_question_counts(data, errors)
    _check_work_sizes(data, errors)
    _check_review_rates(data, errors)
    _check_qualification(data, errors)
    warmup = data["review_warmup"]
    if not isinstance(warmup, int) or isinstance(warmup, bool) or not 0 <= warmup <= 1000:
        errors["review_warmup"] = [_("A whole number of questions from 0 to 1,000.")]


def _check_question_counts(data: dict, errors: dict) -> None:
    """The fewest and most questions per paragraph: 1 to 10, and room for the model-fooling
    questions the campaign asks for."""
    low, high = data["questions_min"], data["questions_max"]
    if not 1 <= low <= 10:
        errors["questions_min"] = [_("Between 1 and 10.")]
    if not low <= high <= 10:
        errors["questions_max"] = [_("Between the fewest questions and 10.")]
    elif high < data.get("model_fooling_target", 0):  # set beside the model in the loop
        errors["questions_max"] = [
            ngettext(
                "At least the %(count)d model-fooling question the campaign asks for.",
                "At least the %(count)d model-fooling questions the campaign asks for.",
                data["model_fooling_target"],
            )
            % {"count": data["model_fooling_target"]}
        ]


def _check_work_sizes(data: dict, errors: dict) -> None:
    """The lease's minutes, the pace guide, the additional answers and the unanswerable
    questions per paragraph (a questions campaign's only)."""
    if not 5 <= data["lease_minutes"] <= 1440:
        errors["lease_minutes"] = [_("Between 5 and 1440 minutes.")]
    seconds = data["seconds_per_question"]
    if not isinstance(seconds, int) or isinstance(seconds, bool) or not 10 <= seconds <= 3600:
        errors["seconds_per_question"] = [_("A whole number of seconds from 10 to 3,600.")]
    if not 0 <= data["extra_answers"] <= 5:
        errors["extra_answers"] = [_("Between 0 and 5.")]
    unanswerable = data["unanswerable_per_paragraph"]
    if not isinstance(unanswerable, int) or isinstance(unanswerable, bool):
        errors["unanswerable_per_paragraph"] = [_("A whole number from 0 to 5.")]
    elif not 0 <= unanswerable <= 5:
        errors["unanswerable_per_paragraph"] = [_("Between 0 and 5.")]
    elif unanswerable and data["kind"] != Campaign.Kind.QUESTIONS:
        errors["unanswerable_per_paragraph"] = [
            _("Only a questions campaign asks for unanswerable questions beside the others.")
        ]


def _check_review_rates(data: dict, errors: dict) -> None:
    """The review sampling's shares and its adaptive switch (docs/quality.md), the floor at
    most the ceiling, and the gold questions' share (at most half)."""
    for name in ("review_rate", "review_warmup_rate", "review_floor", "review_ceiling"):
        if not _is_share(data[name]):
            errors[name] = [_("A share from 0 to 1 with at most two decimals, like 0.25.")]
    if not _is_share(data["review_error_bar"]):
        errors["review_error_bar"] = [
            _("A share from 0 to 1 with at most two decimals, like 0.15.")
        ]
    if not _is_share(data["gold_share"]) or Decimal(str(data["gold_share"])) > Decimal("0.5"):
        errors["gold_share"] = [_("A share from 0 to 0.5 with at most two decimals, like 0.05.")]
    if not isinstance(data["review_adaptive"], bool):
        errors["review_adaptive"] = [_("true or false.")]
    if (
        "review_floor" not in errors
        and "review_ceiling" not in errors
        and Decimal(str(data["review_floor"])) > Decimal(str(data["review_ceiling"]))
    ):
        errors["review_ceiling"] = [_("At least the lowest review rate.")]


def _whole(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_qualification(data: dict, errors: dict) -> None:
    """The qualification round (docs/quality.md): 0 to 50 gold questions, a bar of 0 to 100."""
    if not _whole(data["qualification_questions"], 0, 50):
        errors["qualification_questions"] = [
            _("A whole number of gold questions from 0 (no round) to 50.")
        ]
    if not _whole(data["qualification_bar"], 0, 100):
        errors["qualification_bar"] = [_("A whole mean F1 from 0 to 100.")]


def _is_share(value) -> bool:
    try:
        rate = Decimal(str(value))
    except InvalidOperation:
        return False
    return rate.is_finite() and Decimal(0) <= rate <= Decimal(1) and rate.as_tuple().exponent >= -2


def _check_targets(targets, errors: dict) -> None:
    if not isinstance(targets, dict) or any(k not in QuestionType.values for k in targets):
        errors["question_type_targets"] = [
            _("Targets are {type: percent} for the types %(types)s.")
            % {"types": ", ".join(QuestionType.values)}
        ]
        return
    values = list(targets.values())
    if any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 100 for v in values):
        errors["question_type_targets"] = [_("Each target is a whole percent from 0 to 100.")]
    elif sum(values) > 100:
        errors["question_type_targets"] = [_("The targets add up to more than 100%.")]


def campaign_check(data: dict) -> dict[str, list[str]]:
    """Return the problems of a campaign's settings, by field."""
    errors: dict[str, list[str]] = {}
    if not str(data["name"]).strip():
        errors["name"] = [_("Give the campaign a name.")]
    if data["kind"] not in Campaign.Kind.values:
        errors["kind"] = [_("Unknown kind “%(kind)s”.") % {"kind": data["kind"]}]
    splits = data["splits"]
    if not isinstance(splits, list) or not splits or any(s not in Split.values for s in splits):
        errors["splits"] = [_("Choose one or more of train, dev, test.")]
    elif data["kind"] == Campaign.Kind.ADDITIONAL_ANSWERS and "train" in splits:
        errors["splits"] = [_("Additional answers are collected on dev and test only.")]
    errors |= check_language(str(data["language"]))
    _check_bounds(data, errors)
    _check_targets(data["question_type_targets"], errors)
    _check_guidelines(data["guidelines"], errors)
    return errors


def _check_guidelines(guidelines, errors: dict) -> None:
    """Markdown text of at most `Campaign.GUIDELINES_MAX_LENGTH` characters."""
    if not isinstance(guidelines, str):
        errors["guidelines"] = [_("Guidelines are Markdown text.")]
    elif len(guidelines) > Campaign.GUIDELINES_MAX_LENGTH:
        errors["guidelines"] = [
            interpolate(
                _("At most %(max)d characters: these guidelines have %(count)d."),
                {"max": Campaign.GUIDELINES_MAX_LENGTH, "count": len(guidelines)},
            )
        ]


# The settings that decide which items a campaign offers (`annotation.services.items`).
ITEM_FIELDS = ("kind", "language", "splits", "extra_answers", "active")


def _save(campaign: Campaign, data: dict) -> Campaign:
    errors = campaign_check(data)
    if errors:
        raise ServiceError(errors)
    before = None if campaign.pk is None else [getattr(campaign, n) for n in ITEM_FIELDS]
    for name in FIELDS:
        setattr(campaign, name, data[name])
    campaign.name = campaign.name.strip()
    campaign.splits = [s for s in Split.values if s in data["splits"]]  # canonical order
    with transaction.atomic():
        try:
            with transaction.atomic():
                campaign.save()
        except IntegrityError:
            raise ServiceError({"name": [_("Another campaign has this name.")]}) from None
        if before != [getattr(campaign, name) for name in ITEM_FIELDS]:
            items_sync(campaign=campaign)
    return campaign


def campaign_defaults(kind: str = Campaign.Kind.QUESTIONS) -> dict:
    """Return the settings of a new campaign of this kind: FQuAD's protocol (FQuAD 2.0's and
    SQuAD 2.0's for unanswerable questions: 1 to 5 per paragraph)."""
    answering = kind == Campaign.Kind.ADDITIONAL_ANSWERS
    unanswerable = kind == Campaign.Kind.UNANSWERABLE
    return {
        "name": "",
        "kind": kind,
        "language": settings.WIKIPEDIA_LANGUAGE,  # the platform's language
        "splits": ["dev", "test"] if answering else list(Split.values),
        "questions_min": 1 if unanswerable else 3,
        "questions_max": 5,
        "review_rate": Decimal("0.25"),
        "review_warmup": 0,
        "review_warmup_rate": Decimal("1.00"),
        "review_adaptive": False,
        "review_floor": Decimal("0.05"),
        "review_ceiling": Decimal("0.40"),
        "review_error_bar": Decimal("0.15"),
        "gold_share": Decimal("0.00"),
        "qualification_questions": 0,
        "qualification_bar": 70,
        "extra_answers": 2,
        "unanswerable_per_paragraph": 0,
        "lease_minutes": 30,
        "seconds_per_question": 30 if answering else 60,
        "question_type_targets": {},
        "guidelines": "",
        "active": True,
    }


def campaign_create(*, created_by=None, **fields) -> Campaign:
    """Create a campaign; fields left out take FQuAD's defaults.

    Without guidelines (left out or blank), it starts with FQuAD's, in its language
    (`annotation.guidelines`), saying its own number of questions and pace.
    """
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown campaign fields: {sorted(unknown)}")
    data = campaign_defaults(fields.get("kind", Campaign.Kind.QUESTIONS)) | fields
    if not str(data["guidelines"] or "").strip() and not campaign_check(data):
        data["guidelines"] = default_guidelines(
            kind=data["kind"],
            language=data["language"],
            low=data["questions_min"],
            high=data["questions_max"],
            seconds=data["seconds_per_question"],
            unanswerable=data["unanswerable_per_paragraph"],
        )
    return _save(Campaign(created_by=created_by), data)


def campaign_update(*, campaign: Campaign, **fields) -> Campaign:
    """Change some settings of a campaign; the others stay as they are."""
    current = {name: getattr(campaign, name) for name in FIELDS}
    current["model_fooling_target"] = campaign.model_fooling_target  # checked, not changed here
    return _save(campaign, current | fields)
