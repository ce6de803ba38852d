"""Messages stored in the source language, translated when they are shown.

A job's progress message or a scrape log line is written by a worker but read later, on a page
in the reader's language: it is stored as its English msgid (marked with `gettext_noop`) and
its values apart, and translated at display (`translated`). A message about a count names its
plural too (`Text.counted`), kept beside the values, so that the reader's language picks the
form ("1 file", "2 files"; French says "0 fichier", "1 fichier", "2 fichiers"). A sentence
with two counts puts the second one's words in as a value that is itself a `Text`:
"Kept 1 paragraph, dropped 2 blocks." is "Kept %(kept)d paragraph, %(dropped)s." with
`dropped` = "dropped %(n)d block" / "dropped %(n)d blocks".

Numbers go into a message through the reader's locale (`interpolate`): "F1 3.3" in English is
"F1 3,3" in French, and a count is grouped as the `grouped` filter groups it (1 000).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

# The keys under which a stored message keeps its plural msgid and the name of its count, and
# a value that is a message of its own keeps its msgid.
PLURAL, COUNT, MSGID = "_plural", "_count", "_msgid"


@dataclass(frozen=True)
class Text:
    """A message to store: its msgid (English source) and the values it names."""

    msgid: str
    params: dict = field(default_factory=dict)

    @classmethod
    def counted(cls, singular: str, plural: str, count: str, params: dict) -> Text:
        """A message whose words follow the number `params[count]` (ngettext at display)."""
        return cls(singular, {**_stored(params), PLURAL: plural, COUNT: count})

    def __post_init__(self):
        object.__setattr__(self, "params", _stored(self.params))


def _stored(params: dict) -> dict:
    """Return `params` with each value that is a `Text` as JSON ({_msgid, its values})."""
    return {
        key: {MSGID: value.msgid, **value.params} if isinstance(value, Text) else value
        for key, value in params.items()
    }


def as_text(message: Text | str) -> Text:
    """Return a message as a `Text` (a plain string has no values: a title, an error…)."""
    return message if isinstance(message, Text) else Text(str(message))


_PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.(\d+))?([sdifr%])")


def localized(value, conversion: str = "s", decimals: str | None = None) -> str:
    """Write one value as a `%` conversion would, with the active language's numbers."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return repr(value) if conversion == "r" else str(value)
    if conversion in "di":
        return number_format(int(value), force_grouping=True)
    if conversion == "f":  # number_format cuts the decimals: round them as "%.1f" does
        places = int(decimals or 6)
        return number_format(round(value, places), decimal_pos=places)
    return number_format(value)


def interpolate(text: str, params: dict) -> str:
    """Return `text % params`, numbers written the active language's way."""

    def put(match):
        name, decimals, conversion = match.groups()
        if conversion == "%":
            return "%"
        return localized(params[name], conversion, decimals)

    return _PLACEHOLDER.sub(put, text)


def translated(message: str, params: dict | None = None) -> str:
    """Translate a stored message into the active language, then put its values in."""
    if not message:
        return ""
    params = {
        key: translated(value[MSGID], {k: v for k, v in value.items() if k != MSGID})
        if isinstance(value, dict) and MSGID in value
        else value
        for key, value in (params or {}).items()
    }
    plural, count = params.pop(PLURAL, None), params.pop(COUNT, None)
    if plural and count in params:
        text = ngettext(message, plural, params[count])
    else:
        text = gettext(message)
    if not params:
        return text
    try:
        return interpolate(text, params)
    except (KeyError, TypeError, ValueError):  # a catalogue that lost a placeholder
        return interpolate(message, params)
