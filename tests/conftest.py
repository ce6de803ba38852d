"""Shared fixtures: accounts per role, and checks that the real services are there.

The suite runs in two passes (docs/operations.md, "Tests"): everything on PostgreSQL and
Redis, then the journeys marked `both_backends` on SQLite and the filesystem queue, as
`make run` serves (QA_TEST_PASS=sqlite, DATABASE_URL and REDIS_URL empty).
"""

import os
import uuid

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.utils import translation

from core.roles import Role
from tests.factories import UserFactory
from tests.needs import IN_CI, require_service
from tests.services import WorkerProcess, manage_env, start_worker, stop_worker

SQLITE_PASS = os.environ.get("QA_TEST_PASS") == "sqlite"


def pytest_sessionstart(session):
    """In CI the suite runs on PostgreSQL and Redis or not at all, but for the SQLite pass,
    which says so (QA_TEST_PASS=sqlite) and then runs on SQLite and the file queue only."""
    engine = settings.DATABASES["default"]["ENGINE"]
    problems = []
    if SQLITE_PASS:
        if not engine.endswith("sqlite3"):
            problems.append(f"the SQLite pass needs DATABASE_URL empty (engine is {engine})")
        if settings.REDIS_URL:
            problems.append("the SQLite pass needs REDIS_URL empty (it runs on the file queue)")
    elif IN_CI:
        if not engine.endswith("postgresql"):
            problems.append(f"DATABASE_URL must point at PostgreSQL in CI (engine is {engine})")
        if not settings.REDIS_URL:
            problems.append("REDIS_URL must point at Redis in CI")
    if problems:
        pytest.exit("; ".join(problems), returncode=3)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the test database is a file of this run, not Django's in-memory one: a worker
    process and the live server's thread then read the rows the test wrote, as `make run`'s
    worker and web server share var/db.sqlite3."""
    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("sqlite3"):
        folder = tmp_path_factory.mktemp("sqlite")
        default.setdefault("TEST", {})["NAME"] = str(folder / "test_db.sqlite3")


class SentTasks:
    """What `core.services.jobs.job_enqueue` asked the broker to send, instead of sending it."""

    def __init__(self):
        self.calls = []

    def __call__(self, name, **options):
        self.calls.append((name, options))


@pytest.fixture
def sent_tasks(monkeypatch):
    """Record the tasks sent by name (task name, options), in order; nothing reaches Redis."""
    from config.celery import app

    recorder = SentTasks()
    monkeypatch.setattr(app, "send_task", recorder)
    return recorder


PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language, as a request without preference does.

    A management command (the flush after a transactional test) switches translations off
    for the rest of the process; without this, later tests would read English.
    """
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def own_cache_keys(settings):
    """Each test counts in cache keys of its own (sign-in attempts, failures, throttles).

    Redis outlives test databases and runs: without a prefix of its own, a test would find
    the counters an earlier one left.
    """
    prefix = f"t{uuid.uuid4().hex[:16]}"
    settings.CACHES = {
        name: config | {"KEY_PREFIX": prefix} for name, config in settings.CACHES.items()
    }


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Hash test passwords cheaply; the real hasher costs about 0.4 s per user."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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


def database_url_of(settings_dict: dict) -> str:
    user = settings_dict["USER"]
    auth = f"{user}:{settings_dict['PASSWORD']}@" if settings_dict["PASSWORD"] else f"{user}@"
    port = f":{settings_dict['PORT']}" if settings_dict["PORT"] else ""
    return f"postgres://{auth if user else ''}{settings_dict['HOST']}{port}/{settings_dict['NAME']}"


@pytest.fixture
def redis_worker_factory(transactional_db):
    """Start real workers on every queue, reading the test database, fed by the real Redis."""
    if not settings.REDIS_URL:
        require_service("REDIS_URL is not set: the worker test needs a real Redis")
    if connection.vendor != "postgresql":
        require_service("DATABASE_URL must point at PostgreSQL for the worker test")
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        client.ping()
    except redis.RedisError as error:
        require_service(f"Redis at REDIS_URL is unreachable: {error}")
    # Messages left by an earlier run would name rows of another test database.
    client.delete(*settings.JOB_QUEUES, "unacked", "unacked_index")
    processes = []

    def start(**extra_env):
        env = manage_env(DATABASE_URL=database_url_of(connection.settings_dict), **extra_env)
        process = start_worker(env=env, queues=",".join(settings.JOB_QUEUES), name="pytest")
        processes.append(process)
        return process

    yield start
    for process in processes:
        stop_worker(process)


