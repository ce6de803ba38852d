"""The worker-check API mirrors the system page."""

import pytest
from rest_framework.test import APIClient

from core.models import WorkerCheck


@pytest.fixture
def api():
    return APIClient()


def test_admin_starts_and_reads_a_check(api, admin_user, django_capture_on_commit_callbacks):
    api.force_authenticate(admin_user)
    with django_capture_on_commit_callbacks(execute=False):
        response = api.post("/api/v1/worker-checks/", {"queue": "scrape"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["queue"], body["status"], body["progress"]) == ("scrape", "pending", 0)
    detail = api.get(f"/api/v1/worker-checks/{body['id']}/")
    assert detail.json()["id"] == body["id"]


def test_bad_queue_is_400_naming_the_field(api, admin_user):
    api.force_authenticate(admin_user)
    response = api.post("/api/v1/worker-checks/", {"queue": "nope"}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["queue"]
    assert WorkerCheck.objects.count() == 0


def test_non_admins_cannot_see_checks(api, annotator):
    WorkerCheck.objects.create(queue="default")
    api.force_authenticate(annotator)
    assert api.get("/api/v1/worker-checks/").status_code == 403
    assert (
        api.post("/api/v1/worker-checks/", {"queue": "default"}, format="json").status_code == 403
    )
    assert WorkerCheck.objects.count() == 1
