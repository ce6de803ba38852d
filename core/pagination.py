"""Keyset pagination: a page of rows after (or before) a cursor, never an OFFSET.

A list that can grow (articles, scrape runs, releases, baseline runs, submissions) is read a
page at a time by the values of its ordering fields: "the 50 rows that follow this one". With
an index on those fields, the database walks straight to the cursor and reads `size + 1` rows,
so page 400 costs what page 1 costs; OFFSET would read and throw away every row before it, and
the page count would need a COUNT(*) of the whole list.

The ordering must be total: its last field is unique (`pk`). A cursor is the boundary row's
values of these fields, as JSON in URL-safe base64 with no padding. It is read back through
each model field's `to_python`, so a cursor made by hand or cut short is refused with a
`ServiceError` naming the query parameter (`after` or `before`); pages answer it with a 400
and the first page.

The API's lists that are read by offset (`LimitOffset`, the REST framework's default here)
cap their page size.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from functools import reduce
from operator import or_

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from rest_framework.pagination import LimitOffsetPagination

from core.errors import ServiceError

CURSOR_MAX_CHARS = 2000
AFTER, BEFORE = "after", "before"


def query_whole_number(request, name: str, *, minimum: int, default, largest: int | None = None):
    """A page parameter of the query string read as a whole number: `default` when absent,
    at most `largest`; anything else than digits (``null``, ``""``, ``-1``, ``2.5``, the
    parameter twice with other values), or below `minimum`, is refused with a 400 naming it
    (DRF would silently use the default, so a mistyped limit read as another page size)."""
    values = request.query_params.getlist(name)
    if not values:
        return default
    text = values[0]
    if len(set(values)) > 1 or not (text.isascii() and text.isdigit()) or int(text) < minimum:
        message = (
            _("A whole number, at least 1.") if minimum == 1 else _("A whole number, at least 0.")
        )
        raise ServiceError({name: [message]})
    number = int(text)
    return min(number, largest) if largest is not None else number


def query_page_size(request, name: str, *, default, largest: int):
    """A page size of the query string: a whole number from 1, at most `largest`
    (`query_whole_number`'s rules)."""
    return query_whole_number(request, name, minimum=1, default=default, largest=largest)


class LimitOffset(LimitOffsetPagination):
    """The lists' pages (`?limit=&offset=`): DRF's, with the largest page `max_limit`.

    A larger `limit` is read as `max_limit` (DRF's rule), so the page's `next` link goes on;
    without a ceiling, a limit past PostgreSQL's bigint answered 500. An `offset` past the
    list's count answers an empty page without querying the rows. A limit or offset that is
    not a whole number (at least 1, at least 0) is a 400 naming it.
    """

    max_limit = 1000

    def get_limit(self, request):
        param = self.limit_query_param
        return query_page_size(request, param, default=self.default_limit, largest=self.max_limit)

    def get_offset(self, request):
        return query_whole_number(request, self.offset_query_param, minimum=0, default=0)

    def get_schema_operation_parameters(self, view):
        return with_minimum(
            super().get_schema_operation_parameters(view),
            {self.limit_query_param: 1, self.offset_query_param: 0},
        )


def with_minimum(parameters: list[dict], minimum: dict[str, int]) -> list[dict]:
    """A paginator's schema parameters, each named in `minimum` given its least value."""
    for parameter in parameters:
        if parameter["name"] in minimum:
            parameter["schema"] = {**parameter["schema"], "minimum": minimum[parameter["name"]]}
    return parameters


@dataclass
class KeysetPage:
    """One page of rows, and the cursors of the pages on each side ("" when there is none)."""

    rows: list
    next: str = ""
    previous: str = ""
    first: bool = True  # the page starts the list (no cursor was given, or nothing is before)
    size: int = 0
    errors: dict = field(default_factory=dict)  # a refused cursor: {parameter: [message]}

    def __iter__(self):
        return iter(self.rows)

    def __len__(self):
        return len(self.rows)

    @property
    def status(self) -> int:
        """The page's HTTP status: 400 when its cursor was refused (it shows the first page)."""
        return 400 if self.errors else 200

    @property
    def has_other_pages(self) -> bool:
        return bool(self.next or self.previous or not self.first)


def page_cursors(params) -> dict[str, str]:
    """The cursors a page was asked for, from its query string (`request.GET`)."""
    return {AFTER: params.get(AFTER, ""), BEFORE: params.get(BEFORE, "")}


def _parts(order: tuple[str, ...]) -> list[tuple[str, bool]]:
    """Return (field name, descending) for each ordering field."""
    return [(name.removeprefix("-"), name.startswith("-")) for name in order]


def _value(row, name: str):
    if isinstance(row, dict):
        return row[name]
    return getattr(row, name)


def _plain(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def cursor_of(row, order: tuple[str, ...]) -> str:
    """Return the cursor that names this row's place in the ordering."""
    values = [_plain(_value(row, name)) for name, _desc in _parts(order)]
    raw = json.dumps(values, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _model_field(model, name: str):
    return model._meta.pk if name == "pk" else model._meta.get_field(name)


def cursor_values(cursor: str, *, model, order: tuple[str, ...], parameter: str) -> list:
    """Return the values a cursor holds, checked against the ordering's fields."""
    refused = ServiceError({parameter: [_("This page address is not valid; start again.")]})
    if not isinstance(cursor, str) or len(cursor) > CURSOR_MAX_CHARS or not cursor.isascii():
        raise refused
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise refused from None
    parts = _parts(order)
    if not isinstance(values, list) or len(values) != len(parts):
        raise refused
    checked = []
    for (name, _desc), value in zip(parts, values, strict=True):
        if value is None or isinstance(value, list | dict):
            raise refused
        try:
            model_field = _model_field(model, name)
            python = model_field.to_python(value)
        except (FieldDoesNotExist, ValidationError, TypeError, ValueError, OverflowError):
            raise refused from None
        if isinstance(python, str) and "\x00" in python:
            raise refused
        checked.append(python)
    return checked


def _beyond(parts: list[tuple[str, bool]], values: list, *, forward: bool) -> Q:
    """Return the filter of the rows that come after these values (before, if not forward).

    (a, b, c) after (x, y, z) is a > x, or a = x and b > y, or a = x and b = y and c > z, with
    each comparison flipped for a descending field. The first field's bound (a >= x) is added
    on its own so that the database starts its index walk at the cursor.
    """
    terms = []
    for index, (name, descending) in enumerate(parts):
        later = "lt" if descending == forward else "gt"
        equal = {parts[i][0]: values[i] for i in range(index)}
        terms.append(Q(**equal, **{f"{name}__{later}": values[index]}))
    first, descending = parts[0]
    bound = "lte" if descending == forward else "gte"
    return Q(**{f"{first}__{bound}": values[0]}) & reduce(or_, terms)


def _reversed(order: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(name[1:] if name.startswith("-") else f"-{name}" for name in order)


def keyset_page(
    queryset: QuerySet, *, order: tuple[str, ...], size: int, after: str = "", before: str = ""
) -> KeysetPage:
    """Return the page of `queryset` (ordered by `order`) after or before a cursor.

    Without a cursor, the first page. A refused cursor gives the first page with the refusal
    in `errors` (the page answers 400 naming the parameter). At most two queries: one for the
    page, and a second only when a "previous" page turns out to be the start of the list.
    """
    parts = _parts(order)
    try:
        if after:
            values = cursor_values(after, model=queryset.model, order=order, parameter=AFTER)
            return _page_after(queryset, parts, values, order=order, size=size)
        if before:
            values = cursor_values(before, model=queryset.model, order=order, parameter=BEFORE)
            page = _page_before(queryset, parts, values, order=order, size=size)
            if page is not None:
                return page
            # Fewer than a page before the cursor: that is the start of the list.
    except ServiceError as error:
        return _first_page(queryset, order=order, size=size, errors=error.errors)
    return _first_page(queryset, order=order, size=size, errors={})


def _page_after(queryset: QuerySet, parts, values, *, order, size: int) -> KeysetPage:
    """Return the page of rows after a cursor's values (one query)."""
    rows = list(queryset.filter(_beyond(parts, values, forward=True)).order_by(*order)[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return KeysetPage(
        rows=rows,
        next=cursor_of(rows[-1], order) if more else "",
        previous=cursor_of(rows[0], order) if rows else "",
        first=False,
        size=size,
    )


def _page_before(queryset: QuerySet, parts, values, *, order, size: int) -> KeysetPage | None:
    """Return the full page of rows before a cursor's values, None when fewer than a page are
    before it (one query)."""
    backwards = queryset.filter(_beyond(parts, values, forward=False))
    rows = list(backwards.order_by(*_reversed(order))[: size + 1])
    if len(rows) <= size:
        return None
    rows = rows[:size][::-1]
    return KeysetPage(
        rows=rows,
        next=cursor_of(rows[-1], order),
        previous=cursor_of(rows[0], order),
        first=False,
        size=size,
    )


def _first_page(queryset: QuerySet, *, order, size: int, errors: dict) -> KeysetPage:
    """Return the list's first page, with a refused cursor's errors (one query)."""
    rows = list(queryset.order_by(*order)[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return KeysetPage(
        rows=rows,
        next=cursor_of(rows[-1], order) if more else "",
        first=True,
        size=size,
        errors=errors,
    )
