"""Numbers: spelled, written in digits, counted nouns and ranks."""

from __future__ import annotations

import re
from typing import Any

_NUMBER_WORD = (
    r"(?:un|une|et|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|quatorze"
    r"|quinze|seize|vingts?|trente|quarante|cinquante|soixante|cents?|mille|millions?"
    r"|milliards?)"
)
_SPELLED_NUMBER = re.compile(rf"{_NUMBER_WORD}(?:-{_NUMBER_WORD})*", re.I)
_ARTICLE_NUMBERS = frozenset({"un", "une", "et"})
_ORDINAL = re.compile(r"(?:\d+|[IVXLCDM]+)(?:ᵉʳ|ᵉ|ème|eme|ère|er|re|e)", re.I)
# Ordinals spelled out ("septième", "vingt-et-unième"): a rank when alone, as "18e" is.
_SPELLED_ORDINAL = re.compile(
    rf"(?:{_NUMBER_WORD}-)*(?:un|deux|trois|quatr|cinqu|six|sept|huit|neuv|dix|onz|douz|treiz"
    r"|quatorz|quinz|seiz|vingt|trent|quarant|cinquant|soixant|cent|mill|million|milliard)"
    r"ièmes?|premi(?:er|ère)s?|seconde?s?",
    re.I,
)
# Nouns that are numbers ("une trentaine d'alcaloïdes"), and units that "un"/"une" counts
# ("une heure et demie"): the article is then the number one.
NUMBER_NOUNS = frozenset(
    """dizaine dizaines douzaine douzaines quinzaine vingtaine trentaine quarantaine
    cinquantaine soixantaine centaine centaines millier milliers tiers moitié""".split()  # noqa: SIM905
)
UNITS = frozenset(
    """seconde minute heure jour semaine mois an année siècle millénaire mètre kilomètre
    centimètre kilogramme kilo gramme tonne litre hectare euro dollar franc""".split()  # noqa: SIM905
)
# An ordinal before these is a rank, a number: "au 23e rang", "la septième place".
RANK_NOUNS = frozenset({"rang", "place", "position"})
# Words before a number that leave it a number: "environ deux points", "près de 3 000".
APPROXIMATIONS = frozenset(
    """environ près presque plus moins quelque quelques approximativement jusqu au
    moins""".split()  # noqa: SIM905
)


def is_number_token(token: Any) -> bool:
    """Return whether a spaCy token is a quantity: digits, a NUM tag, or a spelled number.

    spaCy's like_num is not used alone: it holds for "une" and "premier", and the small
    model tags "100" in "100 000" as DET; "un"/"une" alone stay articles. A number noun
    ("trentaine", "milliers") is a quantity too.
    """
    text = token.text
    if any(char.isdigit() for char in text):
        return not any(char.isupper() for char in text)  # "GAZ-69", "TS050": a model's name
    if _SPELLED_NUMBER.fullmatch(text):
        return text.lower() not in _ARTICLE_NUMBERS
    if _SPELLED_ORDINAL.fullmatch(text):
        return True
    if text.lower() in NUMBER_NOUNS:
        return True
    return token.pos_ == "NUM" and token.like_num


def _is_quantity(tokens: list[Any], content: list[Any], head: Any) -> bool:
    """Return whether the answer is a quantity (rule 5 above).

    The first content token, approximations ("environ") and ordinals that modify a noun
    ("le 30e anniversaire") aside, or the head is a number; or "un"/"une" opens the answer
    and counts a unit ("une heure et demie").
    """
    counted = [token for token in content if token.lower_ not in APPROXIMATIONS]
    first = counted[0] if counted else content[0]
    if is_number_token(head):
        return True
    ordinal = _ORDINAL.fullmatch(first.text) or _SPELLED_ORDINAL.fullmatch(first.text)
    modifier = ordinal and first is not head and head.lower_ not in RANK_NOUNS
    if is_number_token(first) and not modifier:
        return True
    if tokens[0].lower_ in _ARTICLE_NUMBERS and len(tokens) > 1:
        return _counted_by_one(tokens)
    return False


def _counted_by_one(tokens: list[Any]) -> bool:
    """Return whether "un"/"une" opening the answer is the number one: it counts a unit ("une
    heure et demie"), it is a rank alone ("une place" gained), or it opens a choice of
    numbers ("un ou plusieurs articles", "une ou deux fois")."""
    unit = tokens[1].lower_
    if unit in UNITS or unit.removesuffix("s") in UNITS:
        return True
    if unit in RANKS_COUNTED and len(tokens) == 2:
        return True
    return _one_of_a_choice(tokens)


# A rank noun after "un"/"une" alone is one rank: "une place" gained.
RANKS_COUNTED = RANK_NOUNS


def _one_of_a_choice(tokens: list[Any]) -> bool:
    """Return whether "un"/"une" opens a choice of numbers ("un ou plusieurs articles", "une
    ou deux fois")."""
    return (
        tokens[1].lower_ == "ou"
        and len(tokens) > 2
        and (tokens[2].lower_ == "plusieurs" or is_number_token(tokens[2]))
    )
