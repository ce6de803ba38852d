"""docker-compose.yml and the Dockerfile agree with the settings (no Docker engine needed)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from django.conf import settings

from config.env import Env, check_redis_url, parse_database_url

ROOT = Path(settings.BASE_DIR)
SERVICES = {"postgres", "redis", "migrate", "web", "worker", "beat", "gpu-worker"}
CELERY_SERVICES = ("worker", "beat", "gpu-worker")
LONG_RUNNING = ("postgres", "redis", "web", *CELERY_SERVICES)
REQUIRED = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"}
# What an operator puts in .env: the two secrets compose refuses to start without.
OPERATOR_ENV = {"SECRET_KEY": "s" * 64, "POSTGRES_PASSWORD": "example-password"}
SETTINGS_CALL = re.compile(
    r"""\benv\.(?:str|bool|int|list|choice|ratios)\(\s*["']([A-Z][A-Z0-9_]*)["']"""
)
VARIABLE = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}")


class MissingVariable(LookupError):
    """Compose would refuse to start: a ${NAME:?message} variable is not set."""


def settings_env_names() -> set[str]:
    """Return the names config/settings.py reads with env.str/bool/int/list/choice/ratios."""
    return set(SETTINGS_CALL.findall((ROOT / "config" / "settings.py").read_text()))


def interpolate(text: str, variables: dict[str, str]) -> str:
    """Expand ${NAME}, ${NAME:-default} and ${NAME:?message} as docker compose does."""

    def expand(match: re.Match) -> str:
        name, operator, argument = match.groups()
        if name is None:
            return "$"
        value = variables.get(name)
        # With a colon, an empty value counts as unset.
        unset = value is None or (value == "" and operator is not None and operator[0] == ":")
        if unset and operator in (":-", "-"):
            return argument
        if unset and operator in (":?", "?"):
            raise MissingVariable(f"{name}: {argument}")
        return value or ""

    return VARIABLE.sub(expand, text)


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def service(name: str) -> dict:
    return compose()["services"][name]


def app_services() -> list[str]:
    """Every service that runs the platform's code (all but the database and the broker)."""
    return sorted(set(compose()["services"]) - {"postgres", "redis"})


def environment(name: str) -> dict[str, str]:
    env = service(name).get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {key: "" if value is None else str(value) for key, value in env.items()}


def expanded_environment(name: str, variables: dict[str, str] = OPERATOR_ENV) -> dict[str, str]:
    return {key: interpolate(value, variables) for key, value in environment(name).items()}


def command(name: str) -> list[str]:
    argv = service(name)["command"]
    return argv.split() if isinstance(argv, str) else [str(arg) for arg in argv]


def option(argv: list[str], *names: str) -> str:
    """Return the value of the first of `names` in argv (`--name value` or `--name=value`)."""
    for index, arg in enumerate(argv):
        for name in names:
            if arg == name:
                return argv[index + 1]
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
    raise AssertionError(f"none of {names} in {argv}")


def healthcheck_test(name: str) -> str:
    """Return the healthcheck command of a service as one string (empty if it has none)."""
    check = service(name).get("healthcheck") or {}
    if check.get("disable"):
        return ""
    test = check.get("test", [])
    if isinstance(test, str):
        return test
    if not test or test[0] == "NONE":
        return ""
    return " ".join(test[1:])


