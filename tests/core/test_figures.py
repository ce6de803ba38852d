"""Stored figures: computed now when small, else read from the last computation and computed
again in the background when their data changed."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core import figures
from core.figures import Figure
from core.models import StoredFigure
from core.services import figure_jobs
from core.services.figure_jobs import figure_compute, figure_read

pytestmark = pytest.mark.django_db


class Data:
    """What the test figure reads: a number, its fingerprint, and whether it is small."""

    def __init__(self):
        self.value, self.version, self.is_small, self.computed, self.fail = 1, "v1", False, 0, False

    def compute(self, **params):
        self.computed += 1
        if self.fail:
            raise RuntimeError("broken")
        return {"value": self.value, "params": params}

    def fingerprint(self, **params):
        return self.version

    def small(self, **params):
        return self.is_small


@pytest.fixture
def data(monkeypatch, django_capture_on_commit_callbacks):
    data = Data()

    def read(name, **params):  # the task is sent once the request's transaction commits
        with django_capture_on_commit_callbacks(execute=True):
            return figure_read(name, **params)

    data.read = read
    figure = Figure("test.figure", data.compute, data.fingerprint, data.small, queue="export")
    monkeypatch.setitem(figures.REGISTRY, figure.name, figure)
    return data


def run_pending():
    for row in StoredFigure.objects.filter(status=StoredFigure.Status.PENDING):
        figure_compute(row=row)


def test_small_data_is_computed_now_and_nothing_is_stored(data, sent_tasks):
    data.is_small = True
    reading = data.read("test.figure", split="dev")
    assert reading == figures.FigureReading(value={"value": 1, "params": {"split": "dev"}})
    assert StoredFigure.objects.count() == 0
    assert sent_tasks.calls == []


def test_large_data_is_computed_once_by_a_job_then_read(data, sent_tasks):
    first = data.read("test.figure")
    assert (first.value, first.current, first.computing) == (None, False, True)
    row = StoredFigure.objects.get()
    assert (row.name, row.key, row.status) == ("test.figure", "", "pending")
    assert sent_tasks.calls == [
        (
            "core.tasks.stored_figure_task",
            {"kwargs": {"job_pk": row.pk}, "retry": False, "queue": "export"},
        )
    ]
    assert data.read("test.figure").computing  # in flight: no second job
    assert len(sent_tasks.calls) == 1

    run_pending()
    row.refresh_from_db()
    assert (row.status, row.fingerprint, row.value) == (
        "succeeded",
        "v1",
        {"value": 1, "params": {}},
    )
    reading = data.read("test.figure")
    assert reading == figures.FigureReading(
        value={"value": 1, "params": {}}, computed_at=row.finished_at, current=True, computing=False
    )
    assert (data.computed, len(sent_tasks.calls)) == (1, 1)


def test_changed_data_shows_the_stored_value_while_a_new_one_is_computed(data, sent_tasks):
    data.read("test.figure")
    run_pending()
    data.value, data.version = 2, "v2"
    stale = data.read("test.figure")
    assert (stale.value["value"], stale.current, stale.computing) == (1, False, True)
    assert len(sent_tasks.calls) == 2
    run_pending()
    fresh = data.read("test.figure")
    assert (fresh.value["value"], fresh.current, fresh.computing) == (2, True, False)
    # The older value is gone once the newer one is stored.
    assert list(StoredFigure.objects.values_list("fingerprint", flat=True)) == ["v2"]


def test_each_set_of_parameters_is_a_figure_of_its_own(data, sent_tasks):
    data.read("test.figure", old=1, new=2)
    data.read("test.figure", new=2, old=3)
    assert sorted(StoredFigure.objects.values_list("key", flat=True)) == [
        '{"new":2,"old":1}',
        '{"new":2,"old":3}',
    ]
    run_pending()
    assert data.read("test.figure", new=2, old=1).value["params"] == {"new": 2, "old": 1}


def test_a_failed_computation_is_tried_again_after_a_while_only(data, sent_tasks):
    data.fail = True
    data.read("test.figure")
    run_pending()
    failed = StoredFigure.objects.get()
    assert failed.status == "failed" and "broken" in failed.error
    assert data.read("test.figure").computing is False
    assert len(sent_tasks.calls) == 1
    StoredFigure.objects.filter(pk=failed.pk).update(
        finished_at=timezone.now() - figure_jobs.RETRY_AFTER - timedelta(seconds=1)
    )
    assert data.read("test.figure").computing is True
    assert len(sent_tasks.calls) == 2


def test_a_job_that_never_reached_a_worker_is_replaced(data, sent_tasks):
    data.read("test.figure")
    lost = StoredFigure.objects.get()
    StoredFigure.objects.filter(pk=lost.pk).update(
        created_at=timezone.now() - figure_jobs.PENDING_FOR - timedelta(seconds=1)
    )
    assert data.read("test.figure").computing
    lost.refresh_from_db()
    assert lost.status == "failed"
    assert StoredFigure.objects.filter(status="pending").count() == 1
    assert len(sent_tasks.calls) == 2


def test_an_old_value_is_computed_again_even_when_the_data_looks_the_same(data, sent_tasks):
    data.read("test.figure")
    run_pending()
    StoredFigure.objects.update(finished_at=timezone.now() - timedelta(hours=1, seconds=1))
    reading = data.read("test.figure")
    assert (reading.current, reading.computing) == (True, True)
    assert len(sent_tasks.calls) == 2


def test_reading_a_current_figure_is_one_query_beside_its_fingerprint(
    data, sent_tasks, django_assert_num_queries
):
    data.value = list(range(10))
    data.read("test.figure")
    run_pending()
    with django_assert_num_queries(1):  # the fingerprint is the figure's own (no query here)
        data.read("test.figure")
