"""Checks on raw input shared by the APIs and pages: ids and text the database can store."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ServiceError
from core.jsondepth import MAX_JSON_DEPTH
from core.text import has_bad_characters

MAX_ID = 2**63 - 1


def too_deep_message(limit: int = MAX_JSON_DEPTH) -> str:
    """The refusal of a JSON document nested deeper than the limit (`core.jsondepth`)."""
    return _("The JSON is nested too deeply: at most %(n)d levels of arrays and objects.") % {
        "n": limit
    }


def parse_id(value, field: str) -> int:
    """Return a positive database id, or refuse the value naming the field."""
    text = str(value)
    if not (text.isascii() and text.isdigit() and 0 < len(text) <= 19 and int(text) <= MAX_ID):
        raise ServiceError({field: [_("An id is a whole number.")]})
    return int(text)


def object_by_id(queryset, value, *, field: str, missing: str):
    """Return the row of `queryset` with this id: a malformed id is a 400 and an unknown one a
    404, each naming the field (`missing` is the 404's message)."""
    found = queryset.filter(pk=parse_id(value, field)).first()
    if found is None:
        raise ServiceError({field: [missing]}, status=404)
    return found


def check_text(value: str, field: str) -> str:
    """Refuse text holding NUL or unpaired surrogates (the database cannot keep them)."""
    if has_bad_characters(value):
        raise ServiceError(
            {field: [_("The text holds characters that cannot be stored (NUL or broken Unicode).")]}
        )
    return value


def json_has_bad_characters(value) -> bool:
    """Tell whether any string (key or value) inside a JSON value holds such characters."""
    if isinstance(value, str):
        return has_bad_characters(value)
    if isinstance(value, dict):
        return any(
            json_has_bad_characters(k) or json_has_bad_characters(v) for k, v in value.items()
        )
    if isinstance(value, list):
        return any(json_has_bad_characters(item) for item in value)
    return False


def form_int(value):
    """Return a form field as an int when it is one, else as sent (the service names it)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value
