"""Figures over big tables, computed when their data changed, not on every page view.

Some pages show a figure that reads a whole table: the corpus statistics (every paragraph's
length, every question), human performance (every dev and test answer, scored), the diff of
two releases (every question of both). At 10× FQuAD (a million paragraphs, 800,000
questions) each takes seconds; a page must answer in well under 300 ms.

An app registers such a figure (`figure_register`, in its `AppConfig.ready`) with three
functions:

- `compute(**params)`: the whole computation; returns a JSON value.
- `fingerprint(**params)`: a few indexed reads (the largest id of each table the figure
  reads, the time of the last change of an article…) whose result changes whenever the data
  the figure reads changes.
- `small(**params)`: a bounded check (a count that stops at a limit): the data is small
  enough to compute the figure during the request.

A page calls `figure_read(name, **params)`:

- small data: the figure is computed now, exact, and nothing is stored: a young install
  and the tests see every change at once, as before;
- otherwise the newest stored value is shown. If the data changed since (the fingerprint
  differs) or the value is older than the figure's `max_age`, a background job computes it
  again (`StoredFigure`, one in flight per figure: a unique constraint); until it is done
  the page shows the stored value with its time. With no stored value yet, the page says
  that the figure is being computed.

The fingerprint is read again by the job before it computes, so the stored value is never
older than its fingerprint says. A change that leaves every largest id as it was (a row
deleted by hand in the Django admin) is caught by `max_age`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class Figure:
    name: str
    compute: Callable[..., object]
    fingerprint: Callable[..., str]
    small: Callable[..., bool]
    queue: str | None = None  # the job's queue (None: the default queue)
    max_age: timedelta | None = timedelta(hours=1)  # None: the data never changes


@dataclass(frozen=True)
class FigureReading:
    """What a page shows: the value (None while the first one is being computed), when it was
    computed (None when computed for this request), whether the data changed since, and
    whether a newer value is being computed."""

    value: object
    computed_at: datetime | None = None
    current: bool = True
    computing: bool = False


REGISTRY: dict[str, Figure] = {}


def figure_register(figure: Figure) -> None:
    REGISTRY[figure.name] = figure


def figure_key(params: dict) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":")) if params else ""


def bounded_count(queryset, limit: int) -> int:
    """Return how many rows the queryset has, counting no further than `limit` + 1."""
    return queryset.order_by()[: limit + 1].count()
