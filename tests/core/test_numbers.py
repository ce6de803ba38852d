"""Counts written with the language's thousands separator (`core/templatetags/numbers.py`)."""

from django.template import Context, Template
from django.utils import translation


def render(value, language):
    with translation.override(language):
        return Template("{% load numbers %}{{ value|grouped }}").render(Context({"value": value}))


def test_counts_are_grouped_as_each_language_writes_them():
    assert render(1_000_000, "en") == "1,000,000"
    assert render(1_000_000, "fr") == "1\xa0000\xa0000"  # no-break spaces
    assert render(999, "fr") == "999"
    assert render(None, "fr") == "None"
    assert render(14.3, "en") == "14.3"  # shares stay as they are
    assert render(True, "en") == "True"
