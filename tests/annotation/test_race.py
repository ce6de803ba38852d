"""Concurrent claims never hand one paragraph to two annotators: PostgreSQL and SQLite."""

import json
import sys

import pytest
from django.db import connection

from annotation.models import Lease
from tests.annotation.race import ANNOTATORS, claim_all, prepare
from tests.conftest import require_service
from tests.services import ROOT, manage, manage_env


@pytest.mark.django_db(transaction=True)
def test_fifty_threads_get_fifty_distinct_paragraphs_on_this_database():
    if connection.vendor != "postgresql":
        require_service("the PostgreSQL race needs DATABASE_URL to point at PostgreSQL")
    result = claim_all(*prepare())
    assert result["errors"] == []
    assert len(result["paragraphs"]) == ANNOTATORS
    assert len(set(result["paragraphs"])) == ANNOTATORS
    assert Lease.objects.filter(status="active").count() == ANNOTATORS


def test_fifty_threads_get_fifty_distinct_paragraphs_on_embedded_sqlite(tmp_path):
    import subprocess

    env = manage_env(
        VAR_DIR=str(tmp_path),
        DATABASE_URL=None,
        REDIS_URL=None,
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    assert manage("migrate", "--noinput", env=env, timeout=180).returncode == 0
    done = subprocess.run(
        [sys.executable, "-m", "tests.annotation.race"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["errors"] == []
    assert len(result["paragraphs"]) == ANNOTATORS
    assert len(set(result["paragraphs"])) == ANNOTATORS
