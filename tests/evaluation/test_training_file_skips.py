"""A training file's skipped questions are named (id, reason, detail), in the API and on the
results page, not only counted (issue 24)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.roles import Role
from tests.evaluation.test_baseline_runs import make_release
from tests.evaluation.test_baseline_sources import english_api, squad_bytes
from tests.factories import UserFactory

SKIPPED = [
    {
        "id": "t6",
        "reason": "malformed",
        "detail": "article 0 ('Pasteur'), paragraph 0, qa 5 (id 't6'): "
        "\"question\" must be a non-empty string, found ''",
    },
    {
        "id": "t5",
        "reason": "misaligned",
        "detail": "the answer 'la rage' is not the context's text at 3 ('teur mi')",
    },
]


@pytest.mark.django_db
def test_the_api_names_each_skipped_question(releases_folder):
    admin = UserFactory(username="adm", roles=[Role.ADMIN])
    upload = SimpleUploadedFile("mt.json", squad_bytes(), content_type="application/json")

    made = english_api(admin).post(
        "/api/v1/baseline-runs/training-files/", {"file": upload}, format="multipart"
    )

    assert made.status_code == 201, made.content
    assert (made.json()["counts"]["skipped"], made.json()["skipped"]) == (2, SKIPPED)
    listed = english_api(admin).get("/api/v1/baseline-runs/training-files/").json()
    assert listed[0]["skipped"] == SKIPPED


@pytest.mark.django_db
def test_the_results_page_names_the_skipped_questions(client, releases_folder):
    release = make_release()
    client.cookies["django_language"] = "en"
    client.force_login(release.created_by)
    upload = SimpleUploadedFile("mt.json", squad_bytes(), content_type="application/json")

    done = client.post(
        f"/manage/results/training-files/?release={release.pk}",
        {"form": "training-file", "file": upload},
        follow=True,
    )

    html = done.content.decode()
    assert (
        "Training file mt.json imported: 4 questions, 2 skipped. "
        "Skipped: t6, t5 (the training files table says why)."
    ) in html
    assert "<summary>2 questions skipped</summary>" in html
    assert (
        "<li><code>t5</code> · the answer is not the context’s text at its offset: "
        '<span class="hint">the answer &#x27;la rage&#x27; is not the context&#x27;s text at 3 '
        "(&#x27;teur mi&#x27;)</span></li>"
    ) in html
