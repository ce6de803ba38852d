"""createadmin and import_users from the shell; the printed links work exactly once."""

import json
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

User = get_user_model()


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_createadmin_prints_a_password_that_signs_in(client, db):
    output = run("createadmin", "chief", "--json")
    result = json.loads(output)
    assert result["username"] == "chief"
    assert client.login(username="chief", password=result["password"]) is True
    assert client.get("/manage/").status_code == 200


def test_createadmin_human_summary(db):
    output = run("createadmin", "chief")
    user = User.objects.get(username="chief")
    match = re.search(r"Password \(shown once, change it after signing in\): (\S+)", output)
    assert match and user.check_password(match.group(1))


def test_createadmin_refuses_an_existing_username(db):
    run("createadmin", "chief")
    with pytest.raises(CommandError, match="username"):
        run("createadmin", "Chief")
    assert User.objects.filter(username__iexact="chief").count() == 1


def test_import_users_prints_one_time_links(client, db, tmp_path):
    csv = tmp_path / "users.csv"
    csv.write_text("username,email,role\nstudent1,s1@example.org,annotator\n", encoding="utf-8")
    result = json.loads(run("import_users", str(csv), "--json", "--base-url", "https://qa.test/"))
    (created,) = result["created"]
    assert created["username"] == "student1"
    url = created["set_password_url"]
    assert url.startswith("https://qa.test/accounts/set-password/")
    path = url.removeprefix("https://qa.test")

    # Following the link leads to the form (Django swaps the token for a session marker).
    form_page = client.get(path, follow=True)
    assert form_page.status_code == 200
    assert form_page.context["validlink"] is True
    new_password = "Un mot de passe solide 2026"
    done = client.post(
        form_page.request["PATH_INFO"],
        {"new_password1": new_password, "new_password2": new_password},
    )
    assert done.status_code == 302
    assert client.login(username="student1", password=new_password) is True
    client.logout()

    # The same link is now void.
    again = client.get(path, follow=True)
    assert again.context["validlink"] is False


def test_import_users_reports_a_bad_file_and_creates_nobody(db, tmp_path):
    csv = tmp_path / "users.csv"
    csv.write_text("username,email,role\nx,x@example.org,boss\n", encoding="utf-8")
    with pytest.raises(CommandError, match="file"):
        run("import_users", str(csv))
    assert User.objects.count() == 0


def test_import_users_reports_a_missing_file(db, tmp_path):
    with pytest.raises(CommandError, match="missing.csv"):
        run("import_users", str(tmp_path / "missing.csv"))
