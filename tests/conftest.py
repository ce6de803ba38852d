"""Shared fixtures: accounts per role, and checks that the real services are there."""

import os

import pytest
from django.conf import settings

from accounts.roles import Role
from tests.factories import UserFactory

IN_CI = os.environ.get("CI") == "true"


def pytest_sessionstart(session):
    """In CI the suite runs on PostgreSQL and Redis or not at all."""
    if not IN_CI:
        return
    engine = settings.DATABASES["default"]["ENGINE"]
    problems = []
    if not engine.endswith("postgresql"):
        problems.append(f"DATABASE_URL must point at PostgreSQL in CI (engine is {engine})")
    if not settings.REDIS_URL:
        problems.append("REDIS_URL must point at Redis in CI")
    if problems:
        pytest.exit("; ".join(problems), returncode=3)


def require_service(reason: str):
    """Fail in CI, skip (saying why) elsewhere."""
    if IN_CI:
        pytest.fail(reason)
    pytest.skip(reason)


PASSWORD = "correct horse battery staple"


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def annotator(db):
    return UserFactory(username="ann", roles=[Role.ANNOTATOR], password=PASSWORD)


@pytest.fixture
def reviewer(db):
    return UserFactory(username="rev", roles=[Role.REVIEWER], password=PASSWORD)


@pytest.fixture
def admin_user(db):
    return UserFactory(username="boss", roles=[Role.ADMIN], password=PASSWORD)


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client
