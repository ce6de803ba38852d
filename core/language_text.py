"""What the registry of languages (core.languages) says, in the reader's language: a
language's name, and the "not available" line of each piece a language lacks.

Every page and file that would show a piece a language lacks shows this line instead ("Answer
types: not available for Thai"), never another language's piece in its place.
"""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.languages import PIECES, find


def language_name(code: str | None) -> str:
    """The language's name in the interface's language ("thaï" in French); the code itself
    for a language the registry lacks."""
    entry = find(code)
    return entry.name(get_language() or "en") if entry else (code or "")


def _messages() -> dict[str, str]:
    return {
        "question_types": _("Question types: not available for %(language)s."),
        "answer_types": _("Answer types: not available for %(language)s."),
        "mrqa_tokens": _("MRQA tokens: not available for %(language)s."),
        "guidelines": _(
            "Guidelines: none in %(language)s yet; the campaign starts with the English text."
        ),
    }


def unavailable(piece: str, code: str | None) -> str | None:
    """The line saying that language `code` lacks `piece` (one of core.languages.PIECES), or
    None when it has it. A language the registry lacks has no piece."""
    if piece not in PIECES:
        raise ValueError(f"{piece!r} is not a language piece")
    entry = find(code)
    if entry is not None and entry.has(piece):
        return None
    return _messages()[piece] % {"language": language_name(code)}


def unavailable_lines(code: str | None) -> list[str]:
    """Every piece the language lacks, as lines, in PIECES order."""
    return [line for piece in PIECES if (line := unavailable(piece, code))]
