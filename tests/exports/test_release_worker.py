"""A real export worker builds releases; one killed mid-build is redelivered and finished once.

The workers are real Celery processes reading the test database, fed by the real Redis on
PostgreSQL and by the filesystem queue in the SQLite pass, as `make run` feeds its worker (see
`pass_worker_factory` in tests/conftest.py); their release files go to `$VAR_DIR/releases`,
which the test points at a temporary folder. The end-to-end build runs in both passes.
"""

from __future__ import annotations

import hashlib
import json
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from core.roles import Role
from exports.models import Release, ReleaseFile
from exports.services.releases import release_create
from tests.exports.test_releases import make_dataset
from tests.factories import UserFactory
from tests.needs import PIAF, require_file
from tests.services import WorkerProcess, wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


DATA_PREFIXES = ("squad-", "hf-", "mrqa-")


@pytest.fixture
def var_dir(worker_var_dir, settings) -> Path:
    """The workers' VAR_DIR; this process reads the same releases folder."""
    var = worker_var_dir
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(var / "releases")},
        },
    }
    return var


@pytest.fixture
def boss(transactional_db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def release_folder(var: Path, release: Release) -> Path:
    return var / "releases" / "releases" / str(release.pk)


def shell_build(tmp_path: Path, release: Release, folder: str) -> dict[str, str]:
    """Build the release's options with `export_release --out`; return {name: sha256}."""
    options = release.options
    out = tmp_path / folder
    args = [
        "export_release",
        "--out",
        str(out),
        "--formats",
        ",".join(options["formats"]),
        "--splits",
        ",".join(options["splits"]),
        "--name",
        release.name,
        "--release-version",
        release.version,
        "--json",
    ]
    args += ["--include-test-answers"] if options["include_test_answers"] else []
    args += ["--approved-only"] if options["approved_only"] else []
    args += ["--history"] if options["include_history"] else []
    stdout = StringIO()
    call_command(*args, stdout=stdout)
    written = json.loads(stdout.getvalue())["files"]
    assert {f["sha256"] for f in written} == {sha256(out / f["name"]) for f in written}
    return {f["name"]: f["sha256"] for f in written}


def assert_stored_as_recorded(var: Path, release: Release) -> dict[str, str]:
    """Every file row matches the stored bytes, and the folder holds nothing else."""
    folder = release_folder(var, release)
    rows = {f.name: f for f in ReleaseFile.objects.filter(release=release)}
    assert sorted(p.name for p in folder.iterdir()) == sorted(rows)
    for name, row in rows.items():
        path = folder / name
        assert row.storage_name == f"releases/{release.pk}/{name}"
        assert (row.bytes, row.sha256) == (path.stat().st_size, sha256(path)), name
    return {name: row.sha256 for name, row in rows.items()}


@pytest.fixture
def workers(pass_worker_factory, var_dir):
    """Start workers (export, unless other queues are named) on the test database, fed as
    this pass's platform feeds them: Redis on PostgreSQL, the file queue on SQLite
    (`pass_worker_factory` in tests/conftest.py)."""

    def start(name: str, queues: str = "export", **extra_env) -> WorkerProcess:
        return pass_worker_factory(name, queues, **extra_env)

    return start


@pytest.mark.both_backends
def test_a_real_export_worker_builds_a_release_end_to_end(workers, var_dir, boss, tmp_path):
    ds = make_dataset()
    worker = workers("export")

    release = release_create(
        created_by=boss,
        name="fquad-worker",
        version="1.0",
        formats=["squad", "hf", "mrqa"],
        include_history=True,
    )
    release = wait_until(lambda: Release.objects.get(pk=release.pk), lambda r: r.is_finished)

    assert release.status == Release.Status.SUCCEEDED, release.error + worker.log()
    # 12 files shown: the 3 gold files stay on the server and are not counted.
    assert (release.attempts, release.progress, release.message_text) == (
        1,
        100,
        "12 fichiers écrits.",
    )
    stored = assert_stored_as_recorded(var_dir, release)
    assert sorted(stored) == [
        "README.md",
        "gold-dev.json",
        "gold-test.json",
        "gold-train.json",
        "hf-dev.jsonl",
        "hf-test.jsonl",
        "hf-train.jsonl",
        "history.jsonl",
        "manifest.json",
        "mrqa-dev.jsonl.gz",
        "mrqa-test.jsonl.gz",
        "mrqa-train.jsonl.gz",
        "squad-dev.json",
        "squad-test.json",
        "squad-train.json",
    ]
    shell = shell_build(tmp_path, release, "shell")
    for name in stored:
        if name.startswith(DATA_PREFIXES) or name == "history.jsonl":
            assert stored[name] == shell[name], name
    hf = (release_folder(var_dir, release) / "hf-train.jsonl").read_text(encoding="utf-8")
    assert [json.loads(line)["id"] for line in hf.splitlines()] == [ds.id("A0"), ds.id("A2")]
    assert "pytest" not in worker.log()  # sanity: the log is the worker's own


def test_a_killed_build_is_redelivered_and_built_once_from_scratch(
    workers, var_dir, boss, tmp_path
):
    require_file(PIAF, "the kill test builds a release of PIAF")
    started = time.monotonic()
    stdout = StringIO()
    call_command("import_squad", str(PIAF), "--wave", "1.0", "--json", stdout=stdout)
    assert json.loads(stdout.getvalue())["questions_imported"] == 3835
    env = {"BROKER_VISIBILITY_TIMEOUT": "2"}
    first = workers("first", **env)

    release = release_create(
        created_by=boss,
        name="piaf-killed",
        version="1.0",
        formats=["squad", "hf", "mrqa"],
        include_test_answers=True,
        include_history=True,
    )
    running = wait_until(
        lambda: Release.objects.get(pk=release.pk),
        lambda r: r.is_finished or (r.status == Release.Status.RUNNING and r.progress > 0),
        interval=0.05,
    )
    assert (running.status, running.attempts) == ("running", 1), running.error + first.log()
    assert 0 < running.progress < 90
    first.kill()
    killed_at = time.monotonic()

    killed = Release.objects.get(pk=release.pk)
    assert killed.status == Release.Status.RUNNING
    assert killed.attempts == 1
    assert ReleaseFile.objects.filter(release=release).count() == 0
    assert killed.manifest == {}
    # What a worker killed while copying files to the storage would leave there.
    folder = release_folder(var_dir, release)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "squad-train.json").write_bytes(b'{"version": "1.1", "data": [')
    (folder / "squad-train_AbCdEfG.json").write_bytes(b"a renamed copy")

    # A worker sweeps the unacknowledged tasks older than the visibility timeout when it
    # connects, then only every ~100 s (kombu's restore interval 10 s x throttle 10): start the
    # new one once the killed task is past the 2 s timeout, as a restarted host would.
    time.sleep(max(0.0, 3 - (time.monotonic() - killed_at)))
    second = workers("second", **env)
    done = wait_until(lambda: Release.objects.get(pk=release.pk), lambda r: r.is_finished)
    redelivered_after = time.monotonic() - killed_at

    assert Release.objects.count() == 1
    assert done.status == Release.Status.SUCCEEDED, done.error + second.log()
    assert done.attempts == 2
    assert done.progress == 100
    stored = assert_stored_as_recorded(var_dir, release)
    assert len(stored) == 15  # 12 files to download, 3 kept for scoring
    shell = shell_build(tmp_path, done, "shell")
    data = sorted(name for name in stored if name.startswith(DATA_PREFIXES))
    assert len(data) == 9
    assert {name: stored[name] for name in data} == {name: shell[name] for name in data}
    assert stored["history.jsonl"] == shell["history.jsonl"]
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    public = ReleaseFile.objects.filter(release=release, internal=False).exclude(
        name="manifest.json"
    )
    assert {f["name"]: f["sha256"] for f in manifest["files"]} == dict(
        public.values_list("name", "sha256")
    )
    assert len(manifest["files"]) == 11
    # A task delivered again later (the visibility timeout is 2 s) finds the release done.
    time.sleep(3)
    again = Release.objects.get(pk=release.pk)
    assert (again.status, again.attempts, again.finished_at) == (
        "succeeded",
        2,
        done.finished_at,
    )
    print(
        f"\nkill test: killed at progress {running.progress} %, redelivered and rebuilt in "
        f"{redelivered_after:.1f} s, {time.monotonic() - started:.1f} s in all"
    )
