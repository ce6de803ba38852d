"""Production settings pass Django's deployment checklist with no warning."""

from tests.services import manage, manage_env

PRODUCTION = {
    "DEBUG": None,
    "SECRET_KEY": "k" * 20 + "Qz8-vT3_pL9xR2mN6bW4yH7jF1dS5aE0cU" + "x" * 10,
    "ALLOWED_HOSTS": "qa.example.org",
    "STATIC_MANIFEST": None,
}


def test_check_deploy_prints_no_warning(tmp_path):
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env=manage_env(VAR_DIR=str(tmp_path), **PRODUCTION),
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "System check identified no issues (0 silenced)."
    assert "WARNING" not in result.stderr


def test_debug_is_off_unless_asked(tmp_path):
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DEBUG, settings.HTTPS)",
        env=manage_env(VAR_DIR=str(tmp_path), **PRODUCTION),
        timeout=60,
    )
    assert result.stdout.strip().splitlines()[-1] == "False True"