def dockerfile_instructions() -> list[tuple[str, str]]:
    """Return (INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    lines, pending = [], ""
    for raw in (ROOT / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def dockerfile(instruction: str) -> list[str]:
    return [args for name, args in dockerfile_instructions() if name == instruction]


# The services


def test_every_service_is_there():
    assert set(compose()["services"]) == SERVICES


@pytest.mark.parametrize("name", ["postgres", "redis", "web", *CELERY_SERVICES])
def test_service_has_a_healthcheck(name):
    assert healthcheck_test(name) != ""


def test_postgres_and_redis_checks_ask_the_servers():
    assert healthcheck_test("postgres").startswith("pg_isready ")
    assert healthcheck_test("redis") == "redis-cli ping"


@pytest.mark.parametrize("name", LONG_RUNNING)
def test_long_running_services_restart(name):
    assert service(name)["restart"] == "unless-stopped"


def test_migrate_runs_once():
    assert service("migrate")["restart"] == "no"
    assert "python manage.py migrate --noinput" in " ".join(command("migrate"))


@pytest.mark.parametrize("name", ["web", *CELERY_SERVICES])
def test_app_services_wait_for_database_broker_and_migrations(name):
    assert service(name)["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
        "migrate": {"condition": "service_completed_successfully"},
    }


def test_named_volumes_hold_the_data():
    assert set(compose()["volumes"]) == {"postgres", "redis", "var"}
    assert service("postgres")["volumes"] == ["postgres:/var/lib/postgresql/data"]
    assert service("redis")["volumes"] == ["redis:/data"]
    assert command("redis") == ["redis-server", "--appendonly", "yes"]


@pytest.mark.parametrize("name", ["migrate", "web", *CELERY_SERVICES])
def test_var_volume_is_shared_by_the_app_services(name):
    assert "var:/srv/var" in service(name)["volumes"]
    assert environment(name)["VAR_DIR"] == "/srv/var"


# Queues and workers


def test_worker_consumes_every_queue_but_gpu():
    queues = option(command("worker"), "--queues", "-Q").split(",")
    assert queues == [name for name in settings.JOB_QUEUES if name != "gpu"]


def test_gpu_worker_consumes_only_gpu_one_job_at_a_time():
    argv = command("gpu-worker")
    assert option(argv, "--queues", "-Q").split(",") == ["gpu"]
    assert option(argv, "--concurrency", "-c") == "1"


def test_every_queue_has_a_worker():
    consumed = {
        queue
        for name in ("worker", "gpu-worker")
        for queue in option(command(name), "--queues", "-Q").split(",")
    }
    assert consumed == set(settings.JOB_QUEUES)


@pytest.mark.parametrize("name", ["worker", "gpu-worker"])
def test_worker_healthcheck_pings_its_own_node(name):
    node = option(command(name), "--hostname", "-n")
    assert node.endswith("@%h")
    destination = node.removesuffix("%h") + "$$HOSTNAME"
    assert healthcheck_test(name) == (
        f"celery -A config inspect ping --destination {destination} --timeout 10"
    )


def test_beat_answers_pings_and_keeps_its_schedule_in_the_volume():
    argv = command("beat")
    assert argv[:4] == ["celery", "-A", "config", "beat"]
    assert "--enable-remote-control" in argv
    assert option(argv, "--schedule", "-s").startswith("/srv/var/")
    assert healthcheck_test("beat") == (
        "celery -A config inspect ping --destination celerybeat@$$HOSTNAME --timeout 10"
    )


def test_gpu_worker_reserves_an_nvidia_gpu_and_runs_the_gpu_image():
    gpu = service("gpu-worker")
    devices = gpu["deploy"]["resources"]["reservations"]["devices"]
    assert any(d["driver"] == "nvidia" and "gpu" in d["capabilities"] for d in devices)
    assert gpu["build"]["args"]["INSTALL_GPU"] == "1"
    assert service("worker")["build"]["args"]["INSTALL_GPU"] == "0"
    assert gpu["image"] != service("worker")["image"]


# Environment


def test_settings_env_names_finds_what_settings_read():
    names = settings_env_names()
    assert REQUIRED | {"VAR_DIR", "DEBUG", "ALLOWED_HOSTS", "JOB_MAX_SECONDS", "LOG_LEVEL"} <= names
    assert "BASE_DIR" not in names


@pytest.mark.parametrize("name", ["migrate", "web", *CELERY_SERVICES])
def test_app_services_set_only_variables_the_settings_read(name):
    assert set(environment(name)) - settings_env_names() == set()


@pytest.mark.parametrize("name", ["migrate", "web", *CELERY_SERVICES])
def test_app_services_set_the_required_variables(name):
    assert {key for key, value in expanded_environment(name).items() if value} >= REQUIRED


def test_every_app_service_shares_one_environment():
    assert len({json.dumps(environment(name), sort_keys=True) for name in app_services()}) == 1


@pytest.mark.parametrize("missing", sorted(OPERATOR_ENV))
def test_compose_refuses_to_start_without_the_secrets(missing):
    variables = {key: value for key, value in OPERATOR_ENV.items() if key != missing}
    with pytest.raises(MissingVariable, match=f"^{missing}: "):
        expanded_environment("web", variables)


def test_debug_is_off():
    assert environment("web")["DEBUG"] == "false"
    assert Env(expanded_environment("web")).bool("DEBUG", True) is False


def test_database_url_points_at_the_postgres_service():
    database = parse_database_url("DATABASE_URL", expanded_environment("web")["DATABASE_URL"])
    postgres = service("postgres")["environment"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["HOST"] == "postgres"
    assert database["PORT"] == "5432"
    assert database["NAME"] == postgres["POSTGRES_DB"]
    assert database["USER"] == postgres["POSTGRES_USER"]
    assert database["PASSWORD"] == interpolate(postgres["POSTGRES_PASSWORD"], OPERATOR_ENV)


def test_redis_url_points_at_the_redis_service():
    url = check_redis_url("REDIS_URL", expanded_environment("web")["REDIS_URL"])
    assert urlsplit(url).hostname == "redis"
    assert urlsplit(url).port == 6379


def test_settings_load_with_the_compose_environment():
    keep = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    script = (
        "import json; from config import settings as s; print(json.dumps([s.DEBUG, s.HTTPS, "
        "s.DATABASES['default']['ENGINE'], s.DATABASES['default']['HOST'], s.CELERY_BROKER_URL, "
        "str(s.VAR_DIR), s.ALLOWED_HOSTS]))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**keep, **expanded_environment("web")},
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == [
        False,
        True,
        "django.db.backends.postgresql",
        "postgres",
        "redis://redis:6379/0",
        "/srv/var",
        ["localhost"],
    ]


# The web service


def test_web_runs_gunicorn_with_config_wsgi_on_port_8000():
    argv = command("web")
    assert argv[:2] == ["gunicorn", "config.wsgi"]
    assert option(argv, "--bind", "-b") == "0.0.0.0:8000"
    assert service("web")["ports"] == ["127.0.0.1:${WEB_PORT:-8000}:8000"]


def test_web_healthcheck_asks_healthz_before_any_other_middleware():
    assert "urllib.request.urlopen('http://127.0.0.1:8000/healthz'" in healthcheck_test("web")
    assert settings.MIDDLEWARE[0] == "core.middleware.HealthCheckMiddleware"


# The image


def test_image_is_python_311_slim():
    assert dockerfile("FROM") == ["python:3.11-slim"]


def test_image_installs_the_project_with_the_languages_extra_and_an_optional_gpu_extra():
    runs = " ".join(dockerfile("RUN"))
    assert "INSTALL_GPU=0" in dockerfile("ARG")
    # Word bounds and metric modes of Chinese and Thai (jieba, PyThaiNLP) in every image.
    assert 'extra="[languages]"' in runs
    assert 'extra="[gpu,languages]"' in runs
    assert "pip install --no-deps ." in runs


def test_image_collects_static_files_with_a_build_only_secret():
    collect = [run for run in dockerfile("RUN") if "manage.py collectstatic --noinput" in run]
    assert len(collect) == 1
    assert collect[0].startswith("SECRET_KEY=")
    assert "STATIC_MANIFEST=true" in collect[0]
    assert not any("SECRET_KEY" in args for args in dockerfile("ENV") + dockerfile("ARG"))


def test_image_does_not_run_as_root():
    users = dockerfile("USER")
    assert users, "the Dockerfile has no USER line"
    assert users[-1].split(":")[0] not in {"root", "0"}


def test_image_serves_gunicorn_on_port_8000_and_keeps_var_in_a_volume():
    assert dockerfile("EXPOSE") == ["8000"]
    cmd = json.loads(dockerfile("CMD")[-1])
    assert cmd[:2] == ["gunicorn", "config.wsgi"]
    assert option(cmd, "--bind", "-b") == "0.0.0.0:8000"
    assert dockerfile("VOLUME") == ['["/srv/var"]']
    assert "VAR_DIR=/srv/var" in " ".join(dockerfile("ENV"))


def test_build_context_leaves_out_local_state():
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {"var", ".venv", ".git", ".env"} <= set(ignored)
