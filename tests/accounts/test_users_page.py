"""The admins' users page: bulk import with links, errors next to the field."""

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

User = get_user_model()


def test_admin_imports_a_pasted_csv_and_sees_the_links(admin_client):
    response = admin_client.post(
        "/manage/users/", {"text": "username,email,role\nzoe,zoe@example.org,annotator\n"}
    )
    assert response.status_code == 200
    assert b"http://testserver/accounts/set-password/" in response.content
    assert User.objects.get(username="zoe").roles == frozenset({"annotator"})


def test_an_uploaded_file_works_too(admin_client):
    upload = SimpleUploadedFile("u.csv", b"username;email;role\nyan;yan@example.org;reviewer\n")
    response = admin_client.post("/manage/users/", {"file": upload})
    assert response.status_code == 200
    assert User.objects.filter(username="yan").exists()


def test_a_bad_csv_is_a_400_with_the_problem_shown_and_nothing_created(admin_client):
    before = User.objects.count()
    response = admin_client.post(
        "/manage/users/",
        {"text": "username,email,role\nzoe,zoe@example.org,boss\n"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 400
    assert b'id="user-import"' in response.content
    assert b"<html" not in response.content  # the htmx partial only
    assert b"&#x27;boss&#x27;" in response.content
    assert User.objects.count() == before


def test_a_non_utf8_file_is_refused(admin_client):
    upload = SimpleUploadedFile(
        "u.csv", "username,email,role\nzoé,z@x.org,annotator\n".encode("latin-1")
    )
    response = admin_client.post("/manage/users/", {"file": upload})
    assert response.status_code == 400
    assert b"UTF-8" in response.content
    assert not User.objects.filter(email="z@x.org").exists()


def test_user_text_is_escaped(admin_client):
    admin_client.post(
        "/manage/users/", {"text": "username,email,role\nok,ok@example.org,annotator\n"}
    )
    User.objects.filter(username="ok").update(email="<script>x</script>@example.org")
    response = admin_client.get("/manage/users/")
    assert b"<script>x</script>" not in response.content
    assert b"&lt;script&gt;x&lt;/script&gt;" in response.content