@pytest.fixture
def redis_worker(redis_worker_factory):
    return redis_worker_factory()


def _point_the_file_queue_at(app, broker) -> dict:
    """Send this process's jobs to the filesystem queue in `broker`; return the options it
    had. The same options as settings.py, on another folder. Celery keeps its connection and
    producer pools per app: they are forgotten so that the next send opens this folder."""
    before = app.conf.broker_transport_options
    for folder in ("queue", "control"):
        (broker / folder).mkdir(parents=True, exist_ok=True)
    app.conf.broker_transport_options = before | {
        "data_folder_in": str(broker / "queue"),
        "data_folder_out": str(broker / "queue"),
        "control_folder": str(broker / "control"),
    }
    _forget_broker_pools(app)
    return before


def _forget_broker_pools(app) -> None:
    app.amqp._producer_pool = None
    app._pool = None


@pytest.fixture(scope="session", autouse=True)
def own_file_queue(tmp_path_factory):
    """Without Redis (the SQLite pass), the jobs a test sends go to a folder of this run, never
    to var/broker, where the worker of a `make run` on this checkout would take them."""
    if settings.REDIS_URL:
        yield
        return
    from config.celery import app

    before = _point_the_file_queue_at(app, tmp_path_factory.mktemp("broker"))
    yield
    app.conf.broker_transport_options = before
    _forget_broker_pools(app)


@pytest.fixture
def worker_var_dir(tmp_path):
    """The VAR_DIR of the workers a test starts (their release files, their file queue)."""
    var = tmp_path / "worker-var"
    var.mkdir(exist_ok=True)
    return var


@pytest.fixture
def file_queue_worker_factory(transactional_db, worker_var_dir):
    """Start real workers as `make run` does on SQLite: kombu's filesystem queue, the test
    database's file. The queue is a folder of this test (the workers' own VAR_DIR), and this
    process sends its jobs there; returns start(**env) -> WorkerProcess."""
    from config.celery import app

    if connection.vendor != "sqlite":
        pytest.fail("the file-queue worker shares the SQLite file: run it in the SQLite pass")
    var = worker_var_dir
    before = _point_the_file_queue_at(app, var / "broker")
    started: list[WorkerProcess] = []

    def start(name: str = "pytest", queues: str | None = None, **extra_env) -> WorkerProcess:
        env = manage_env(
            DATABASE_URL=f"sqlite:///{connection.settings_dict['NAME']}",
            REDIS_URL="",
            VAR_DIR=str(var),
            **extra_env,
        )
        worker = WorkerProcess(env, name, queues or ",".join(settings.JOB_QUEUES))
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()
    app.conf.broker_transport_options = before
    _forget_broker_pools(app)


@pytest.fixture
def pass_worker_factory(request, transactional_db, worker_var_dir):
    """The workers of this pass, as its platform runs them: fed by Redis on PostgreSQL, by the
    filesystem queue on SQLite (`make run`). start(name, queues, **env) -> WorkerProcess."""
    if connection.vendor == "sqlite":
        return request.getfixturevalue("file_queue_worker_factory")
    request.getfixturevalue("redis_worker_factory")  # checks and empties Redis
    started: list[WorkerProcess] = []

    def start(name: str = "pytest", queues: str | None = None, **extra_env) -> WorkerProcess:
        env = manage_env(
            DATABASE_URL=database_url_of(connection.settings_dict),
            VAR_DIR=str(worker_var_dir),
            **extra_env,
        )
        worker = WorkerProcess(env, name, queues or ",".join(settings.JOB_QUEUES))
        started.append(worker)
        request.addfinalizer(worker.stop)
        return worker

    return start


@pytest.fixture
def releases_folder(settings, tmp_path):
    """Release files go to a folder of this test (the `releases` storage); returns it."""
    folder = tmp_path / "releases"
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(folder)},
        },
    }
    return folder


@pytest.fixture
def site(settings, releases_folder, monkeypatch):
    """A platform with something on every page (`tests.e2e.site_data.build_site`); jobs run
    in place and nothing reaches a broker."""
    from config.celery import app
    from tests.e2e.site_data import build_site

    monkeypatch.setattr(app, "send_task", lambda *args, **kwargs: None)
    settings.WIKIPEDIA_USER_AGENT = "qaplatform-tests/1.0 (tests@example.org)"
    return build_site()
