"""A page of a lower app shows a higher app's part through a place (core/fragments.py)."""

import pytest
from django.template import Context, Template
from django.utils import translation

from core import fragments
from core.fragments import fragment_register, fragments_of

PAGE = Template("{% load fragments %}<ul>{% fragments place %}</ul>")


@pytest.fixture
def place():
    yield "tests.page.part"
    fragments.REGISTRY.pop("tests.page.part", None)


def test_a_place_renders_its_templates_in_order_with_the_page_context(place):
    fragment_register(place, "exports/fragments.html#admin-home", order=20)
    fragment_register(place, "corpus/fragments.html#admin-home", order=10)
    fragment_register(place, "exports/fragments.html#admin-home", order=20)  # again: once
    assert fragments_of(place) == [
        "corpus/fragments.html#admin-home",
        "exports/fragments.html#admin-home",
    ]
    with translation.override("en"):
        html = PAGE.render(Context({"place": place}))
    assert html == (
        '<ul><li><a class="card" href="/manage/corpus/"><strong>Corpus</strong>'
        "<span>Articles, paragraphs, splits, scrape runs, statistics</span></a></li>\n    "
        '<li><a class="card" href="/manage/releases/"><strong>Releases</strong>'
        "<span>Export SQuAD, HF JSONL and MRQA files, download them, compare two releases</span>"
        "</a></li>\n    </ul>"
    )


def test_a_place_nobody_filled_renders_nothing(place):
    assert PAGE.render(Context({"place": place})) == "<ul></ul>"


def test_the_apps_fill_the_admin_home_in_the_order_of_its_cards():
    """Registered in each AppConfig.ready: the cards keep the order the page had."""
    assert fragments_of("accounts.admin-home") == [
        "annotation/fragments.html#admin-home-campaigns",
        "exports/fragments.html#admin-home",
        "annotation/fragments.html#admin-home-quality",
        "evaluation/fragments.html#admin-home",
        "annotation/fragments.html#admin-home-hours",
        "corpus/fragments.html#admin-home",
    ]
