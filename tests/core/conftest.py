"""Fixtures of the schema tests (`test_schema_fuzz.py`, `test_schema_responses.py`)."""

from __future__ import annotations

import pytest
from django.core import signals
from django.db import close_old_connections


@pytest.fixture
def wsgi_in_test_transaction(db):
    """Keep the test's connection (and its transaction) open across WSGI requests, as
    Django's test client does: the handler would otherwise close it after each answer."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def openapi(wsgi_in_test_transaction):
    """The API's schema, as Schemathesis reads it from the WSGI app in this process."""
    import schemathesis

    from config.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
