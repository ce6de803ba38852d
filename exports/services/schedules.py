"""Scheduled snapshots: a release of a campaign group built by Celery beat when its data changed.

A schedule (`ReleaseSchedule`) names a campaign group (none: every campaign), when to look
(hourly, daily at an hour, weekly on a day at an hour, in the server's time zone), the release
options, the baselines to score each snapshot with, and how many snapshots keep their files.

The tick (`schedules_tick`, sent by beat every RELEASE_SCHEDULE_TICK_SECONDS, or run by the
`release_schedules tick` command) claims each due schedule with one conditional UPDATE
(`next_run_at` still the slot it read → the next slot), in the transaction that records the
snapshot: two ticks at once, or a tick delivered again, find the slot already moved and do
nothing. The claimer computes the group's data fingerprint (`data_fingerprint`) and builds a
snapshot only when it differs from the last snapshot's. After a snapshot is built, and at each
tick, the schedule's retention (`exports.services.retention`) deletes the stored files of the
snapshots older than its last `keep_last` (docs/release-schedules.md says what stays).
"""

from __future__ import annotations

import logging
import re
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from exports.fingerprint import data_fingerprint
from exports.models import Release, ReleaseSchedule
from exports.options import check_campaigns, check_options
from exports.scoring import score_with_clean
from exports.services.releases import release_create
from exports.services.retention import schedule_prune

logger = logging.getLogger(__name__)

SCHEDULE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
SCHEDULE_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,15}")
OPTION_NAMES = (
    "formats",
    "splits",
    "approved_only",
    "include_test_answers",
    "include_history",
    "squad_version",
    "language",
)
FIELDS = ("name", "version", "frequency", "hour", "weekday", "keep_last", "enabled")
DEFAULTS = {
    "version": "1.0",
    "hour": 2,
    "weekday": 0,
    "keep_last": 5,
    "enabled": True,
    "campaigns": [],
    "score_with": [],
}


# ---------------------------------------------------------------------------------------------
# Slots


def next_slot(*, frequency: str, hour: int, weekday: int, after: datetime) -> datetime:
    """Return the first slot strictly after `after`: the next full hour (hourly), the next
    `hour`:00 (daily), the next `weekday` (0 = Monday) at `hour`:00 (weekly), in the
    server's time zone (TIME_ZONE)."""
    if frequency == ReleaseSchedule.Frequency.HOURLY:
        start = after.replace(minute=0, second=0, microsecond=0)
        return start + timedelta(hours=1)
    zone = timezone.get_default_timezone()
    local = timezone.localtime(after, zone)
    days = 0
    if frequency == ReleaseSchedule.Frequency.WEEKLY:
        days = (weekday - local.weekday()) % 7
    day = local.date() + timedelta(days=days)
    slot = timezone.make_aware(datetime.combine(day, time(hour)), zone)
    while slot <= after:
        day += timedelta(days=7 if frequency == ReleaseSchedule.Frequency.WEEKLY else 1)
        slot = timezone.make_aware(datetime.combine(day, time(hour)), zone)
    return slot


def _slot_after(schedule: ReleaseSchedule, after: datetime) -> datetime:
    return next_slot(
        frequency=schedule.frequency, hour=schedule.hour, weekday=schedule.weekday, after=after
    )


# ---------------------------------------------------------------------------------------------
# Create, change, enable, delete


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _checked(data: dict) -> dict:
    """Return the schedule's fields checked and canonical, or raise a ServiceError naming
    every bad field at once."""
    errors = _field_problems(data)
    campaigns = ()
    try:
        campaigns = check_campaigns(data.get("campaigns"))
    except ServiceError as error:
        errors |= error.errors
    options = None
    try:
        chosen = {name: data[name] for name in OPTION_NAMES if name in data}
        options = check_options(chosen | {"campaigns": list(campaigns)})
    except ServiceError as error:
        errors |= error.errors
    score_with = []
    try:
        score_with = score_with_clean(
            data.get("score_with"), splits=options.splits if options else None
        )
    except ServiceError as error:
        errors |= error.errors
    if errors:
        raise ServiceError(errors)
    # The group's campaigns are the schedule's own (not an option); its language is an option
    # only when given: otherwise each snapshot takes its campaigns' language.
    stored = {k: v for k, v in options.as_dict().items() if k != "campaigns"}
    if "language" not in data:
        del stored["language"]
    return {
        **{field: data[field] for field in FIELDS},
        "options": stored,
        "campaigns": campaigns,
        "score_with": score_with,
    }


