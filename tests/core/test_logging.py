"""A refused request logs one line; a server error keeps its traceback; nothing twice."""

import logging
import sys

from django.conf import settings

from core.logging import RefusalsWithoutTraceback


def record(name: str, status: int | None) -> logging.LogRecord:
    try:
        raise PermissionError("nope")
    except PermissionError:
        info = sys.exc_info()
    made = logging.LogRecord(name, logging.WARNING, __file__, 1, "Forbidden: /x/", (), info)
    if status is not None:
        made.status_code = status
    return made


def test_a_4xx_loses_its_traceback_and_a_5xx_keeps_it():
    refusals = RefusalsWithoutTraceback()
    forbidden, broken = record("django.request", 403), record("django.request", 500)
    host = record("django.security.DisallowedHost", None)
    other = record("core.services.jobs", None)

    assert all(refusals.filter(r) for r in (forbidden, broken, host, other))
    assert (forbidden.exc_info, host.exc_info) == (None, None)
    assert broken.exc_info is not None and other.exc_info is not None


def test_djangos_records_go_through_one_handler_only():
    config = settings.LOGGING
    assert config["handlers"]["console"]["filters"] == ["refusals"]
    assert config["loggers"]["django"] == {
        "handlers": ["console"],
        "level": settings.LOG_LEVEL,
        "propagate": False,
    }
    assert logging.getLogger("django").propagate is False
