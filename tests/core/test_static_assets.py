"""Static files: hashed names, cached for a year, gzipped (issue 12, item 15).

The files are collected once into a temporary STATIC_ROOT with the storage production and
`make run` use (`config.staticfiles.HashedStaticFilesStorage`), then served by WhiteNoise
through a fresh test client (the middleware reads its settings when it is built).
"""

import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]
HASHED = "config.staticfiles.HashedStaticFilesStorage"
YEAR = "max-age=31536000, public, immutable"


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    storages = {"staticfiles": {"BACKEND": HASHED}}
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root


@pytest.fixture(params=[False, True], ids=["production", "make-run-debug"])
def served(request, settings, collected):
    """Settings as STATIC_MANIFEST=true gives them, with DEBUG off (production) and on."""
    settings.DEBUG = request.param
    settings.STATIC_ROOT = collected
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": HASHED}}
    settings.WHITENOISE_USE_FINDERS = False
    settings.WHITENOISE_AUTOREFRESH = False
    settings.WHITENOISE_MAX_AGE = 60
    return Client()


def stylesheet(html: str) -> str:
    (href,) = re.findall(r'<link rel="stylesheet" href="([^"]+)">', html)
    return href


def test_pages_name_the_hashed_files(served, db):
    html = served.get("/accounts/login/").content.decode()
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", stylesheet(html))
    assert re.search(r'<link rel="icon" href="/static/img/favicon\.[0-9a-f]{12}\.svg"', html)


def test_a_hashed_file_is_cached_for_a_year_and_sent_gzipped(served, db):
    href = stylesheet(served.get("/accounts/login/").content.decode())
    plain = served.get(href)
    assert plain.status_code == 200
    assert plain["Cache-Control"] == YEAR
    source = (ROOT / "static" / "css" / "app.css").read_bytes()
    assert b"".join(plain.streaming_content) == source
    gzipped = served.get(href, HTTP_ACCEPT_ENCODING="gzip")
    assert (gzipped["Content-Encoding"], gzipped["Cache-Control"]) == ("gzip", YEAR)
    assert int(gzipped["Content-Length"]) < len(source) / 2


def test_the_scripts_of_an_htmx_page_are_hashed_too(served, admin_user):
    served.force_login(admin_user)
    html = served.get("/manage/system/").content.decode()
    sources = re.findall(r'<script src="([^"]+)"', html)
    assert sources and all(re.search(r"\.[0-9a-f]{12}\.js$", src) for src in sources)
    assert served.get(sources[0])["Cache-Control"] == YEAR


def test_a_plain_name_is_not_cached_for_long(served, db):
    response = served.get("/static/css/app.css")
    assert (response.status_code, response["Cache-Control"]) == (200, "max-age=60, public")


def test_make_run_collects_the_files_and_serves_them_hashed():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun: install\n", 1)[1].split("\n\n", 1)[0]
    assert "run: export STATIC_MANIFEST ?= true" in makefile
    assert "manage.py collectstatic --noinput" in recipe
    assert recipe.index("collectstatic") < recipe.index("bin/serve")
