"""Training files (evaluation.TrainingFile) can be unshared and deleted (issue 16, item 4's
follow-up), by the API and on the results page: a private file only by its uploader (another
admin gets 404), a shared one by any admin; runs that trained on it keep their labels; its
stored bytes are removed; a run not yet ended refuses the deletion."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile

from core.roles import Role
from evaluation.models import BaselineRun, TrainingFile
from evaluation.services.baselines.runs import baseline_run_record
from exports.services.releases import release_storage
from tests.evaluation.test_baseline_runs import make_release, releases_folder
from tests.evaluation.test_baseline_sources import english_api, imported
from tests.factories import UserFactory

__all__ = ["releases_folder"]  # the autouse fixture: release files in a temporary folder

URL = "/api/v1/baseline-runs/training-files/"


def stored_files() -> list[str]:
    return sorted(release_storage().listdir("training-files")[1])


def state() -> list[tuple]:
    return list(TrainingFile.objects.order_by("pk").values_list("pk", "name", "shared"))


@pytest.fixture
def owners(db):
    return (
        UserFactory(username="owner", roles=[Role.ADMIN]),
        UserFactory(username="other", roles=[Role.ADMIN]),
    )


def test_the_uploader_deletes_a_file_runs_keep_its_label_and_the_bytes_go(
    owners, django_capture_on_commit_callbacks
):
    owner, _other = owners
    release = make_release()
    made = imported(owner, name="squad-fr-mt")
    kept = imported(owner, name="kept")
    run = baseline_run_record(
        release=release, kind="finetune", model="x", created_by=owner, train_files=[made.pk]
    )
    BaselineRun.objects.filter(pk=run.pk).update(status=BaselineRun.Status.SUCCEEDED)
    assert stored_files() == sorted(
        [made.storage_name.split("/")[-1], kept.storage_name.split("/")[-1]]
    )

    with django_capture_on_commit_callbacks(execute=True):
        answer = english_api(owner).delete(f"{URL}{made.pk}/")

    assert (answer.status_code, answer.content) == (204, b"")
    assert state() == [(kept.pk, "kept", False)]
    assert stored_files() == [kept.storage_name.split("/")[-1]]
    run.refresh_from_db()
    assert run.train_sources == [
        {"type": "file", "id": made.pk, "label": "squad-fr-mt", "translated": True}
    ]


def test_another_admins_private_file_is_404_for_delete_and_unshare(owners):
    owner, other = owners
    private = imported(owner, name="mine")
    before = (state(), stored_files())
    api = english_api(other)

    deleted = api.delete(f"{URL}{private.pk}/")
    unshared = api.post(f"{URL}{private.pk}/unshare/")
    unknown = api.delete(f"{URL}999999/")
    malformed = api.delete(f"{URL}abc/")

    message = {"errors": {"training_file": ["No training file that you may read."]}}
    assert (deleted.status_code, deleted.json()) == (404, message)
    assert (unshared.status_code, unshared.json()) == (404, message)
    assert (unknown.status_code, unknown.json()) == (404, message)
    assert (malformed.status_code, list(malformed.json()["errors"])) == (400, ["training_file"])
    assert (state(), stored_files()) == before


def test_a_shared_file_is_unshared_by_another_admin_then_theirs_no_more(owners):
    owner, other = owners
    shared = imported(owner, name="ours", shared=True)
    api = english_api(other)

    answer = api.post(f"{URL}{shared.pk}/unshare/")

    assert answer.status_code == 200
    assert (answer.json()["id"], answer.json()["name"], answer.json()["shared"]) == (
        shared.pk,
        "ours",
        False,
    )
    assert state() == [(shared.pk, "ours", False)]
    assert api.get(URL).json() == []
    assert [f["name"] for f in english_api(owner).get(URL).json()] == ["ours"]
    assert api.delete(f"{URL}{shared.pk}/").status_code == 404


def test_a_shared_file_may_be_deleted_by_another_admin(owners, django_capture_on_commit_callbacks):
    owner, other = owners
    shared = imported(owner, name="ours", shared=True)

    with django_capture_on_commit_callbacks(execute=True):
        answer = english_api(other).delete(f"{URL}{shared.pk}/")

    assert answer.status_code == 204
    assert (state(), stored_files()) == ([], [])


def test_a_run_not_ended_refuses_the_deletion(owners):
    owner, _other = owners
    release = make_release()
    made = imported(owner)
    run = baseline_run_record(
        release=release, kind="finetune", model="x", created_by=owner, train_files=[made.pk]
    )
    assert run.status == BaselineRun.Status.PENDING
    before = (state(), stored_files())

    answer = english_api(owner).delete(f"{URL}{made.pk}/")

    assert answer.status_code == 409
    assert answer.json() == {
        "errors": {
            "training_file": [
                f"Run #{run.pk} trains on this file and has not ended: delete it after."
            ]
        }
    }
    assert (state(), stored_files()) == before


def test_only_admins_reach_them(owners):
    owner, _other = owners
    made = imported(owner)
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    api = english_api(reviewer)

    assert api.delete(f"{URL}{made.pk}/").status_code == 403
    assert api.post(f"{URL}{made.pk}/unshare/").status_code == 403
    assert state() == [(made.pk, "squad-fr-mt", False)]


def test_the_results_page_unshares_and_deletes(owners, client, django_capture_on_commit_callbacks):
    owner, other = owners
    release = make_release()
    shared = imported(owner, name="SQuAD <mt>", shared=True)
    release_storage().save("training-files/unrelated.json", ContentFile(b"{}"))
    client.cookies["django_language"] = "en"
    client.force_login(other)
    url = f"/manage/results/training-files/?release={release.pk}"
    html = client.get(url).content.decode()
    assert f'<tr id="training-file-{shared.pk}"><td>SQuAD &lt;mt&gt; · translated</td>' in html
    assert (
        '<td>fr</td><td class="num">4</td><td><details class="training-file-skipped">'
        "<summary>2 questions skipped</summary>"
    ) in html
    assert "</details></td><td>owner</td><td>with every admin</td>" in html

    unshared = client.post(
        url, {"form": "training-file-unshare", "file": str(shared.pk)}, follow=True
    )

    assert "Training file SQuAD &lt;mt&gt; is no longer shared." in unshared.content.decode()
    assert state() == [(shared.pk, "SQuAD <mt>", False)]
    assert f'id="training-file-{shared.pk}"' not in unshared.content.decode()
    refused = client.post(
        url, {"form": "training-file-delete", "file": str(shared.pk)}, follow=True
    )
    assert "No training file that you may read." in refused.content.decode()
    assert state() == [(shared.pk, "SQuAD <mt>", False)]

    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        deleted = client.post(
            url, {"form": "training-file-delete", "file": str(shared.pk)}, follow=True
        )

    assert "Training file SQuAD &lt;mt&gt; deleted." in deleted.content.decode()
    assert (state(), stored_files()) == ([], ["unrelated.json"])
