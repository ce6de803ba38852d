"""Two transactions record a release's scoring runs at once (a redelivered build task beside
the one that is committing): the unique slot, not a check-then-act, keeps one run per entry.
The second insert waits on the first's uncommitted row, then adds nothing."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from evaluation.models import BaselineRun
from evaluation.services.release_scoring import release_scoring_record
from tests.evaluation.test_baseline_runs import make_release

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("loopback_allowed")]


@pytest.fixture(autouse=True)
def var_folder(settings, tmp_path):
    folder = tmp_path / "var"
    settings.VAR_DIR = folder
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(folder / "releases")},
        },
    }


def test_two_transactions_recording_the_same_slots_make_one_run_each(sent_tasks):
    if connection.vendor != "postgresql":
        pytest.skip("the row locks of a unique index are PostgreSQL's here")
    release = make_release(
        score_with=[{"kind": "lexical"}, {"kind": "http", "model": "http://127.0.0.1:9/"}]
    )
    BaselineRun.objects.all().delete()  # as if the build's commit had not recorded them yet
    sent_tasks.calls.clear()
    first_inserted, let_first_commit, second_done = (threading.Event() for _ in range(3))
    errors = []

    def first():
        try:
            with transaction.atomic():
                release_scoring_record(release=release)
                first_inserted.set()
                assert let_first_commit.wait(30)
        except Exception as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    def second():
        try:
            with transaction.atomic():
                release_scoring_record(release=release)
            second_done.set()
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    assert first_inserted.wait(30)
    threads[1].start()
    # The second insert waits for the first transaction: no row of its own, no error.
    assert not second_done.wait(1.0)
    let_first_commit.set()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert second_done.is_set()
    runs = list(BaselineRun.objects.order_by("id"))
    assert [(r.scoring_key, r.kind) for r in runs] == [("score-0", "lexical"), ("score-1", "http")]
    # Each transaction sent the runs that had not started (the run's task copes with two).
    assert sorted(kw["kwargs"]["job_pk"] for _name, kw in sent_tasks.calls) == sorted(
        [r.pk for r in runs] * 2
    )
