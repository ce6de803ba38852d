"""The admins' system page: worker checks and the self-polling job status partial."""

from django.utils import timezone

from core.models import WorkerCheck


def test_system_page_shows_the_stack(admin_client):
    response = admin_client.get("/manage/system/")
    assert response.status_code == 200
    assert b'id="worker-checks"' in response.content
    for queue in (b"default", b"scrape", b"export", b"gpu"):
        assert b'<option value="' + queue + b'">' in response.content


def test_starting_a_check_creates_one_row_for_that_queue(
    admin_client, admin_user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_client.post("/manage/system/", {"queue": "export"})
    assert response.status_code == 302
    check = WorkerCheck.objects.get()
    assert (check.queue, check.status, check.created_by) == ("export", "pending", admin_user)
    assert len(callbacks) == 1  # the task is sent only after the commit


def test_an_htmx_check_answers_the_partial(admin_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        response = admin_client.post(
            "/manage/system/", {"queue": "default"}, headers={"HX-Request": "true"}
        )
    assert response.status_code == 200
    assert response.content.lstrip().startswith(b'<div id="worker-checks">')
    assert f'id="job-status-{WorkerCheck.objects.get().pk}"'.encode() in response.content


def test_an_unknown_queue_is_a_400_naming_the_field_and_creates_nothing(admin_client):
    response = admin_client.post(
        "/manage/system/", {"queue": "../etc"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400
    assert b'id="check-queue-error"' in response.content
    assert "File «\u202f../etc\u202f» inconnue.".encode() in response.content
    assert WorkerCheck.objects.count() == 0


def test_status_partial_polls_itself_while_the_job_runs(admin_client):
    check = WorkerCheck.objects.create(
        queue="default",
        status="running",
        progress=40,
        message="<b>working</b>",
        heartbeat_at=timezone.now(),  # its worker is alive
    )
    response = admin_client.get(f"/manage/system/checks/{check.pk}/status/")
    html = response.content.decode()
    assert response.status_code == 200
    assert f'hx-get="/manage/system/checks/{check.pk}/status/"' in html
    assert 'hx-trigger="load delay:2s"' in html
    assert 'hx-swap="outerHTML"' in html
    assert '<progress max="100" value="40"' in html
    assert "&lt;b&gt;working&lt;/b&gt;" in html


def test_status_partial_stops_polling_when_the_job_ends(admin_client):
    check = WorkerCheck.objects.create(queue="default", status="succeeded", progress=100)
    html = admin_client.get(f"/manage/system/checks/{check.pk}/status/").content.decode()
    assert "hx-get" not in html
    assert "hx-trigger" not in html
    assert '<progress max="100" value="100"' in html


def test_status_partial_is_for_admins_only(client, reviewer):
    check = WorkerCheck.objects.create(queue="default")
    client.force_login(reviewer)
    assert client.get(f"/manage/system/checks/{check.pk}/status/").status_code == 403


def test_status_of_a_missing_job_is_404(admin_client):
    assert admin_client.get("/manage/system/checks/999999/status/").status_code == 404


def test_a_job_whose_worker_died_says_it_waits_for_a_worker_again(admin_client):
    silent = timezone.now() - timezone.timedelta(minutes=3)
    check = WorkerCheck.objects.create(
        queue="default", status="running", progress=20, started_at=silent, heartbeat_at=silent
    )
    response = admin_client.get(
        f"/manage/system/checks/{check.pk}/status/", HTTP_ACCEPT_LANGUAGE="en"
    )
    html = response.content.decode()
    assert "Waiting for a worker again" in html
    assert "The worker running this job stopped answering at" in html
    assert "Running" not in html
    assert 'hx-trigger="load delay:2s"' in html  # it keeps watching for the new worker
