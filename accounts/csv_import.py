"""Parse the user-import CSV (username,email,role) into checked rows. Pure: no database."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from django.utils.translation import gettext as _

from core.roles import Role

COLUMNS = ("username", "email", "role")
MAX_ROWS = 5000


@dataclass(frozen=True)
class UserRow:
    line: int
    username: str
    email: str
    role: str


def _reader(text: str) -> csv.DictReader:
    # Spreadsheets in French locales save CSV with semicolons; accept both separators.
    first_line = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    return csv.DictReader(io.StringIO(text), delimiter=delimiter)


def _check_header(fieldnames: list[str] | None) -> list[str]:
    names = [(name or "").strip().lower() for name in fieldnames or []]
    missing = [c for c in COLUMNS if c not in names]
    unknown = [n for n in names if n not in COLUMNS]
    twice = sorted({n for n in names if names.count(n) > 1})
    problems = []
    if missing:
        problems.append(_("missing column(s): %(cols)s") % {"cols": ", ".join(missing)})
    if unknown:
        problems.append(_("unknown column(s): %(cols)s") % {"cols": ", ".join(unknown)})
    if twice:
        problems.append(_("column(s) given twice: %(cols)s") % {"cols": ", ".join(twice)})
    return problems


def _row_problems(row: dict, seen: set[str]) -> list[str]:
    problems = []
    username, email, role = row["username"], row["email"], row["role"]
    try:
        UnicodeUsernameValidator()(username)
        if not username or len(username) > 150:
            raise ValidationError("length")
    except ValidationError:
        problems.append(
            _("username %(value)r: 1 to 150 letters, digits and @/./+/-/_ only")
            % {"value": username}
        )
    if username.lower() in seen:
        problems.append(_("username %(value)r appears twice in the file") % {"value": username})
    try:
        EmailValidator()(email)
        if len(email) > 254:
            raise ValidationError("length")
    except ValidationError:
        problems.append(_("email %(value)r is not a valid address") % {"value": email})
    if role not in Role.values:
        problems.append(
            _("role %(value)r is not one of %(roles)s")
            % {"value": role, "roles": ", ".join(Role.values)}
        )
    return problems


def parse_users_csv(text: str) -> tuple[list[UserRow], list[str]]:
    """Return (rows, problems); rows are only meaningful when problems is empty."""
    text = text.lstrip("\ufeff")
    if not text.strip():
        return [], [_("the file is empty")]
    reader = _reader(text)
    problems = _check_header(reader.fieldnames)
    if problems:
        return [], [_("header: %(problem)s") % {"problem": p} for p in problems]
    reader.fieldnames = [name.strip().lower() for name in reader.fieldnames]
    try:
        rows, problems = _read_rows(reader)
    except csv.Error as error:
        return [], [
            _("line %(line)d: %(problem)s") % {"line": reader.line_num + 1, "problem": str(error)}
        ]
    if not rows and not problems:
        problems.append(_("the file has a header but no user"))
    return rows, problems


def _read_rows(reader: csv.DictReader) -> tuple[list[UserRow], list[str]]:
    """Check every line; return the rows and the problems found."""
    rows, problems, seen = [], [], set()
    for row in reader:
        values = {c: (row.get(c) or "").strip() for c in COLUMNS}
        if not any(values.values()):
            continue  # blank line
        values["role"] = values["role"].lower()
        line = reader.line_num
        problems += [
            _("line %(line)d: %(problem)s") % {"line": line, "problem": p}
            for p in _row_problems(values, seen)
        ]
        seen.add(values["username"].lower())
        rows.append(UserRow(line=line, **values))
        if len(rows) > MAX_ROWS:
            return [], [_("the file has more than %(max)d users") % {"max": MAX_ROWS}]
    return rows, problems