def _field_problems(data: dict) -> dict[str, list[str]]:
    """Return the problems of the schedule's own fields (name, version, slot, retention,
    enabled), by field."""
    errors: dict[str, list[str]] = {}
    name, version = data.get("name"), data.get("version")
    if not isinstance(name, str) or not SCHEDULE_NAME.fullmatch(name):
        errors["name"] = [_("Letters, digits, “.”, “_” and “-”, at most 80, like fquad-nightly.")]
    if not isinstance(version, str) or not SCHEDULE_VERSION.fullmatch(version):
        errors["version"] = [_("Letters, digits, “.”, “_” and “-”, at most 16, like 1.1.")]
    if data.get("frequency") not in ReleaseSchedule.Frequency.values:
        errors["frequency"] = [_("One of hourly, daily, weekly.")]
    hour, weekday, keep = data.get("hour"), data.get("weekday"), data.get("keep_last")
    if not _is_int(hour) or not 0 <= hour <= 23:
        errors["hour"] = [_("A whole number from 0 to 23.")]
    if not _is_int(weekday) or not 0 <= weekday <= 6:
        errors["weekday"] = [_("A whole number from 0 (Monday) to 6 (Sunday).")]
    if not _is_int(keep) or not 1 <= keep <= 10_000:
        errors["keep_last"] = [_("A whole number, at least 1.")]
    if not isinstance(data.get("enabled"), bool):
        errors["enabled"] = [_("true or false.")]
    return errors


def schedule_values(schedule: ReleaseSchedule) -> dict:
    """Return a schedule as the flat values `schedule_update` takes (what a form shows)."""
    return {
        **{field: getattr(schedule, field) for field in FIELDS},
        **schedule.options,
        "campaigns": sorted(schedule.campaigns.values_list("pk", flat=True)),
        "score_with": schedule.score_with,
    }


def schedule_create(*, created_by, **data) -> ReleaseSchedule:
    """Record a schedule; its first slot is the next one from now."""
    checked = _checked(DEFAULTS | data)
    campaigns = checked.pop("campaigns")
    with _name_kept():
        _check_name_free(checked["name"])
        schedule = ReleaseSchedule(created_by=created_by, **checked)
        schedule.next_run_at = _slot_after(schedule, timezone.now())
        schedule.save()
        schedule.campaigns.set(campaigns)
    return schedule


def schedule_update(*, schedule: ReleaseSchedule, **changes) -> ReleaseSchedule:
    """Change some of a schedule's values (the others stay); a changed frequency, hour or
    weekday, or a schedule enabled again, takes the next slot from now."""
    checked = _checked(schedule_values(schedule) | changes)
    campaigns = checked.pop("campaigns")
    with _name_kept():
        locked = ReleaseSchedule.objects.select_for_update().get(pk=schedule.pk)
        _check_name_free(checked["name"], other_than=locked.pk)
        timing = ("frequency", "hour", "weekday")
        moved = any(checked[f] != getattr(locked, f) for f in timing)
        woken = checked["enabled"] and not locked.enabled
        for field, value in checked.items():
            setattr(locked, field, value)
        if moved or woken or locked.next_run_at is None:
            locked.next_run_at = _slot_after(locked, timezone.now())
        locked.save()
        locked.campaigns.set(campaigns)
    return locked


def _name_taken() -> ServiceError:
    return ServiceError({"name": [_("Another schedule has this name.")]})


def _check_name_free(name: str, *, other_than: int | None = None) -> None:
    """Refuse a name that another schedule has (in the writer's transaction, `_name_kept`)."""
    if ReleaseSchedule.objects.filter(name=name).exclude(pk=other_than).exists():
        raise _name_taken()


@contextmanager
def _name_kept():
    """The transaction that writes a schedule's name: when another request took the name
    meanwhile (after `_check_name_free` looked), the unique index refuses the write, and the
    name is refused as taken."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise _name_taken() from None


def schedule_set_enabled(*, schedule: ReleaseSchedule, enabled: bool) -> ReleaseSchedule:
    """Enable or disable a schedule (enabled again, it waits for its next slot from now)."""
    return schedule_update(schedule=schedule, enabled=enabled)


def schedule_delete(*, schedule: ReleaseSchedule) -> None:
    """Delete a schedule; its snapshots stay, as releases of no schedule."""
    ReleaseSchedule.objects.filter(pk=schedule.pk).delete()


# ---------------------------------------------------------------------------------------------
# Snapshots: the tick and "run now"


@dataclass(frozen=True)
class SnapshotOutcome:
    """What one look at a schedule did: a snapshot built (`release`), or nothing to build
    because the data had not changed (`release` None)."""

    schedule: ReleaseSchedule
    release: Release | None
    fingerprint: str

    @property
    def built(self) -> bool:
        return self.release is not None

    def as_dict(self) -> dict:
        return {
            "schedule": self.schedule.pk,
            "name": self.schedule.name,
            "built": self.built,
            "release": self.release.pk if self.release else None,
            "fingerprint": self.fingerprint,
        }


def _snapshot(
    schedule: ReleaseSchedule, *, stamp: datetime, created_by, manual: bool
) -> SnapshotOutcome:
    """Build a snapshot of the group unless its data is as at the last snapshot (one that did
    not fail). Runs inside the caller's transaction, the schedule row locked."""
    campaigns = tuple(sorted(schedule.campaigns.values_list("pk", flat=True)))
    options = check_options({**schedule.options, "campaigns": list(campaigns)})
    fingerprint = data_fingerprint(campaigns=campaigns, options=options.as_dict())
    now = timezone.now()
    last = schedule.snapshots.order_by("-created_at", "-pk").first()
    if (
        fingerprint == schedule.last_fingerprint
        and last is not None
        and last.status != Release.Status.FAILED
    ):
        ReleaseSchedule.objects.filter(pk=schedule.pk).update(last_checked_at=now)
        return SnapshotOutcome(schedule, None, fingerprint)
    name, version = snapshot_identity(schedule, stamp, manual=manual)
    release = release_create(
        created_by=created_by,
        name=name,
        version=version,
        schedule=schedule,
        data_fingerprint=fingerprint,
        score_with=schedule.score_with,
        **options.as_dict(),
    )
    ReleaseSchedule.objects.filter(pk=schedule.pk).update(
        last_checked_at=now, last_fingerprint=fingerprint
    )
    return SnapshotOutcome(schedule, release, fingerprint)


