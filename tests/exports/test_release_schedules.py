"""Scheduled snapshots (issue 17, item 2): campaign groups, the tick, the fingerprint, the
claim, retention, the pages, the API, the command and the chart.

The dataset is the release tests' (one questions campaign, "Questions": train 2, dev 6 and
test 3 released questions), plus one imported SQuAD file (campaign "Import phare.json": 2 dev
questions, one of them with three answers, so that its release has a human figure).
"""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from annotation.models import Campaign
from annotation.services.reviews import review_claim_next, review_submit
from config.celery import app
from core.errors import ServiceError
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun
from exports.models import Release, ReleaseFile, ReleaseSchedule
from exports.services import schedules
from exports.services.importing import squad_import
from exports.services.releases import pruned_message, release_build, release_create
from exports.services.retention import schedule_prune, snapshot_built
from exports.services.schedules import (
    data_fingerprint,
    next_slot,
    schedule_create,
    schedule_run_due,
    schedule_run_now,
    schedules_tick,
)
from tests.exports.test_releases import make_dataset
from tests.factories import UserFactory

API = "/api/v1/release-schedules/"
PAGES = "/manage/releases/schedules/"
CONTEXT = "Le phare de Cordouan fut allumé en 1852, puis électrifié bien plus tard."


# ---------------------------------------------------------------------------------------------
# Fixtures and helpers


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


def import_phare(folder: Path) -> Campaign:
    """Import two dev questions (one with three answers) into their own campaign."""
    path = folder / "phare.json"
    at = CONTEXT.index
    path.write_text(
        json.dumps(
            {
                "version": "1.1",
                "data": [
                    {
                        "title": "Phare de Cordouan",
                        "paragraphs": [
                            {
                                "context": CONTEXT,
                                "qas": [
                                    {
                                        "id": "phare-1",
                                        "question": "Quand le phare fut-il allumé ?",
                                        "answers": [
                                            {"text": "1852", "answer_start": at("1852")},
                                            {"text": "en 1852", "answer_start": at("en 1852")},
                                            {"text": "1852,", "answer_start": at("1852,")},
                                        ],
                                    },
                                    {
                                        "id": "phare-2",
                                        "question": "Quel phare fut allumé ?",
                                        "answers": [
                                            {"text": "Cordouan", "answer_start": at("Cordouan")}
                                        ],
                                    },
                                ],
                            }
                        ],
                    }
                ],
            }
        ),
        encoding="utf-8",
    )
    squad_import(path=path, wave="1.0", language="fr", split="dev")
    return Campaign.objects.get(name="Import phare.json")


@pytest.fixture
def data(db, tmp_path):
    """The dataset; returns (the questions campaign, the imported one)."""
    make_dataset()
    return Campaign.objects.get(name="Questions"), import_phare(tmp_path)


def counts(release: Release) -> dict[str, int]:
    """Questions per split, from the release's HF file rows."""
    return {
        row.name: row.counts["questions"]
        for row in ReleaseFile.objects.filter(release=release, name__startswith="hf-")
    }


def built(release: Release) -> Release:
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


# The slots' clock, which the tests control: fixed, in the past (so a slot is due whatever the
# machine's clock and speed), a minute later at each `due` of the run.
CLOCK = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
SLOTS = iter(range(1, 10_000))


def due(schedule: ReleaseSchedule, slot: datetime | None = None) -> datetime:
    """Make the schedule due at `slot`, by default the clock's next minute (each slot's
    snapshot has a name of its own); return that slot."""
    slot = slot or CLOCK + timedelta(minutes=next(SLOTS))
    ReleaseSchedule.objects.filter(pk=schedule.pk).update(next_run_at=slot)
    return slot


def review_one(campaign: Campaign) -> None:
    """A reviewer approves the next sampled question: a change of the data."""
    reviewer = UserFactory(roles=[Role.REVIEWER])
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    review_submit(lease=lease, data={"verdict": "approve"})


def stored_names(folder: Path, release: Release) -> list[str]:
    where = folder / "releases" / str(release.pk)
    return sorted(p.name for p in where.iterdir()) if where.exists() else []


# ---------------------------------------------------------------------------------------------
# Campaign groups


