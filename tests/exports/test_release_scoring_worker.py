"""Scoring on release through real workers (issue 17, item 1): a release built with "score
with: lexical" ends with exactly one finished run, when the export worker is SIGKILLed
mid-build and the broker redelivers the build, and when the build task is delivered again
after the release is done (the runs' tasks then reach the broker twice).

The workers are real Celery processes reading the test database, fed by the real Redis
(`redis_worker_factory` checks and empties it), one process each (`--pool solo`), so a SIGKILL
of the process is the loss of the worker (`tests.services.WorkerProcess`).
"""

from __future__ import annotations

import json
import time
from io import StringIO

import pytest
from django.core.management import call_command

from config.celery import app
from evaluation.models import BaselineRun
from exports.models import Release
from exports.services.releases import release_create
from tests.exports.test_release_worker import (  # noqa: F401 (the workers' fixtures)
    boss,
    var_dir,
    workers,
)
from tests.needs import PIAF, require_file
from tests.services import wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def piaf(transactional_db):
    require_file(PIAF, "the scoring kill test builds a release of PIAF")
    stdout = StringIO()
    call_command("import_squad", str(PIAF), "--wave", "1.0", "--json", stdout=stdout)
    assert json.loads(stdout.getvalue())["questions_imported"] == 3835


def handled(log: str, task: str) -> int:
    """How many deliveries of the task the worker's log says it finished handling."""
    return sum(f"{task}[" in line and " succeeded in " in line for line in log.splitlines())


def release(pk: int) -> Release:
    return Release.objects.get(pk=pk)


def scoring_runs(release: Release) -> list[BaselineRun]:
    return list(BaselineRun.objects.filter(release=release).order_by("id"))


def finished_runs(release: Release):
    return wait_until(
        lambda: scoring_runs(release),
        lambda runs: runs and all(r.is_finished for r in runs),
    )


def assert_one_finished_lexical_run(made: Release, log: str) -> BaselineRun:
    runs = finished_runs(made)
    assert len(runs) == 1, log
    (run,) = runs
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + log
    assert (run.scoring_key, run.kind, run.attempts, run.created_by_id) == (
        "score-0",
        "lexical",
        1,
        made.created_by_id,
    )
    assert set(run.metrics) == {"dev", "test"}
    assert run.metrics["dev"]["total"] > 0 and run.metrics["test"]["total"] > 0
    return run


def test_a_killed_build_redelivered_scores_the_release_exactly_once(
    workers,  # noqa: F811 (imported fixtures)
    boss,  # noqa: F811
    piaf,
):
    started = time.monotonic()
    env = {"BROKER_VISIBILITY_TIMEOUT": "2"}
    first = workers("first", "export,default", **env)
    made = release_create(
        created_by=boss,
        name="piaf-scored",
        version="1.0",
        formats=["squad", "hf", "mrqa"],
        include_test_answers=True,
        score_with=[{"kind": "lexical"}],
    )
    running = wait_until(
        lambda: release(made.pk),
        lambda r: r.is_finished or (r.status == Release.Status.RUNNING and r.progress > 0),
        interval=0.05,
    )
    assert (running.status, running.attempts) == ("running", 1), running.error + first.log()
    first.kill()
    killed_at = time.monotonic()
    assert release(made.pk).status == Release.Status.RUNNING
    assert BaselineRun.objects.count() == 0  # the runs come with "done", not before

    # Past the visibility timeout, a new worker takes the unacknowledged build up again.
    time.sleep(max(0.0, 3 - (time.monotonic() - killed_at)))
    second = workers("second", "export,default", **env)
    done = wait_until(lambda: release(made.pk), lambda r: r.is_finished)
    assert done.status == Release.Status.SUCCEEDED, done.error + second.log()
    assert done.attempts == 2
    run = assert_one_finished_lexical_run(done, second.log())

    # Any later redelivery (the timeout is 2 s) changes nothing.
    time.sleep(4)
    assert scoring_runs(done) == [run]
    again = BaselineRun.objects.get(pk=run.pk)
    assert (again.status, again.attempts, again.finished_at) == (
        "succeeded",
        1,
        run.finished_at,
    )
    assert release(made.pk).attempts == 2
    print(
        f"\nscoring kill test: killed at {running.progress} %, built and scored "
        f"{time.monotonic() - killed_at:.1f} s later, {time.monotonic() - started:.1f} s in all; "
        f"lexical dev F1 {run.metrics['dev']['f1']:.1f}"
    )


def test_a_build_task_delivered_after_the_release_is_done_sends_the_run_again_and_it_runs_once(
    workers,  # noqa: F811 (imported fixtures)
    boss,  # noqa: F811
    piaf,
):
    """The worker died between the commit and the acknowledgement: the build task comes back
    for a done release and sends its runs that never started; their tasks may then reach the
    broker twice (both sends went through). The run still finishes once."""
    exporter = workers("exporter", "export")  # nobody serves default yet: the run waits
    made = release_create(
        created_by=boss,
        name="piaf-redelivered",
        version="1.0",
        formats=["squad", "hf"],
        include_test_answers=True,
        score_with=[{"kind": "lexical"}],
    )
    done = wait_until(lambda: release(made.pk), lambda r: r.is_finished)
    assert done.status == Release.Status.SUCCEEDED, done.error + exporter.log()
    (run,) = scoring_runs(done)
    assert (run.status, run.attempts) == ("pending", 0)

    # The broker delivers the build task again, as after a lost acknowledgement.
    app.send_task("exports.tasks.release_build_task", kwargs={"job_pk": made.pk}, queue="export")
    wait_until(
        lambda: handled(exporter.output(), "exports.tasks.release_build_task"),
        lambda n: n >= 2,
    )
    assert release(made.pk).attempts == 1  # not built again
    assert len(scoring_runs(done)) == 1

    scorer = workers("scorer", "default")
    run = assert_one_finished_lexical_run(done, scorer.log())
    # Both deliveries of the run's task were received: one ran it, the other found it done.
    deliveries = wait_until(
        lambda: handled(scorer.output(), "evaluation.tasks.baseline_task"),
        lambda n: n >= 2,
    )
    assert deliveries == 2, scorer.log()
    time.sleep(2)
    again = BaselineRun.objects.get(pk=run.pk)
    assert (again.status, again.attempts, again.finished_at) == (
        "succeeded",
        1,
        run.finished_at,
    )
