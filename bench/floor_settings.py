"""The served app's settings plus one page, for the benchmarks' floor (issue 24): an empty
authenticated page. Used by `bench/annotation_page.py` as DJANGO_SETTINGS_MODULE of the server
it starts; never by the platform itself."""

from config.settings import *  # noqa: F403 (the served app's settings, every one)

ROOT_URLCONF = "bench.floor_urls"
