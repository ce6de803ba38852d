"""Dates, by rules on the answer's text (the recogniser has no DATE entity)."""

from __future__ import annotations

import re

# The word lists read better as text than as literals of quoted words (hence the noqa).
MONTHS = frozenset(
    """janvier février fevrier mars avril mai juin juillet août aout septembre octobre novembre
    décembre decembre""".split()  # noqa: SIM905
)
# Months of the French republican and of the Muslim calendars, as French writes them.
OTHER_MONTHS = frozenset(
    """vendémiaire brumaire frimaire nivôse pluviôse ventôse germinal floréal prairial
    messidor thermidor fructidor mouharram muharram safar rajab chaabane chaâbane ramadan
    ramadhan chawwal chawal""".split()  # noqa: SIM905
)
WEEKDAYS = frozenset({"lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"})
# Seasons are dates as months are ("en automne", "au printemps 1930"); "été" is also the
# participle of "être": the parse decides (`_is_summer`).
SEASONS = frozenset({"printemps", "automne", "hiver"})
PERIODS = frozenset({"siècle", "siècles", "millénaire", "millénaires", "décennie", "décennies"})
# Words that may sit in a date without making one: "au début du XIXe siècle", "de 1994 à
# 2003", "l'été 1976", "vers la fin de l'an 1000".
DATE_FILLERS = frozenset(
    """le la l les en de d du des à au aux vers dès depuis entre et ou jusqu jusque avant après
    début fin milieu mi courant cours partir premier première dernier dernière moitié environ
    autour an année années printemps été automne hiver matin soir nuit durant pendant mois
    jour horizon""".split()  # noqa: SIM905
)
# A bare number is a year after these ("en 732", "l'an 1000"), whatever its length.
YEAR_MARKERS = frozenset({"en", "an", "vers", "depuis", "dès"})

_ERA = re.compile(r"\b(?:av|apr|avant|après)\.?\s*(?:J\.?\s*-?\s*C\.?|Jésus-Christ)", re.I)
_NUMERIC_DATE = re.compile(r"\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b")
_DATE_TOKEN = re.compile(
    r"(?P<ordinal>(?:\d+|[IVXLCDM]+)(?:ᵉʳ|ᵉ|ème|eme|ère|er|re|e)\b)"
    r"|(?P<big>\d+(?:[ \u00a0\u202f]\d{3})+|\d+[.,]\d+)"
    r"|(?P<digits>\d+)"
    r"|(?P<word>[^\W\d_]+)"
)


_DAY = re.compile(r"(?:le|du|au)\s+(?:[1-9]|[12]\d|3[01])(?:er|ᵉʳ)?", re.I)


def is_date_text(text: str) -> bool:
    """Return whether text is a date or period: only date words, and at least one anchor.

    A day alone after its article ("le 11", "du 1er") is a date. Anchors are a month
    (Gregorian, republican or Muslim) or weekday name, "siècle" or "millénaire", an era
    ("av. J.-C."), a numeric date ("14/07/1789"), or a year: a number of 1000 to 2099, or
    any number after "en", "an", "vers", "depuis" or "dès". Allowed besides: day numbers,
    ordinals ("XVIIe", "1er"), and the fillers of DATE_FILLERS. A grouped or decimal number
    ("100 000", "14,2") is never a date, nor is any other word ("1500 habitants", "12
    milliards").
    """
    if _DAY.fullmatch(text.strip()):  # "le 11", a day of the month as French writes it
        return True
    text, anchored = _strip_date_marks(text)
    has_digit = any(char.isdigit() for char in text)
    previous = ""
    for match in _DATE_TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group().lower()
        if kind == "big":
            return False
        if kind == "digits":
            anchored |= _is_year(token, previous)
        elif kind == "word":
            if _is_date_word(match.group(), has_digit):
                anchored = True
            elif token not in DATE_FILLERS:
                return False
        previous = token
    return anchored


def _is_date_word(word: str, has_digit: bool) -> bool:
    """Return whether a word anchors a date: a month, a weekday, "siècle" or "millénaire".

    French writes months in lower case; a capitalised "Mars" or "Mai" with no number beside
    it is the planet or a name, so it is no month ("Juillet 1789" at a sentence start is).
    """
    lower = word.lower()
    if lower in MONTHS:
        return word.islower() or has_digit
    return lower in WEEKDAYS or lower in PERIODS or lower in OTHER_MONTHS or lower in SEASONS


# A year before the common era written with a minus sign ("entre -8000 et -3000"): an era.
_NEGATIVE_YEAR = re.compile(r"(?<![\w.,])[-−–]\d{3,5}\b(?![.,]\d)")


def _strip_date_marks(text: str) -> tuple[str, bool]:
    """Replace eras, numeric dates and years written with a minus sign by spaces; return the
    rest and whether one was found."""
    stripped = _NEGATIVE_YEAR.sub(" ", _NUMERIC_DATE.sub(" ", _ERA.sub(" ", text)))
    return stripped, stripped != text


# Phrases headed by a noun of time that date by a reign or an event ("sous le règne de Louis
# VI", "au moment de la décolonisation", "à l'époque des croisades"): a period of time. "lors
# de" has no noun of time: the event after it keeps its own type, as after any preposition.
_TIME_PHRASE = re.compile(
    r"(?:sous\s+(?:le|son|leur)\s+règne|au\s+moment|à\s+l['’]\s*époque|au\s+temps|du\s+temps)"
    r"\s+(?:de|du|des|d['’]|où)\b",
    re.I,
)


def is_time_phrase(text: str) -> bool:
    """Return whether the answer opens with a phrase that dates by a reign or an event."""
    return bool(_TIME_PHRASE.match(text.strip()))


# After a bare year: an era, maybe after the other end of a range ("de 221 à 206 av.
# J.-C."), or the end of the phrase ("en 221,", "dès 732.").
_ERA_AFTER = re.compile(r"\s*(?:(?:à|au|et|-|–)\s*\d{1,4}\s*)?" + _ERA.pattern, re.I)
_PHRASE_END = re.compile(r"\s*(?:[,.;:)]|et\b|à\b|-|–|$)")


def is_year_in_context(text: str, before: str, after: str) -> bool:
    """Return whether a bare number of one to four digits is a year by its neighbours in
    the sentence: an era after it ("221" of "de 221 à 206 av. J.-C."), or a year's
    preposition before it ("en", "vers", "dès", "depuis") and no word after it to count
    ("en 221,"; "en 6 heures" counts hours)."""
    if not re.fullmatch(r"\d{1,4}", text.strip()):
        return False
    if _ERA_AFTER.match(after):
        return True
    return before.lower() in YEAR_MARKERS and bool(_PHRASE_END.match(after))


def _is_year(digits: str, previous: str) -> bool:
    """Return whether a plain number reads as a year, given the token before it."""
    return previous in YEAR_MARKERS or (len(digits) == 4 and 1000 <= int(digits) <= 2099)
