"""Messages stored in the source language, translated when they are shown.

A job's progress message or a scrape log line is written by a worker but read later, on a page
in the reader's language: it is stored as its English msgid (marked with `gettext_noop`) and
its values apart, and translated at display (`translated`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext


@dataclass(frozen=True)
class Text:
    """A message to store: its msgid (English source) and the values it names."""

    msgid: str
    params: dict = field(default_factory=dict)


def as_text(message: Text | str) -> Text:
    """Return a message as a `Text` (a plain string has no values: a title, an error…)."""
    return message if isinstance(message, Text) else Text(str(message))


def translated(message: str, params: dict | None = None) -> str:
    """Translate a stored message into the active language, then put its values in."""
    if not message:
        return ""
    text = gettext(message)
    if not params:
        return text
    try:
        return text % params
    except (KeyError, TypeError, ValueError):  # a catalogue that lost a placeholder
        return message % params
