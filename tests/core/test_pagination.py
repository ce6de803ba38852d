"""Keyset pagination: pages by cursor, both ways, with ties, and refused cursors."""

import base64
import json

import pytest

from core.errors import ServiceError
from core.pagination import cursor_of, cursor_values, keyset_page
from corpus.models import Article

pytestmark = pytest.mark.django_db


def article(title, wave="1.0"):
    return Article.objects.create(
        language="fr", title=title, wave=wave, split="train", source="file", text_sha256=""
    )


@pytest.fixture
def titles():
    """Seven articles; two waves so that an ordering by wave has ties."""
    for i, name in enumerate(["G", "A", "E", "C", "F", "B", "D"]):
        article(name, wave="1.0" if i % 2 else "1.1")
    return Article.objects.all()


def names(page):
    return [row.title for row in page.rows]


def test_pages_follow_each_other_forward_and_back(titles):
    order = ("title", "pk")
    first = keyset_page(titles, order=order, size=3)
    assert (names(first), first.first, first.previous) == (["A", "B", "C"], True, "")
    second = keyset_page(titles, order=order, size=3, after=first.next)
    assert (names(second), second.first) == (["D", "E", "F"], False)
    third = keyset_page(titles, order=order, size=3, after=second.next)
    assert (names(third), third.next) == (["G"], "")
    back = keyset_page(titles, order=order, size=3, before=third.previous)
    assert (names(back), back.next, back.previous) == (
        ["D", "E", "F"],
        second.next,
        second.previous,
    )
    start = keyset_page(titles, order=order, size=3, before=second.previous)
    assert (names(start), start.first, start.previous) == (["A", "B", "C"], True, "")


def test_ties_on_the_first_field_are_broken_by_the_id(titles):
    order = ("-wave", "title", "pk")
    seen = []
    page = keyset_page(titles, order=order, size=2)
    while True:
        seen += [(row.wave, row.title) for row in page.rows]
        if not page.next:
            break
        page = keyset_page(titles, order=order, size=2, after=page.next)
    assert seen == [
        ("1.1", "D"),
        ("1.1", "E"),
        ("1.1", "F"),
        ("1.1", "G"),
        ("1.0", "A"),
        ("1.0", "B"),
        ("1.0", "C"),
    ]


def test_a_page_is_one_query(titles, django_assert_num_queries):
    order = ("title", "pk")
    first = keyset_page(titles, order=order, size=3)
    with django_assert_num_queries(1):
        keyset_page(titles, order=order, size=3, after=first.next)


def test_a_cursor_past_the_end_gives_an_empty_page_that_links_to_the_first(titles):
    order = ("title", "pk")
    last = Article.objects.get(title="G")
    page = keyset_page(titles, order=order, size=3, after=cursor_of(last, order))
    assert (page.rows, page.next, page.previous, page.first) == ([], "", "", False)
    assert page.has_other_pages


def encoded(values) -> str:
    return base64.urlsafe_b64encode(json.dumps(values).encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "%%%",
        "bm90IGpzb24",  # "not json"
        encoded({"title": "A"}),
        encoded(["A"]),
        encoded(["A", 1, 2]),
        encoded(["A", "not a number"]),
        encoded(["A", None]),
        encoded([["A"], 1]),
        encoded(["A\u0000", 1]),
        "é",
        "A" * 2001,
    ],
)
@pytest.mark.parametrize("parameter", ["after", "before"])
def test_a_bad_cursor_gives_the_first_page_and_names_its_parameter(titles, cursor, parameter):
    page = keyset_page(titles, order=("title", "pk"), size=3, **{parameter: cursor})
    assert names(page) == ["A", "B", "C"]
    assert page.first
    assert list(page.errors) == [parameter]
    with pytest.raises(ServiceError) as refused:
        cursor_values(cursor, model=Article, order=("title", "pk"), parameter=parameter)
    assert list(refused.value.errors) == [parameter]


def test_a_cursor_of_a_date_comes_back_as_the_same_date(titles):
    row = Article.objects.get(title="C")
    order = ("-created_at", "-pk")
    assert cursor_values(cursor_of(row, order), model=Article, order=order, parameter="after") == [
        row.created_at,
        row.pk,
    ]
