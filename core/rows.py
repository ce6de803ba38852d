"""Model instances from raw SQL rows, for the few hot statements written by hand.

`columns(Model, "alias")` lists a model's concrete columns in `_meta` order, and
`built(Model, values)` makes the instance from those values as the ORM would (each field's
`from_db_value`, then `Model.from_db`). A statement can then read several models in one row.
"""

from __future__ import annotations

from django.db import connection


def columns(model, alias: str = "") -> str:
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{field.column}" for field in model._meta.concrete_fields)


def width(model) -> int:
    return len(model._meta.concrete_fields)


def built(model, values):
    """A model instance from its concrete columns' values, converted as the ORM would."""
    fields = model._meta.concrete_fields
    values = [
        field.from_db_value(value, None, connection)
        if value is not None and hasattr(field, "from_db_value")
        else value
        for field, value in zip(fields, values, strict=True)
    ]
    return model.from_db(connection.alias, [field.attname for field in fields], values)


def split_row(row, models) -> list:
    """Cut a row holding several models' columns, one after the other, into instances."""
    made, at = [], 0
    for model in models:
        size = width(model)
        part = row[at : at + size]
        made.append(None if part[0] is None else built(model, part))
        at += size
    return made
