"""The user-import CSV parser (no database). Messages are checked in English, the source."""

import pytest
from django.utils import translation

from accounts.csv_import import UserRow, parse_users_csv


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_a_good_file_gives_rows():
    rows, problems = parse_users_csv(
        "username,email,role\nalice,alice@example.org,annotator\nBob,bob@example.org,Reviewer\n"
    )
    assert problems == []
    assert rows == [
        UserRow(line=2, username="alice", email="alice@example.org", role="annotator"),
        UserRow(line=3, username="Bob", email="bob@example.org", role="reviewer"),
    ]


def test_semicolons_a_bom_and_blank_lines_are_accepted():
    rows, problems = parse_users_csv("\ufeffemail;role;username\n\na@x.org;admin;a\n")
    assert problems == []
    assert rows == [UserRow(line=3, username="a", email="a@x.org", role="admin")]


def test_every_bad_line_is_named():
    rows, problems = parse_users_csv(
        "username,email,role\n"
        "good,g@x.org,annotator\n"
        "bad name,b@x.org,annotator\n"
        "c,not-an-email,boss\n"
        "GOOD,g2@x.org,reviewer\n"
    )
    assert problems == [
        "line 3: username 'bad name': 1 to 150 letters, digits and @/./+/-/_ only",
        "line 4: email 'not-an-email' is not a valid address",
        "line 4: role 'boss' is not one of annotator, reviewer, admin",
        "line 5: username 'GOOD' appears twice in the file",
    ]


def test_the_header_must_name_the_three_columns():
    rows, problems = parse_users_csv("user,mail,role\nx,y,z\n")
    assert rows == []
    assert problems == [
        "header: missing column(s): username, email",
        "header: unknown column(s): user, mail",
    ]


def test_empty_files_are_refused():
    assert parse_users_csv("") == ([], ["the file is empty"])
    assert parse_users_csv("username,email,role\n") == ([], ["the file has a header but no user"])


def test_an_email_over_254_characters_is_refused():
    long_email = "a" * 250 + "@x.org"
    rows, problems = parse_users_csv(f"username,email,role\nu,{long_email},annotator\n")
    assert problems == [f"line 2: email {long_email!r} is not a valid address"]


def test_a_huge_field_is_a_problem_not_a_crash():
    rows, problems = parse_users_csv('username,email,role\nbig,"' + "a" * 200_000 + '",annotator\n')
    assert rows == []
    assert problems == ["line 2: field larger than field limit (131072)"]


def test_a_column_given_twice_is_refused():
    assert parse_users_csv("username,username,email,role\nu,u,u@x.org,annotator\n") == (
        [],
        ["header: column(s) given twice: username"],
    )
