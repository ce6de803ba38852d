"""`bin/test-services`, which `make test` and CI run first: services up, or exactly what to
install."""

import os
import shutil
import subprocess

import pytest

from tests.services import ROOT

SCRIPT = ROOT / "bin" / "test-services"
TOOLS = ("bash", "pg_isready", "psql", "createdb", "redis-cli", "seq", "sleep", "grep", "id")


def run_without(tmp_path, missing: str) -> subprocess.CompletedProcess:
    """Run the script with a PATH that has every tool it uses but `missing`."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        if tool != missing and found:
            (folder / tool).symlink_to(found)
    env = {
        "PATH": str(folder),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/qaplatform",
        "REDIS_URL": "redis://127.0.0.1:6379/1",
        "HOME": os.environ.get("HOME", "/root"),
    }
    return subprocess.run(
        [shutil.which("bash"), str(SCRIPT)], env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("missing", "said"),
    [
        (
            "pg_isready",
            "PostgreSQL is not installed. On Debian: apt-get install postgresql "
            "postgresql-client (then run this again)",
        ),
        (
            "redis-cli",
            "Redis is not installed. On Debian: apt-get install redis-server (then run this again)",
        ),
    ],
)
def test_a_service_not_installed_stops_the_run_naming_what_to_install(tmp_path, missing, said):
    result = run_without(tmp_path, missing)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == f"[services] ERROR: {said}"


def test_with_the_services_running_it_says_so_and_succeeds(tmp_path):
    result = run_without(tmp_path, missing="")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        "[services] PostgreSQL is up on 127.0.0.1:5432",
        "[services] Redis is up on 127.0.0.1:6379",
    ]
