"""A release's options: what it holds (formats, splits, which questions, which campaigns,
SQuAD v1.1 or v2.0), checked field by field, and the questions of a split they select.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from annotation.models import Campaign
from core.errors import ServiceError
from core.languages import codes, find, is_known
from corpus.models import Split
from exports.dataset import Selection
from exports.formats import FORMATS

FORMAT_ORDER = ("squad", "hf", "mrqa")
SQUAD_VERSIONS = ("1.1", "2.0")


@dataclass(frozen=True)
class ReleaseOptions:
    formats: list[str]
    splits: list[str]
    approved_only: bool = False
    include_test_answers: bool = False
    include_history: bool = False
    squad_version: str = "1.1"  # "2.0": unanswerable questions too (SQuAD 2.0, FQuAD 2.0)
    # The campaigns whose questions the release takes, by id (sorted); () for every campaign.
    campaigns: tuple[int, ...] = ()
    # The release's language (core.languages): only questions on articles in it are taken;
    # its MRQA tokenizer and its datasheet's pieces are that language's.
    language: str = ""

    def as_dict(self) -> dict:
        """The options as stored; `campaigns` only when some are chosen, so that a release of
        every campaign keeps the options (and manifest) releases always had."""
        data = asdict(self)
        if self.campaigns:
            data["campaigns"] = list(self.campaigns)
        else:
            del data["campaigns"]
        return data

    @property
    def unanswerable(self) -> bool:
        """Whether the release holds unanswerable questions (SQuAD v2.0)."""
        return self.squad_version == "2.0"


FLAGS = ("approved_only", "include_test_answers", "include_history")


def check_options(data: dict) -> ReleaseOptions:
    """Return the release options, or raise a ServiceError naming each bad field."""
    errors: dict[str, list[str]] = {}
    formats, splits = data.get("formats"), data.get("splits", list(Split.values))
    _check_choices(data, formats, splits, errors)
    squad_version = data.get("squad_version", "1.1")
    if not isinstance(squad_version, str) or squad_version not in SQUAD_VERSIONS:
        errors["squad_version"] = [
            _("“1.1” (answerable questions only) or “2.0” (with unanswerable questions).")
        ]
    campaigns, language = _check_scope(data, formats, errors)
    if errors:
        raise ServiceError(errors)
    return ReleaseOptions(
        formats=[f for f in FORMAT_ORDER if f in formats],
        splits=[s for s in Split.values if s in splits],
        **{name: data.get(name, False) for name in FLAGS},
        squad_version=squad_version,
        campaigns=campaigns,
        language=language,
    )


def _check_choices(data: dict, formats, splits, errors: dict) -> None:
    """The formats and splits (one or more each, of those there are) and the flags."""
    if not isinstance(formats, list) or not formats or any(f not in FORMATS for f in formats):
        errors["formats"] = [_("Choose one or more of squad, hf, mrqa.")]
    if not isinstance(splits, list) or not splits or any(s not in Split.values for s in splits):
        errors["splits"] = [_("Choose one or more of train, dev, test.")]
    for name in FLAGS:
        if not isinstance(data.get(name, False), bool):
            errors[name] = [_("true or false.")]


def _check_scope(data: dict, formats, errors: dict) -> tuple[tuple[int, ...], str]:
    """The campaigns and the one language the release holds, and the MRQA tokens that
    language must have when MRQA files are asked for."""
    campaigns = data.get("campaigns")
    campaigns = [] if campaigns is None else campaigns
    try:
        campaigns = check_campaigns(campaigns)
    except ServiceError as error:
        errors |= error.errors
    language = ""
    if "campaigns" not in errors:
        try:
            language = check_language(data.get("language"), campaigns)
        except ServiceError as error:
            errors |= error.errors
    entry = find(language)
    mrqa = isinstance(formats, list) and "mrqa" in formats
    if language and mrqa and (entry is None or entry.mrqa_tokens is None):
        name = entry.name(get_language()) if entry else language
        errors.setdefault("formats", []).append(
            _("MRQA tokens: not available for %(language)s.") % {"language": name}
        )
    return campaigns, language


def check_language(value, campaigns: tuple[int, ...]) -> str:
    """Return the release's language: the one given (a code of the registry of languages),
    else the one language of its campaigns (all campaigns when none is chosen; the platform's
    WIKIPEDIA_LANGUAGE when there is none). Refuse (`language`) an unknown code, or campaigns
    in several languages (or in another one than given): a release holds one language."""
    chosen = Campaign.objects.filter(pk__in=campaigns) if campaigns else Campaign.objects.all()
    spoken = sorted(set(chosen.values_list("language", flat=True)))
    if value is not None:
        code = value.strip().lower() if isinstance(value, str) else ""
        if not is_known(code):
            raise ServiceError(
                {
                    "language": [
                        _("Choose one of the languages %(known)s.") % {"known": ", ".join(codes())}
                    ]
                }
            )
        if campaigns and spoken != [code]:
            raise ServiceError(
                {
                    "language": [
                        _("The chosen campaigns are in %(languages)s, not in %(language)s.")
                        % {"languages": ", ".join(spoken), "language": code}
                    ]
                }
            )
        return code
    if len(spoken) > 1:
        raise ServiceError(
            {
                "language": [
                    _(
                        "These campaigns are in several languages (%(languages)s): "
                        "a release holds one; choose its language."
                    )
                    % {"languages": ", ".join(spoken)}
                ]
            }
        )
    return spoken[0] if spoken else settings.WIKIPEDIA_LANGUAGE


def check_campaigns(value) -> tuple[int, ...]:
    """Return campaign ids as a sorted tuple, or refuse (`campaigns`) a value that is not a
    list of ids of existing campaigns, naming the unknown ones."""
    if not isinstance(value, list | tuple) or any(
        isinstance(pk, bool) or not isinstance(pk, int) or pk < 1 for pk in value
    ):
        raise ServiceError({"campaigns": [_("A list of campaign ids.")]})
    wanted = set(value)
    found = set(Campaign.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    if unknown := sorted(wanted - found):
        raise ServiceError(
            {"campaigns": [_("No such campaign: %(ids)s.") % {"ids": ", ".join(map(str, unknown))}]}
        )
    return tuple(sorted(wanted))


def answers_shown(options: ReleaseOptions, split: str) -> bool:
    """Whether the split's files give the answers (the test answers may be held back)."""
    return split != Split.TEST or options.include_test_answers


def split_selection(options: ReleaseOptions, split: str) -> Selection:
    """The questions of one split that the release takes."""
    return Selection(
        split=split,
        approved_only=options.approved_only,
        unanswerable=options.unanswerable,
        campaigns=options.campaigns,
        language=options.language or None,
    )