def test_a_release_of_chosen_campaigns_holds_their_questions_only(data, boss, releases_folder):
    questions, imported = data
    every = built(release_create(created_by=boss, name="all", version="1", formats=["hf"]))
    mine = built(
        release_create(
            created_by=boss, name="mine", version="1", formats=["hf"], campaigns=[questions.pk]
        )
    )
    theirs = built(
        release_create(
            created_by=boss, name="theirs", version="1", formats=["hf"], campaigns=[imported.pk]
        )
    )

    assert counts(every) == {"hf-train.jsonl": 2, "hf-dev.jsonl": 8, "hf-test.jsonl": 3}
    assert counts(mine) == {"hf-train.jsonl": 2, "hf-dev.jsonl": 6, "hf-test.jsonl": 3}
    # a split without a question gets no file (docs/decisions.md)
    assert counts(theirs) == {"hf-dev.jsonl": 2}
    assert theirs.manifest["splits_without_questions"] == ["train", "test"]
    lines = (releases_folder / "releases" / str(theirs.pk) / "hf-dev.jsonl").read_text()
    rows = [json.loads(line) for line in lines.splitlines()]
    assert [(r["id"], r["answers"]["text"]) for r in rows] == [
        ("phare-1", ["1852", "en 1852", "1852,"]),
        ("phare-2", ["Cordouan"]),
    ]
    assert "campaigns" not in every.options and "campaigns" not in every.manifest
    assert theirs.options["campaigns"] == [imported.pk]
    assert theirs.manifest["campaigns"] == [{"id": imported.pk, "name": "Import phare.json"}]
    readme = (releases_folder / "releases" / str(theirs.pk) / "README.md").read_text()
    assert f"Campaigns: Import phare.json (#{imported.pk})" in readme
    assert (
        "Campaigns:" not in (releases_folder / "releases" / str(every.pk) / "README.md").read_text()
    )


@pytest.mark.parametrize("value", [[999_999], "1", [True], [0], [1.5]])
def test_a_bad_campaign_group_is_refused_naming_the_field(boss, db, value):
    with pytest.raises(ServiceError) as refused:
        release_create(created_by=boss, name="bad", version="1", formats=["hf"], campaigns=value)
    assert list(refused.value.errors) == ["campaigns"]
    assert Release.objects.count() == 0


