"""Read settings from the environment, refusing bad values with the variable's name.

Pure module (no Django import) so it can be tested alone and used before settings load.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
DATABASE_SCHEMES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}
REDIS_SCHEMES = frozenset({"redis", "rediss"})


class EnvError(ValueError):
    """A variable of the environment holds a value the platform cannot use."""

    def __init__(self, name: str, problem: str):
        self.name = name
        super().__init__(f"{name}: {problem}")


class Env:
    """Typed, strict access to a mapping of environment variables."""

    def __init__(self, environ: Mapping[str, str] | None = None):
        self.environ = os.environ if environ is None else environ

    def raw(self, name: str) -> str | None:
        value = self.environ.get(name)
        return None if value is None else value.strip()

    def str(self, name: str, default: str | None = None) -> str | None:
        value = self.raw(name)
        return default if value in (None, "") else value

    def bool(self, name: str, default: bool) -> bool:
        value = self.raw(name)
        if value in (None, ""):
            return default
        word = value.lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise EnvError(name, f"expected true or false (1/0, yes/no, on/off), got {value!r}")

    def int(self, name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
        value = self.raw(name)
        if value in (None, ""):
            return default
        try:
            number = int(value)
        except ValueError:
            raise EnvError(name, f"expected a whole number, got {value!r}") from None
        if number < minimum or (maximum is not None and number > maximum):
            bound = f"between {minimum} and {maximum}" if maximum is not None else f">= {minimum}"
            raise EnvError(name, f"expected a number {bound}, got {number}")
        return number

    def list(self, name: str, default: list[str]) -> list[str]:
        value = self.raw(name)
        if value in (None, ""):
            return list(default)
        items = [item.strip() for item in value.split(",")]
        if any(not item for item in items):
            raise EnvError(
                name, f"expected a comma-separated list with no empty item, got {value!r}"
            )
        return items

    def ratios(self, name: str, default: dict[str, int]) -> dict[str, int]:
        """Read "train=83,dev=9,test=8" (or "83,9,8" in the default's order) as weights."""
        value = self.raw(name)
        if value in (None, ""):
            return dict(default)
        items = [item.strip() for item in value.split(",")]
        try:
            if all("=" in item for item in items):
                pairs = [item.split("=", 1) for item in items]
                weights = {key.strip(): int(number) for key, number in pairs}
            else:
                weights = dict(zip(default, (int(item) for item in items), strict=True))
        except ValueError:
            problem = f"expected weights like train=83,dev=9,test=8, got {value!r}"
            raise EnvError(name, problem) from None
        if (
            set(weights) != set(default)
            or any(w < 0 for w in weights.values())
            or not any(weights.values())
        ):
            keys = ", ".join(default)
            problem = f"expected one non-negative weight for each of {keys}, got {value!r}"
            raise EnvError(name, problem)
        return {key: weights[key] for key in default}

    def choice(self, name: str, default: str, choices: list[str]) -> str:
        value = self.str(name, default)
        if value not in choices:
            raise EnvError(name, f"expected one of {', '.join(choices)}, got {value!r}")
        return value


def parse_database_url(name: str, url: str) -> dict:
    """Return a Django DATABASES entry for a postgres:// or sqlite:/// URL."""
    parts = urlsplit(url)
    engine = DATABASE_SCHEMES.get(parts.scheme)
    if engine is None:
        schemes = ", ".join(sorted(DATABASE_SCHEMES))
        raise EnvError(name, f"unsupported scheme {parts.scheme!r} (use one of {schemes})")
    if engine.endswith("sqlite3"):
        path = parts.path[1:] if parts.path.startswith("//") else parts.path
        if not path or path == "/":
            raise EnvError(
                name, "a sqlite URL needs a file path, e.g. sqlite:////srv/qa/db.sqlite3"
            )
        return sqlite_database(Path(path))
    database = parts.path.lstrip("/")
    if not database:
        raise EnvError(name, "a database name is missing after the host, e.g. postgres://host/qa")
    try:
        port = parts.port
    except ValueError:
        raise EnvError(name, "the port is not a number") from None
    return {
        "ENGINE": engine,
        "NAME": database,
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(port or ""),
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        # A statement run twice through a cursor that binds on the server is prepared:
        # PostgreSQL then neither parses nor plans it again. Only the work loop's hand-written
        # statements use such a cursor (`core.rows.prepared_cursor`); the ORM keeps psycopg's
        # client-side binding, which has no limit on the number of parameters (a statement
        # bound on the server takes at most 65,535) and no plan to keep per connection.
        "OPTIONS": {"prepare_threshold": 2},
    }


def sqlite_database(path: Path) -> dict:
    """Return the embedded database: one file, WAL so the web and the worker can share it."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(path),
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
        },
    }


def check_redis_url(name: str, url: str) -> str:
    """Return the URL when it names a Redis server."""
    parts = urlsplit(url)
    if parts.scheme not in REDIS_SCHEMES or not parts.hostname:
        raise EnvError(name, f"expected redis://host:port/db, got {url!r}")
    try:
        _port = parts.port  # parsing the port is the check
    except ValueError:
        raise EnvError(name, "the port is not a number") from None
    return url


def read_or_create_secret(path: Path) -> str:
    """Return the install's secret key, generating it on first use (never stored in code)."""
    if path.exists():
        secret = path.read_text().strip()
        if len(secret) < 50:
            raise EnvError("SECRET_KEY", f"{path} holds a key under 50 characters; delete the file")
        return secret
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(64)
    # Link a finished temporary file into place: creation is atomic and fails if another
    # process won the race, in which case its key is the one every process must use.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(secret)
    tmp.chmod(0o600)
    try:
        os.link(tmp, path)
    except FileExistsError:
        secret = path.read_text().strip()
    finally:
        tmp.unlink()
    return secret
