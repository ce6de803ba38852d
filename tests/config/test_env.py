"""Settings come from the environment; a bad value stops start-up naming the variable."""

import pytest

from config.env import Env, EnvError, check_redis_url, parse_database_url, read_or_create_secret
from tests.services import manage, manage_env


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("NO", False),
        ("off", False),
    ],
)
def test_bool_accepts_the_usual_words(raw, expected):
    assert Env({"DEBUG": raw}).bool("DEBUG", default=not expected) is expected


def test_bool_uses_the_default_when_unset_or_empty():
    assert Env({}).bool("DEBUG", default=False) is False
    assert Env({}).bool("DEBUG", default=True) is True
    assert Env({"DEBUG": ""}).bool("DEBUG", default=True) is True


def test_bool_refuses_anything_else_naming_the_variable():
    with pytest.raises(EnvError) as error:
        Env({"DEBUG": "maybe"}).bool("DEBUG", default=False)
    assert str(error.value) == ("DEBUG: expected true or false (1/0, yes/no, on/off), got 'maybe'")


def test_int_checks_type_and_bounds():
    assert Env({"N": " 42 "}).int("N", 1) == 42
    with pytest.raises(EnvError, match=r"^N: expected a whole number, got 'forty'$"):
        Env({"N": "forty"}).int("N", 1)
    with pytest.raises(EnvError, match=r"^N: expected a number >= 60, got 5$"):
        Env({"N": "5"}).int("N", 100, minimum=60)


def test_list_splits_on_commas_and_refuses_empty_items():
    assert Env({"H": "a.org, b.org"}).list("H", []) == ["a.org", "b.org"]
    assert Env({}).list("H", ["localhost"]) == ["localhost"]
    assert Env({"H": ""}).list("H", ["localhost"]) == ["localhost"]
    with pytest.raises(EnvError, match="^H: expected a comma-separated list"):
        Env({"H": "a.org,,b.org"}).list("H", [])


def test_choice_refuses_unknown_values():
    assert Env({"L": "DEBUG"}).choice("L", "INFO", ["DEBUG", "INFO"]) == "DEBUG"
    with pytest.raises(EnvError, match=r"^L: expected one of DEBUG, INFO, got 'LOUD'$"):
        Env({"L": "LOUD"}).choice("L", "INFO", ["DEBUG", "INFO"])


def test_database_url_postgres():
    db = parse_database_url("DATABASE_URL", "postgres://qa:s3cret@db.internal:6543/qa")
    assert db["OPTIONS"] == {"prepare_threshold": 2}
    assert (db["ENGINE"], db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "django.db.backends.postgresql",
        "qa",
        "qa",
        "s3cret",
        "db.internal",
        "6543",
    )


def test_database_url_decodes_escaped_credentials():
    db = parse_database_url("DATABASE_URL", "postgres://qa:p%40ss%2Fw%23rd@db/qa")
    assert db["PASSWORD"] == "p@ss/w#rd"


def test_database_url_sqlite_uses_wal():
    db = parse_database_url("DATABASE_URL", "sqlite:////srv/qa/db.sqlite3")
    assert db["NAME"] == "/srv/qa/db.sqlite3"
    assert db["OPTIONS"]["init_command"].startswith("PRAGMA journal_mode=WAL;")


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        (
            "mysql://db/qa",
            "DATABASE_URL: unsupported scheme 'mysql' (use one of postgres, postgresql, sqlite)",
        ),
        (
            "postgres://db.internal",
            "DATABASE_URL: a database name is missing after the host, e.g. postgres://host/qa",
        ),
        ("postgres://db:port/qa", "DATABASE_URL: the port is not a number"),
    ],
)
def test_database_url_refusals(url, problem):
    with pytest.raises(EnvError) as error:
        parse_database_url("DATABASE_URL", url)
    assert str(error.value) == problem


def test_redis_url_must_be_redis():
    assert check_redis_url("REDIS_URL", "redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    with pytest.raises(EnvError, match=r"^REDIS_URL: expected redis://host:port/db"):
        check_redis_url("REDIS_URL", "http://127.0.0.1:6379")


def test_secret_is_generated_once_and_kept(tmp_path):
    path = tmp_path / "var" / "secret_key"
    first = read_or_create_secret(path)
    assert len(first) >= 50
    assert read_or_create_secret(path) == first
    assert path.stat().st_mode & 0o777 == 0o600
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


def test_a_short_stored_secret_is_refused(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("short")
    with pytest.raises(EnvError, match="^SECRET_KEY: .* holds a key under 50 characters"):
        read_or_create_secret(path)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEBUG", "maybe", "Bad environment variable DEBUG: expected true or false"),
        (
            "DATABASE_URL",
            "mysql://x/y",
            "Bad environment variable DATABASE_URL: unsupported scheme",
        ),
        ("REDIS_URL", "localhost:6379", "Bad environment variable REDIS_URL: expected redis://"),
        ("SECRET_KEY", "too-short", "Bad environment variable SECRET_KEY: must be at least 50"),
        ("JOB_MAX_SECONDS", "ten", "Bad environment variable JOB_MAX_SECONDS: expected a whole"),
        (
            "CORPUS_MAX_PARAGRAPH_CHARS",
            "100",
            "Bad environment variable CORPUS_MAX_PARAGRAPH_CHARS: must be 0 (no maximum) or at least",
        ),
        (
            "CORPUS_SPLIT_RATIOS",
            "80,20",
            "Bad environment variable CORPUS_SPLIT_RATIOS: expected weights like train=83",
        ),
    ],
)
def test_start_up_stops_on_a_bad_value(tmp_path, name, value, message):
    result = manage("check", env=manage_env(VAR_DIR=str(tmp_path), **{name: value}), timeout=60)
    assert result.returncode == 1
    assert message in result.stderr
    assert "ImproperlyConfigured" in result.stderr


def test_ratios_in_order_or_by_name():
    default = {"train": 83, "dev": 9, "test": 8}
    assert Env({"R": "80,10,10"}).ratios("R", default) == {"train": 80, "dev": 10, "test": 10}
    assert Env({"R": "test=1, dev=2,train=7"}).ratios("R", default) == {
        "train": 7,
        "dev": 2,
        "test": 1,
    }
    assert Env({}).ratios("R", default) == default
    for bad in ("a,b,c", "train=1,dev=2,foo=3", "0,0,0", "-1,5,5"):
        with pytest.raises(EnvError, match="^R: expected"):
            Env({"R": bad}).ratios("R", default)