def snapshot_identity(schedule: ReleaseSchedule, stamp: datetime, *, manual: bool):
    """Return the (name, version) of the snapshot of `stamp` (its slot, or "run now"'s time).

    Named by the stamp in UTC (a local time repeats when the clocks go back): to the minute
    for a slot on a whole minute (every slot `next_slot` gives is on a whole hour), to the
    second otherwise, and always to the second for "run now". Two different slots therefore
    get two different names unless they fall in the same second; a name taken anyway (a
    release made by hand, a "run now" in the slot's second, two slots in one second) gets
    `-2`, `-3`…: a slot is never lost to its name.
    """
    utc = stamp.astimezone(UTC)
    whole_minute = utc.second == 0 and utc.microsecond == 0
    clock = "%H%M" if whole_minute and not manual else "%H%M%S"
    name = _free_name(f"{schedule.name}-{utc:%Y%m%d}-{utc.strftime(clock)}")
    return name, f"{schedule.version}+{utc:%Y%m%d}.{utc.strftime(clock)}"


def _free_name(name: str) -> str:
    """Return `name`, or `name-2`, `name-3`… when taken (they are serialized by the
    schedule's row lock; the unique index is the last word)."""
    taken = set(Release.objects.filter(name__startswith=name).values_list("name", flat=True))
    found, number = name, 1
    while found in taken:
        number += 1
        found = f"{name}-{number}"
    return found


def schedule_run_due(*, schedule_pk: int, now: datetime) -> SnapshotOutcome | None:
    """Claim the schedule's slot if it is due, and take its snapshot; None when it was not
    due or another tick claimed it first.

    The claim is one conditional UPDATE (next_run_at still the slot read → the next slot
    after now): on PostgreSQL a second tick blocks on the row until the first commits, then
    finds the condition false and updates nothing. The claim and the snapshot commit
    together: a tick that dies leaves the slot due for the next one.
    """
    with transaction.atomic():
        schedule = ReleaseSchedule.objects.filter(pk=schedule_pk).first()
        if schedule is None or not schedule.enabled or schedule.next_run_at is None:
            return None
        slot = schedule.next_run_at
        if slot > now:
            return None
        claimed = ReleaseSchedule.objects.filter(
            pk=schedule_pk, enabled=True, next_run_at=slot
        ).update(next_run_at=_slot_after(schedule, now))
        if not claimed:
            return None
        schedule = ReleaseSchedule.objects.select_for_update().get(pk=schedule_pk)
        try:
            with transaction.atomic():
                return _snapshot(schedule, stamp=slot, created_by=schedule.created_by, manual=False)
        except ServiceError as error:  # e.g. options no longer valid: logged, the slot passes
            logger.error("schedule %s: slot %s not built: %s", schedule.name, slot, error)
            return None


def schedules_tick(*, now: datetime | None = None) -> list[SnapshotOutcome]:
    """Look at every due schedule (a snapshot where the data changed), then apply every
    schedule's retention; return what each due schedule did."""
    now = now or timezone.now()
    due = (
        ReleaseSchedule.objects.filter(enabled=True, next_run_at__lte=now)
        .order_by("next_run_at", "pk")
        .values_list("pk", flat=True)
    )
    outcomes = []
    for pk in list(due):
        outcome = schedule_run_due(schedule_pk=pk, now=now)
        if outcome is not None:
            outcomes.append(outcome)
    for schedule in ReleaseSchedule.objects.order_by("pk"):
        schedule_prune(schedule=schedule)
    return outcomes


def schedule_run_now(*, schedule: ReleaseSchedule, created_by) -> SnapshotOutcome:
    """Take a snapshot now (its slots unchanged); still nothing when the data has not
    changed since the last one."""
    with transaction.atomic():
        locked = ReleaseSchedule.objects.select_for_update().get(pk=schedule.pk)
        return _snapshot(locked, stamp=timezone.now(), created_by=created_by, manual=True)