def test_the_release_api_takes_a_campaign_group(data, boss):
    questions, _imported = data
    client = APIClient()
    client.force_authenticate(boss)
    answer = client.post(
        "/api/v1/releases/",
        {"name": "api", "version": "1", "formats": ["hf"], "campaigns": [questions.pk]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["options"]["campaigns"] == [questions.pk]
    refused = client.post(
        "/api/v1/releases/",
        {"name": "api2", "version": "1", "formats": ["hf"], "campaigns": [999_999]},
        format="json",
    )
    assert refused.status_code == 400
    assert list(refused.json()["errors"]) == ["campaigns"]


# ---------------------------------------------------------------------------------------------
# Slots


def paris(*args) -> datetime:
    return timezone.make_aware(datetime(*args), timezone.get_default_timezone())


def test_slots_are_the_next_hour_day_or_week_in_the_server_time_zone():
    after = paris(2026, 11, 25, 14, 30)  # a Wednesday
    assert next_slot(frequency="hourly", hour=0, weekday=0, after=after) == paris(
        2026, 11, 25, 15, 0
    )
    assert next_slot(frequency="daily", hour=2, weekday=0, after=after) == paris(2026, 11, 26, 2, 0)
    assert next_slot(frequency="daily", hour=20, weekday=0, after=after) == paris(
        2026, 11, 25, 20, 0
    )
    assert next_slot(frequency="weekly", hour=2, weekday=0, after=after) == paris(
        2026, 11, 30, 2, 0
    )
    assert next_slot(frequency="weekly", hour=20, weekday=2, after=after) == paris(
        2026, 11, 25, 20, 0
    )
    assert next_slot(frequency="weekly", hour=14, weekday=2, after=after) == paris(
        2026, 12, 2, 14, 0
    )
    # Across the change to winter time: still 02:00 local, 25 hours later.
    before = paris(2026, 10, 24, 3, 0)
    assert next_slot(frequency="daily", hour=2, weekday=0, after=before) == paris(
        2026, 10, 25, 2, 0
    )


# ---------------------------------------------------------------------------------------------
# The tick: nothing without a change, a snapshot with one


def test_a_schedule_with_no_data_change_builds_nothing(data, boss):
    questions, _imported = data
    schedule = schedule_create(
        created_by=boss, name="nightly", frequency="daily", formats=["hf"], keep_last=3
    )
    assert schedule.next_run_at > timezone.now()
    assert schedules_tick() == []  # not due yet

    slot = due(schedule)
    [first] = schedules_tick()
    assert first.built
    snapshot = first.release
    assert (snapshot.schedule, snapshot.data_fingerprint) == (schedule, first.fingerprint)
    assert snapshot.name == f"nightly-{slot.astimezone(UTC):%Y%m%d-%H%M}"
    assert snapshot.version == f"1.0+{slot.astimezone(UTC):%Y%m%d.%H%M}"
    assert snapshot.options == {
        "formats": ["hf"],
        "splits": ["train", "dev", "test"],
        "approved_only": False,
        "include_test_answers": False,
        "include_history": False,
        "squad_version": "1.1",
        "language": "fr",
    }
    schedule.refresh_from_db()
    assert schedule.last_fingerprint == first.fingerprint
    assert schedule.next_run_at > timezone.now()

    due(schedule)
    [second] = schedules_tick()
    assert (second.built, second.release, second.fingerprint) == (False, None, first.fingerprint)
    assert Release.objects.count() == 1
    schedule.refresh_from_db()
    checked = schedule.last_checked_at
    assert timezone.now() - checked < timedelta(seconds=30)

    review_one(questions)  # a reviewer's verdict: the data changed
    due(schedule)
    [third] = schedules_tick()
    assert third.built and third.fingerprint != first.fingerprint
    assert Release.objects.count() == 2
    assert list(schedule.snapshots.order_by("pk").values_list("data_fingerprint", flat=True)) == [
        first.fingerprint,
        third.fingerprint,
    ]


def test_the_fingerprint_follows_each_kind_of_change_of_the_group_only(data, boss, tmp_path):
    questions, imported = data
    group = (imported.pk,)
    options = {"formats": ["hf"]}
    before = data_fingerprint(campaigns=group, options=options)
    assert data_fingerprint(campaigns=group, options=options) == before
    review_one(questions)  # another campaign's question reviewed: not this group's data
    assert data_fingerprint(campaigns=group, options=options) == before
    assert data_fingerprint(campaigns=(), options=options) != data_fingerprint(
        campaigns=(), options={"formats": ["squad"]}
    )
    article_store(
        language="fr",
        source=SourceArticle(title="Nouveau", source_title="Nouveau", url="", revision_id=None),
        paragraphs=["Un paragraphe nouveau. " * 30],
        wave="1.1",
        split="train",
        kind="file",
    )
    after_article = data_fingerprint(campaigns=group, options=options)
    assert after_article != before  # the corpus changed (a split could have too)
    imported.questions.get(source_id="phare-2").answers.all().delete()
    assert data_fingerprint(campaigns=group, options=options) != after_article


def test_run_now_builds_once_then_says_nothing_changed(data, boss):
    schedule = schedule_create(created_by=boss, name="manual", frequency="weekly", formats=["hf"])
    slot = schedule.next_run_at
    first = schedule_run_now(schedule=schedule, created_by=boss)
    again = schedule_run_now(schedule=schedule, created_by=boss)
    assert (first.built, again.built) == (True, False)
    assert first.release.created_by == boss
    assert Release.objects.filter(schedule=schedule).count() == 1
    schedule.refresh_from_db()
    assert schedule.next_run_at == slot  # run now leaves the slots alone


def test_a_failed_snapshot_is_built_again_at_the_next_slot(data, boss):
    schedule = schedule_create(created_by=boss, name="retry", frequency="hourly", formats=["hf"])
    due(schedule)
    [first] = schedules_tick()
    Release.objects.filter(pk=first.release.pk).update(status=Release.Status.FAILED)
    due(schedule)
    [second] = schedules_tick()
    assert second.built and second.fingerprint == first.fingerprint
    assert schedule.snapshots.count() == 2


def test_two_slots_in_one_minute_each_build_their_snapshot(data, boss):
    """Snapshots were named to the minute: a second slot in the same UTC minute took the
    first one's name, was refused by the unique index, and passed unbuilt."""
    questions, _imported = data
    schedule = schedule_create(created_by=boss, name="often", frequency="hourly", formats=["hf"])
    due(schedule, datetime(2026, 1, 4, 7, 5, tzinfo=UTC))
    [first] = schedules_tick()
    review_one(questions)
    due(schedule, datetime(2026, 1, 4, 7, 5, 30, tzinfo=UTC))
    [second] = schedules_tick()
    assert (first.built, second.built) == (True, True)
    assert list(schedule.snapshots.order_by("pk").values_list("name", "version")) == [
        ("often-20260104-0705", "1.0+20260104.0705"),
        ("often-20260104-070530", "1.0+20260104.070530"),
    ]


def test_a_slot_whose_name_was_taken_by_hand_is_built_under_the_next_free_name(data, boss):
    schedule = schedule_create(created_by=boss, name="taken", frequency="daily", formats=["hf"])
    release_create(created_by=boss, name="taken-20260104-0100", version="1.0", formats=["hf"])
    due(schedule, datetime(2026, 1, 4, 1, 0, tzinfo=UTC))
    [outcome] = schedules_tick()
    assert outcome.built
    assert outcome.release.name == "taken-20260104-0100-2"
    assert outcome.release.version == "1.0+20260104.0100"


def test_a_disabled_schedule_is_not_run(data, boss):
    schedule = schedule_create(created_by=boss, name="off", frequency="hourly", formats=["hf"])
    due(schedule)
    ReleaseSchedule.objects.filter(pk=schedule.pk).update(enabled=False)
    assert schedules_tick() == []
    assert Release.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# The claim: two ticks, or a tick delivered again, build once


def test_a_tick_delivered_again_for_a_claimed_slot_does_nothing(data, boss):
    schedule = schedule_create(created_by=boss, name="again", frequency="daily", formats=["hf"])
    slot = due(schedule)
    now = timezone.now()
    assert schedule_run_due(schedule_pk=schedule.pk, now=now).built
    assert schedule_run_due(schedule_pk=schedule.pk, now=now) is None
    assert slot < ReleaseSchedule.objects.get(pk=schedule.pk).next_run_at
    assert Release.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_build_one_snapshot(monkeypatch):
    """The first tick holds its claim (the row updated, not committed) while it computes the
    fingerprint; the second reads the slot as due, blocks on the row in its conditional
    UPDATE, and finds the slot moved once the first commits."""
    assert connection.vendor == "postgresql"
    make_dataset()
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    schedule = schedule_create(created_by=boss, name="race", frequency="daily", formats=["hf"])
    due(schedule)
    claimed, real = threading.Event(), schedules.data_fingerprint

    def slow(**kwargs):
        claimed.set()
        time.sleep(1.0)  # the other tick starts meanwhile
        return real(**kwargs)

    monkeypatch.setattr(schedules, "data_fingerprint", slow)
    results: dict[str, list] = {}

    def tick(label: str) -> None:
        try:
            results[label] = schedules_tick()
        finally:
            connection.close()

    first = threading.Thread(target=tick, args=("first",))
    first.start()
    assert claimed.wait(10)
    second = threading.Thread(target=tick, args=("second",))
    second.start()
    first.join(20)
    second.join(20)

    assert [len(results["first"]), len(results["second"])] == [1, 0]
    assert Release.objects.count() == 1
    assert Release.objects.get().schedule_id == schedule.pk


# ---------------------------------------------------------------------------------------------
# Retention


def four_snapshots(boss, keep_last: int = 2) -> tuple[ReleaseSchedule, list[Release]]:
    """Four built snapshots of a schedule, the data changed before each."""
    schedule = schedule_create(
        created_by=boss,
        name="kept",
        frequency="hourly",
        formats=["squad", "hf"],
        keep_last=keep_last,
    )
    made = []
    for index in range(4):
        article_store(
            language="fr",
            source=SourceArticle(title=f"Neuf {index}", source_title="", url="", revision_id=None),
            paragraphs=[f"Paragraphe {index}. " * 40],
            wave="1.1",
            split="train",
            kind="file",
        )
        due(schedule)
        [outcome] = schedules_tick()
        made.append(built(outcome.release))
        snapshot_built(release=outcome.release)
    return schedule, made


def test_retention_keeps_the_files_of_the_last_n_snapshots_and_every_row(
    data, boss, releases_folder
):
    schedule, made = four_snapshots(boss, keep_last=2)
    public = ["README.md", "hf-dev.jsonl", "hf-test.jsonl", "hf-train.jsonl", "manifest.json"]
    public += ["squad-dev.json", "squad-test.json", "squad-train.json"]
    gold = ["gold-dev.json", "gold-test.json", "gold-train.json"]

    for release in made[:2]:
        release.refresh_from_db()
        assert release.files_pruned_at is not None
        assert stored_names(releases_folder, release) == gold  # the scoring answers stay
    for release in made[2:]:
        release.refresh_from_db()
        assert release.files_pruned_at is None
        assert stored_names(releases_folder, release) == sorted(public + gold)
    stored = sum(len(stored_names(releases_folder, r)) for r in made)
    assert stored == 2 * 3 + 2 * 11
    assert ReleaseFile.objects.filter(release__in=made).count() == 4 * 11  # every row stays
    assert Release.objects.filter(schedule=schedule).count() == 4
    assert all(r.manifest["files"] for r in Release.objects.filter(schedule=schedule))

    # Idempotent: another pass prunes nothing more and changes nothing.
    assert schedule_prune(schedule=schedule) == []
    assert sum(len(stored_names(releases_folder, r)) for r in made) == stored


def test_a_pruned_snapshot_answers_410_and_its_page_says_why(data, boss, releases_folder, client):
    _schedule, made = four_snapshots(boss, keep_last=3)
    old = made[0]
    api = APIClient()
    api.force_authenticate(boss)
    answer = api.get(f"/api/v1/releases/{old.pk}/files/hf-dev.jsonl")
    assert answer.status_code == 410
    assert list(answer.json()["errors"]) == ["name"]
    assert answer.json()["errors"]["name"] == [pruned_message()]
    assert api.get(f"/api/v1/releases/{made[1].pk}/files/hf-dev.jsonl").status_code == 200
    shown = api.get(f"/api/v1/releases/{old.pk}/").json()
    old.refresh_from_db()
    assert (shown["schedule"], shown["data_fingerprint"]) == (old.schedule_id, old.data_fingerprint)
    assert shown["files_pruned_at"] is not None
    assert api.get(f"/api/v1/releases/{made[1].pk}/").json()["files_pruned_at"] is None

    client.force_login(boss)
    page = client.get(f"/manage/releases/{old.pk}/files/hf-dev.jsonl")
    assert page.status_code == 410
    shown = client.get(f"/manage/releases/{old.pk}/").content.decode()
    assert 'id="release-pruned"' in shown
    assert f'href="/manage/releases/{old.pk}/files/' not in shown
    assert (
        'id="release-pruned"' not in client.get(f"/manage/releases/{made[1].pk}/").content.decode()
    )


def test_a_snapshot_a_running_baseline_uses_keeps_its_files_until_it_ends(
    data, boss, releases_folder
):
    schedule = schedule_create(
        created_by=boss, name="busy", frequency="hourly", formats=["hf"], keep_last=1
    )
    first = built(schedule_run_now(schedule=schedule, created_by=boss).release)
    run = BaselineRun.objects.create(release=first, kind="lexical", status="running")
    review_one(Campaign.objects.get(name="Questions"))
    second = built(schedule_run_now(schedule=schedule, created_by=boss).release)

    assert snapshot_built(release=second) == []
    assert len(stored_names(releases_folder, first)) == 8  # README, manifest, 3 hf, 3 gold
    BaselineRun.objects.filter(pk=run.pk).update(status="succeeded")
    assert snapshot_built(release=second) == [first]
    assert stored_names(releases_folder, first) == [
        "gold-dev.json",
        "gold-test.json",
        "gold-train.json",
    ]


# ---------------------------------------------------------------------------------------------
# The API


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


VALID = {"name": "nightly", "frequency": "daily", "hour": 3, "formats": ["hf"]}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"keep_last": 0}, "keep_last"),
        ({"keep_last": -3}, "keep_last"),
        ({"frequency": "monthly"}, "frequency"),
        ({"hour": 24}, "hour"),
        ({"hour": -1}, "hour"),
        ({"hour": "noon"}, "hour"),
        ({"weekday": 7}, "weekday"),
        ({"campaigns": [999_999]}, "campaigns"),
        ({"formats": ["pdf"]}, "formats"),
        ({"formats": []}, "formats"),
        ({"splits": ["val"]}, "splits"),
        ({"squad_version": "3.0"}, "squad_version"),
        ({"name": "no spaces please"}, "name"),
        ({"version": ""}, "version"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(boss, change, field):
    answer = api_client(boss).post(API, VALID | change, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"], answer.json()
    assert ReleaseSchedule.objects.count() == 0


def test_a_bad_score_with_is_a_400_naming_it(boss):
    answer = api_client(boss).post(API, VALID | {"score_with": [{"kind": "nope"}]}, format="json")
    assert answer.status_code == 400
    assert all(key.startswith("score_with") for key in answer.json()["errors"]), answer.json()
    assert ReleaseSchedule.objects.count() == 0


def test_a_taken_name_is_a_400_naming_it(boss):
    client = api_client(boss)
    first = client.post(API, VALID, format="json").json()
    again = client.post(API, VALID, format="json")
    assert again.status_code == 400 and list(again.json()["errors"]) == ["name"]
    other = client.post(API, VALID | {"name": "other"}, format="json").json()
    renamed = client.patch(f"{API}{other['id']}/", {"name": "nightly"}, format="json")
    assert renamed.status_code == 400 and list(renamed.json()["errors"]) == ["name"]
    assert sorted(ReleaseSchedule.objects.values_list("pk", "name")) == [
        (first["id"], "nightly"),
        (other["id"], "other"),
    ]


def test_a_name_taken_meanwhile_is_refused_by_the_index_as_taken(boss, monkeypatch):
    """Another request takes the name after the check looked: the unique index refuses the
    write, and the name is refused as taken, on create and on update alike."""
    client = api_client(boss)
    first = client.post(API, VALID, format="json").json()
    other = client.post(API, VALID | {"name": "other"}, format="json").json()
    monkeypatch.setattr(schedules, "_check_name_free", lambda name, other_than=None: None)
    again = client.post(API, VALID, format="json")
    assert again.status_code == 400
    assert again.json()["errors"] == {"name": ["Une autre planification porte ce nom."]}
    renamed = client.patch(f"{API}{other['id']}/", {"name": "nightly"}, format="json")
    assert renamed.status_code == 400
    assert renamed.json()["errors"] == {"name": ["Une autre planification porte ce nom."]}
    assert sorted(ReleaseSchedule.objects.values_list("pk", "name")) == [
        (first["id"], "nightly"),
        (other["id"], "other"),
    ]


def test_a_bad_change_is_a_400_and_changes_nothing(boss):
    client = api_client(boss)
    created = client.post(API, VALID, format="json").json()
    for change, field in [({"keep_last": 0}, "keep_last"), ({"frequency": "yearly"}, "frequency")]:
        answer = client.patch(f"{API}{created['id']}/", change, format="json")
        assert answer.status_code == 400
        assert list(answer.json()["errors"]) == [field]
    schedule = ReleaseSchedule.objects.get()
    assert (schedule.keep_last, schedule.frequency) == (5, "daily")


def test_the_api_creates_reads_changes_runs_and_deletes_a_schedule(data, boss):
    questions, _imported = data
    client = api_client(boss)
    answer = client.post(
        API,
        VALID | {"campaigns": [questions.pk], "keep_last": 2, "score_with": [{"kind": "lexical"}]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert {
        k: body[k] for k in ("name", "frequency", "hour", "weekday", "keep_last", "enabled")
    } == {
        "name": "nightly",
        "frequency": "daily",
        "hour": 3,
        "weekday": 0,
        "keep_last": 2,
        "enabled": True,
    }
    assert body["campaigns"] == [questions.pk]
    assert body["score_with"] == [{"kind": "lexical"}]
    assert body["options"]["formats"] == ["hf"]
    pk = body["id"]

    changed = client.patch(f"{API}{pk}/", {"frequency": "weekly", "weekday": 4}, format="json")
    assert changed.status_code == 200
    next_run = datetime.fromisoformat(changed.json()["next_run_at"])
    local = timezone.localtime(next_run)
    assert (local.weekday(), local.hour, local.minute) == (4, 3, 0)
    assert changed.json()["keep_last"] == 2  # what was not given stays

    ran = client.post(f"{API}{pk}/run/")
    assert ran.status_code == 201
    release = Release.objects.get(pk=ran.json()["release"])
    assert release.schedule_id == pk and release.options["campaigns"] == [questions.pk]
    assert release.score_with == [{"kind": "lexical"}]
    again = client.post(f"{API}{pk}/run/")
    assert again.status_code == 200
    assert (again.json()["built"], again.json()["release"]) == (False, None)

    listed = client.get(API).json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [(s["name"], [r["id"] for r in s["snapshots"]]) for s in rows] == [
        ("nightly", [release.pk])
    ]
    disabled = client.patch(f"{API}{pk}/", {"enabled": False}, format="json")
    assert disabled.json()["enabled"] is False
    assert client.delete(f"{API}{pk}/").status_code == 204
    assert ReleaseSchedule.objects.count() == 0
    release.refresh_from_db()
    assert release.schedule_id is None  # the snapshot stays, as a release


def test_only_admins_reach_the_schedules(db):
    annotator = UserFactory(roles=[Role.ANNOTATOR])
    reviewer = UserFactory(roles=[Role.REVIEWER])
    boss = UserFactory(roles=[Role.ADMIN])
    schedule = schedule_create(created_by=boss, name="mine", frequency="daily", formats=["hf"])
    assert APIClient().get(API).status_code == 401
    for user in (annotator, reviewer):
        client = api_client(user)
        assert client.get(API).status_code == 403
        assert client.post(API, VALID, format="json").status_code == 403
        assert client.post(f"{API}{schedule.pk}/run/").status_code == 403
        assert client.delete(f"{API}{schedule.pk}/").status_code == 403
    assert ReleaseSchedule.objects.count() == 1 and Release.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# The pages


def test_only_admins_see_the_schedule_pages(client, db):
    boss = UserFactory(roles=[Role.ADMIN])
    schedule = schedule_create(created_by=boss, name="mine", frequency="daily", formats=["hf"])
    urls = [PAGES, f"{PAGES}{schedule.pk}/", f"{PAGES}{schedule.pk}/chart/"]
    for url in urls:
        assert client.get(url).status_code == 302  # to the sign-in page
    client.force_login(UserFactory(roles=[Role.ANNOTATOR]))
    for url in urls:
        assert client.get(url).status_code == 403
    for action in ("run", "enable", "delete"):
        assert client.post(f"{PAGES}{schedule.pk}/{action}/").status_code == 403
    assert ReleaseSchedule.objects.count() == 1 and Release.objects.count() == 0


def test_an_admin_creates_runs_disables_and_deletes_a_schedule_on_the_pages(data, boss, client):
    questions, _imported = data
    client.force_login(boss)
    refused = client.post(
        PAGES,
        {
            "name": "nightly",
            "version": "1.0",
            "frequency": "daily",
            "hour": "25",
            "keep_last": "0",
            "formats": ["hf"],
            "splits": ["train", "dev", "test"],
        },
    )
    assert refused.status_code == 400
    assert ReleaseSchedule.objects.count() == 0
    errors = refused.context["form"].errors
    assert sorted(errors) == ["hour", "keep_last"]
    assert errors["hour"][0] in refused.content.decode()  # shown next to the field
    # and named at the form's top, where the refused page comes back, with a link to each field
    summary = refused.content.decode().split('id="form-error-summary">', 1)[1].split("</div>")[0]
    assert summary.count("<li>") == 2
    assert '<li><a href="#id_hour">Heure</a>\u00a0: Un nombre entier de 0 à 23.</li>' in summary
    assert (
        '<li><a href="#id_keep_last">Instantanés qui gardent leurs fichiers</a>\u00a0: Un nombre'
        " entier, au moins 1.</li>"
    ) in summary

    created = client.post(
        PAGES,
        {
            "name": "nightly",
            "version": "1.0",
            "campaigns": [str(questions.pk)],
            "frequency": "daily",
            "hour": "4",
            "weekday": "0",
            "keep_last": "3",
            "formats": ["hf"],
            "splits": ["train", "dev", "test"],
            "enabled": "on",
            "squad_version": "1.1",
            "score_lexical": "on",
        },
    )
    schedule = ReleaseSchedule.objects.get()
    assert created.status_code == 302 and created.url == f"{PAGES}{schedule.pk}/"
    assert list(schedule.campaigns.all()) == [questions]
    assert (schedule.hour, schedule.keep_last, schedule.score_with) == (4, 3, [{"kind": "lexical"}])
    listed = client.get(PAGES).content.decode()
    assert f'data-schedule="{schedule.pk}"' in listed and "Questions" in listed

    assert client.post(f"{PAGES}{schedule.pk}/run/").status_code == 302
    assert client.post(f"{PAGES}{schedule.pk}/run/").status_code == 302
    snapshot = Release.objects.get()
    page = client.get(f"{PAGES}{schedule.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert f'data-release="{snapshot.pk}"' in text and snapshot.name in text
    assert f'hx-get="/manage/releases/schedules/{schedule.pk}/chart/"' in text
    # French agrees with the words of the snapshots table: un instantané créé, des données
    # modifiées (not the release's "Créée" nor a review's "modifié").
    assert '<th scope="col">Créé</th></tr></thead>' in text
    assert "<td>modifiées <code " in text

    client.post(f"{PAGES}{schedule.pk}/enable/", {"enabled": "0"})
    assert ReleaseSchedule.objects.get().enabled is False
    client.post(f"{PAGES}{schedule.pk}/enable/", {"enabled": "1"})
    assert ReleaseSchedule.objects.get().enabled is True
    assert client.post(f"{PAGES}{schedule.pk}/delete/").status_code == 302
    assert ReleaseSchedule.objects.count() == 0 and Release.objects.count() == 1


# ---------------------------------------------------------------------------------------------
# The chart


def test_the_chart_shows_each_baseline_f1_across_the_snapshots_beside_humans(data, boss, client):
    schedule = schedule_create(created_by=boss, name="chart", frequency="daily", formats=["hf"])
    first = built(schedule_run_now(schedule=schedule, created_by=boss).release)
    review_one(Campaign.objects.get(name="Questions"))
    second = built(schedule_run_now(schedule=schedule, created_by=boss).release)
    figures = {
        (first, "lexical", ""): {"dev": 41.2, "test": 38.5},
        (second, "lexical", ""): {"dev": 43.8, "test": 40.0},
        (second, "finetune", "camembert-base"): {"dev": 81.5, "test": 79.3},
    }
    for (release, kind, model), f1 in figures.items():
        BaselineRun.objects.create(
            release=release,
            kind=kind,
            model=model,
            status="succeeded",
            metrics={s: {"f1": v, "exact_match": v - 10} for s, v in f1.items()},
        )
    BaselineRun.objects.create(  # unfinished: not charted
        release=first, kind="lexical", status="running", metrics={"dev": {"f1": 1.0}}
    )
    BaselineRun.objects.create(  # many models, drawn on the results page: not charted
        release=second,
        kind="learning_curve",
        model="camembert-base",
        status="succeeded",
        metrics={"dev": {"f1": 75.5, "exact_match": 60.5}},
    )
    client.force_login(boss)
    client.cookies["django_language"] = "en"
    page = client.get(f"{PAGES}{schedule.pk}/chart/")
    assert page.status_code == 200
    figures = page.context["figures"]
    assert figures["baselines"] == ["camembert-base (fine-tuned)", "lexical"]
    # The snapshots numbered 1 and 2 as in the table, half a step from each edge.
    assert [t["value"] for t in page.context["chart"]["x_ticks"]] == [1, 2]
    rows = [
        (r["release"].pk, round(r["human"]["dev"], 4), r["human"]["test"], r["scores"])
        for r in figures["rows"]
    ]
    human = round(100 * (1 + 2 / 3 + 1) / 3, 4)  # "1852", "en 1852", "1852,": 88.8889
    assert rows == [
        (first.pk, human, None, [{"dev": None, "test": None}, {"dev": 41.2, "test": 38.5}]),
        (
            second.pk,
            human,
            None,
            [{"dev": 81.5, "test": 79.3}, {"dev": 43.8, "test": 40.0}],
        ),
    ]
    text = page.content.decode()
    table = text[text.index('id="schedule-f1-table"') :]
    cells = [c.split("</td>", 1)[0].strip() for c in table.split('<td class="num">')[1:]]
    assert cells == [
        "88.9",
        "—",
        "—",
        "—",
        "41.2",
        "38.5",
        "88.9",
        "—",
        "81.5",
        "79.3",
        "43.8",
        "40.0",
    ]
    assert '<title id="schedule-f1-title">' in text and '<desc id="schedule-f1-desc">' in text
    # humans on dev (no test question has three answers) and two baselines, dev and test
    assert text.count("<polyline") == 5
    partial = client.get(f"{PAGES}{schedule.pk}/chart/", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<div id="schedule-chart">')


# ---------------------------------------------------------------------------------------------
# The command and beat


def test_the_command_ticks_and_lists(data, boss):
    schedule = schedule_create(created_by=boss, name="cron", frequency="hourly", formats=["hf"])
    due(schedule)
    out = StringIO()
    call_command("release_schedules", "tick", "--json", stdout=out)
    result = json.loads(out.getvalue())
    release = Release.objects.get()
    assert result["schedules"] == [
        {
            "schedule": schedule.pk,
            "name": "cron",
            "built": True,
            "release": release.pk,
            "fingerprint": release.data_fingerprint,
        }
    ]
    due(schedule)
    out = StringIO()
    call_command("release_schedules", "tick", stdout=out)
    assert out.getvalue().strip() == "cron: data unchanged since the last snapshot, nothing built"
    out = StringIO()
    call_command("release_schedules", "list", "--json", stdout=out)
    [listed] = json.loads(out.getvalue())["schedules"]
    assert (listed["name"], listed["snapshots"], listed["enabled"]) == ("cron", 1, True)


def test_beat_sends_the_tick_every_minute_on_the_default_queue(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["release-schedules-tick"]
    assert entry == {
        "task": "exports.tasks.release_schedules_tick_task",
        "schedule": 60.0,
        "options": {"queue": "default"},
    }
    app.loader.import_default_modules()
    assert "exports.tasks.release_schedules_tick_task" in app.tasks
