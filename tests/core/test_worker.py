"""Real worker processes consume jobs and update their rows: on Redis, and without it."""

import json
import os

import pytest

from core.models import WorkerCheck
from core.services.workers import worker_check_start
from tests.services import manage, manage_env, start_worker, stop_worker, wait_until


@pytest.mark.worker
def test_a_real_worker_takes_the_job_from_redis_and_finishes_it(redis_worker):
    check = worker_check_start(queue="export")
    check = wait_until(lambda: WorkerCheck.objects.get(pk=check.pk), lambda c: c.is_finished)
    assert check.status == WorkerCheck.Status.SUCCEEDED, check.error
    assert check.progress == 100
    assert check.worker.startswith("pytest@")
    assert check.attempts == 1
    assert check.message_text == "La file «\u202fexport\u202f» est servie."


@pytest.mark.worker
def test_embedded_mode_runs_jobs_in_a_worker_without_redis(tmp_path):
    env = manage_env(VAR_DIR=str(tmp_path), DATABASE_URL=None, REDIS_URL=None)
    migrated = manage("migrate", "--noinput", env=env, timeout=180)
    assert migrated.returncode == 0, migrated.stderr
    worker = start_worker(env=env, queues="default,scrape,export", name="embedded")
    try:
        result = manage("check_workers", "--timeout", "300", "--json", env=env, timeout=600)
    finally:
        stop_worker(worker)
    assert result.returncode == 0, result.stderr
    checks = json.loads(result.stdout)["checks"]
    assert [(c["queue"], c["status"], c["progress"]) for c in checks] == [
        ("default", "succeeded", 100),
        ("scrape", "succeeded", 100),
        ("export", "succeeded", 100),
    ]
    assert all(c["worker"].startswith("embedded@") for c in checks)
    assert (tmp_path / "db.sqlite3").exists()
    assert os.listdir(tmp_path / "broker" / "queue") == []  # every message consumed


@pytest.mark.worker
def test_check_workers_fails_naming_the_queue_nobody_serves(tmp_path):
    env = manage_env(VAR_DIR=str(tmp_path), DATABASE_URL=None, REDIS_URL=None)
    assert manage("migrate", "--noinput", env=env, timeout=180).returncode == 0
    result = manage("check_workers", "--queue", "gpu", "--timeout", "1", env=env, timeout=60)
    assert result.returncode == 1
    assert "No worker served gpu within 1 s." in result.stderr
