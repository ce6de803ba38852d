"""Model instances from raw SQL rows, for the few hot statements written by hand.

`columns(Model, "alias")` lists a model's concrete columns in `_meta` order, and
`built(Model, values)` makes the instance from those values as the ORM would (each field's
`from_db_value`, then `Model.from_db`). A statement can then read several models in one row.

`param(Model, "field", value)` is a parameter of such a statement as the ORM would send it for
that field, so that a row written by hand holds what a row the ORM wrote holds.

`prepared_cursor()` runs those statements prepared on PostgreSQL (see its docstring).
"""

from __future__ import annotations

from django.db import connection


def columns(model, alias: str = "") -> str:
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{field.column}" for field in model._meta.concrete_fields)


def width(model) -> int:
    return len(model._meta.concrete_fields)


def converters(model) -> list[tuple]:
    """Each concrete column's (expression, converters), as the ORM's compiler applies them:
    the backend's first (SQLite hands back a datetime as naive text, a decimal as a float, a
    boolean as an integer; psycopg already gives Python values), then the field's own
    (`from_db_value`: JSON, custom fields). Cached per model and backend."""
    key = (model, connection.vendor)
    found = _CONVERTERS.get(key)
    if found is None:
        table = model._meta.db_table
        found = []
        for field in model._meta.concrete_fields:
            column = field.get_col(table)
            steps = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            found.append((column, tuple(steps)))
        _CONVERTERS[key] = found
    return found


_CONVERTERS: dict = {}


def convert(model, values) -> list:
    """A row of the model's concrete columns as the ORM would read it, column by column."""
    converted = []
    for value, (column, steps) in zip(values, converters(model), strict=True):
        for step in steps:
            value = step(value, column, connection)
        converted.append(value)
    return converted


def built(model, values):
    """A model instance from its concrete columns' values, converted as the ORM would."""
    names = [field.attname for field in model._meta.concrete_fields]
    return model.from_db(connection.alias, names, convert(model, values))


def param(model, name: str, value):
    """`value` as the ORM sends it to the database for the model's field `name`.

    On SQLite a datetime must go as the ORM writes it, naive text in UTC: sqlite3's own adapter
    would write an aware one with its offset ("…+00:00"), the column would then hold two
    spellings of time, and SQLite compares them as text (`expires_at < now`) and the ORM's
    exact lookups would miss them. On PostgreSQL the value goes unchanged (psycopg's types)."""
    return model._meta.get_field(name).get_db_prep_value(value, connection, prepared=False)


def split_row(row, models) -> list:
    """Cut a row holding several models' columns, one after the other, into instances."""
    made, at = [], 0
    for model in models:
        size = width(model)
        part = row[at : at + size]
        made.append(None if part[0] is None else built(model, part))
        at += size
    return made


def prepared_cursor():
    """A cursor for the work loop's hand-written statements: on PostgreSQL its parameters are
    bound on the server, and a statement it runs a second time on a connection is prepared
    (`prepare_threshold` in config/env.py), so PostgreSQL plans the claim once per connection
    and Python quotes no value (bench/work_loop_profile.py, 10,000 paragraphs: PostgreSQL's
    CPU per cycle 3.4–3.5 ms unprepared, 1.5 ms prepared). A statement bound on the server
    holds one SQL command and at most 65,535 parameters: fine for these, which pass lists as
    arrays. Elsewhere, Django's own cursor.
    It is Django's cursor wrapper, so tests count its statements like any other."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = ServerBindingCursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)
