"""Scheduled snapshots through a real worker: beat's tick (sent as beat sends it, on the
default queue) builds a snapshot, its scoring runs, and once a newer snapshot is built the
older one loses its files (after its baseline run finished); the chart reads the runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from config.celery import app
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun
from exports.models import Release, ReleaseSchedule
from exports.services.schedules import schedule_create
from tests.exports.test_release_schedules import due
from tests.exports.test_releases import make_dataset
from tests.factories import UserFactory
from tests.services import wait_until

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def var_dir(tmp_path, settings) -> Path:
    """The worker's VAR_DIR; this process reads the same releases folder."""
    var = tmp_path / "var"
    var.mkdir()
    settings.STORAGES = {
        **settings.STORAGES,
        "releases": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(var / "releases")},
        },
    }
    return var


def tick() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["release-schedules-tick"]
    app.send_task(entry["task"], **entry["options"])


def finished(release_pk: int) -> bool:
    release = Release.objects.get(pk=release_pk)
    runs = BaselineRun.objects.filter(release=release)
    return release.status == "succeeded" and runs.exists() and all(r.is_finished for r in runs)


def next_run_at(schedule: ReleaseSchedule):
    return ReleaseSchedule.objects.get(pk=schedule.pk).next_run_at


def test_beat_ticks_build_score_and_prune_snapshots(var_dir, redis_worker_factory):
    """Every wait ends on the rows' state: a tick has run once the slot it claims has moved
    (the claim and the snapshot commit together), a snapshot once its build and its runs
    have finished. The slots come from the tests' clock (`due`), not the machine's."""
    worker = redis_worker_factory(VAR_DIR=str(var_dir))
    alive = lambda: worker.poll() is None  # noqa: E731
    make_dataset()
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    schedule = schedule_create(
        created_by=boss,
        name="nightly",
        frequency="daily",
        formats=["hf"],
        keep_last=1,
        score_with=[{"kind": "lexical"}],
    )
    slot = due(schedule)
    tick()
    assert wait_until(lambda: next_run_at(schedule), lambda at: at != slot, alive=alive) != slot
    [first] = Release.objects.filter(schedule=schedule)
    assert wait_until(lambda: finished(first.pk), bool, alive=alive)

    article_store(
        language="fr",
        source=SourceArticle(title="Nouveau", source_title="", url="", revision_id=None),
        paragraphs=["Un paragraphe de plus. " * 30],
        wave="1.1",
        split="train",
        kind="file",
    )
    tick()  # the slot is not due: nothing, although the data changed
    slot = due(schedule)
    tick()
    assert wait_until(lambda: next_run_at(schedule), lambda at: at != slot, alive=alive) != slot
    snapshots = list(schedule.snapshots.order_by("pk"))
    assert len(snapshots) == 2
    second = snapshots[1]
    assert wait_until(lambda: finished(second.pk), bool, alive=alive)
    first = wait_until(
        lambda: Release.objects.get(pk=first.pk),
        lambda r: r.files_pruned_at is not None,
        alive=alive,
    )
    assert first.files_pruned_at is not None
    stored = var_dir / "releases" / "releases"
    assert sorted(p.name for p in (stored / str(first.pk)).iterdir()) == [
        "gold-dev.json",
        "gold-test.json",
        "gold-train.json",
    ]
    assert len(list((stored / str(second.pk)).iterdir())) == 8
    assert Release.objects.filter(schedule=schedule).count() == 2
    assert ReleaseSchedule.objects.get().last_fingerprint == second.data_fingerprint

    client = Client()
    client.force_login(boss)
    figures = client.get(f"/manage/releases/schedules/{schedule.pk}/chart/").context["figures"]
    runs = {r.release_id: r.metrics for r in BaselineRun.objects.filter(status="succeeded")}
    assert figures["baselines"] == ["lexical"]
    assert [(row["release"].pk, row["scores"]) for row in figures["rows"]] == [
        (pk, [{"dev": runs[pk]["dev"]["f1"], "test": runs[pk]["test"]["f1"]}])
        for pk in (first.pk, second.pk)
    ]
