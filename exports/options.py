"""A release's options: what it holds (formats, splits, which questions, which campaigns,
SQuAD v1.1 or v2.0), checked field by field, and the questions of a split they select.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from annotation.models import Campaign
from core.errors import ServiceError
from core.languages import codes, is_known
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
    # The one language of the release's questions (a registry code): given, else its
    # campaigns' language, else the site's (settings.WIKIPEDIA_LANGUAGE). docs/languages.md.
    language: str = ""

    def as_dict(self) -> dict:
        """The options as stored; `campaigns` only when some are chosen and `language` only when
        it is not the site's, so that a release of every campaign in the site's language keeps
        the options (and manifest) releases always had."""
        data = asdict(self)
        if self.campaigns:
            data["campaigns"] = list(self.campaigns)
        else:
            del data["campaigns"]
        if self.language == settings.WIKIPEDIA_LANGUAGE:
            del data["language"]
        return data

    @property
    def unanswerable(self) -> bool:
        """Whether the release holds unanswerable questions (SQuAD v2.0)."""
        return self.squad_version == "2.0"


def check_options(data: dict) -> ReleaseOptions:
    """Return the release options, or raise a ServiceError naming each bad field."""
    errors: dict[str, list[str]] = {}
    formats, splits = data.get("formats"), data.get("splits", list(Split.values))
    if not isinstance(formats, list) or not formats or any(f not in FORMATS for f in formats):
        errors["formats"] = [_("Choose one or more of squad, hf, mrqa.")]
    if not isinstance(splits, list) or not splits or any(s not in Split.values for s in splits):
        errors["splits"] = [_("Choose one or more of train, dev, test.")]
    flags = ("approved_only", "include_test_answers", "include_history")
    for name in flags:
        if not isinstance(data.get(name, False), bool):
            errors[name] = [_("true or false.")]
    squad_version = data.get("squad_version", "1.1")
    if not isinstance(squad_version, str) or squad_version not in SQUAD_VERSIONS:
        errors["squad_version"] = [
            _("“1.1” (answerable questions only) or “2.0” (with unanswerable questions).")
        ]
    campaigns = data.get("campaigns")
    campaigns = [] if campaigns is None else campaigns
    try:
        campaigns = check_campaigns(campaigns)
    except ServiceError as error:
        errors |= error.errors
    language = ""
    if not errors:
        try:
            language = check_language(data.get("language"), campaigns)
        except ServiceError as error:
            errors |= error.errors
    if errors:
        raise ServiceError(errors)
    return ReleaseOptions(
        formats=[f for f in FORMAT_ORDER if f in formats],
        splits=[s for s in Split.values if s in splits],
        **{name: data.get(name, False) for name in flags},
        squad_version=squad_version,
        campaigns=campaigns,
        language=language,
    )


def check_language(value, campaigns: tuple[int, ...]) -> str:
    """Return the release's one language: `value` (a code of the registry), else the language
    of its campaigns, else the site's. Refuse an unknown code (`language`), and campaigns in
    several languages or in another language than the one given (`campaigns`): a release
    never mixes languages (issue 27)."""
    if value not in (None, "") and (not isinstance(value, str) or not is_known(value)):
        known = ", ".join(codes())
        message = _("Choose a language of the platform: %(known)s.") % {"known": known}
        raise ServiceError({"language": [message]})
    found = sorted(
        set(Campaign.objects.filter(pk__in=campaigns).values_list("language", flat=True))
    )
    if value and found and found != [value]:
        message = _("These campaigns are not in %(language)s: choose campaigns of one language.")
        raise ServiceError({"campaigns": [message % {"language": value}]})
    if len(found) > 1:
        message = _(
            "These campaigns are in several languages (%(languages)s): "
            "a release holds one language; make one release per language."
        )
        raise ServiceError({"campaigns": [message % {"languages": ", ".join(found)}]})
    return value or (found[0] if found else settings.WIKIPEDIA_LANGUAGE)


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
