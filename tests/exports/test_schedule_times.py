"""Times on the schedule pages (issue 25 §18): one 24-hour format in French and English, the
same as the pages' scripts write, and the zone named where an hour is set or compared."""

from datetime import UTC, datetime

import pytest

from core.roles import Role
from exports.models import ReleaseSchedule
from exports.services.schedules import schedule_create
from tests.factories import UserFactory


@pytest.fixture
def boss(db):
    return UserFactory(username="boss", roles=[Role.ADMIN])


def test_the_schedule_pages_write_times_on_the_24_hour_clock_and_name_the_zone(boss, client):
    schedule = schedule_create(created_by=boss, name="nightly", frequency="daily", formats=["hf"])
    slot = datetime(2026, 1, 4, 6, 19, tzinfo=UTC)  # 07:19 in Paris
    ReleaseSchedule.objects.filter(pk=schedule.pk).update(next_run_at=slot)
    client.force_login(boss)

    for language, when, zone, hour in [
        (
            "en",
            "01/04/2026 07:19",  # was "01/04/2026 7:19 a.m."
            "Hours and times are in Europe/Paris time; a snapshot's name carries its time in UTC.",
            "0 to 23, in Europe/Paris time.",
        ),
        (
            "fr",
            "04/01/2026 07:19",
            "Heures et dates sont à l’heure de Europe/Paris\u202f; le nom d’un instantané porte "
            "son heure en UTC.",
            "De 0 à 23, à l’heure de Europe/Paris.",
        ),
    ]:
        for url in ("/manage/releases/schedules/", f"/manage/releases/schedules/{schedule.pk}/"):
            html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert when in html, (language, url)
            assert f'<p class="hint" id="schedule-zone">{zone}</p>' in html
            assert hour in html  # the hour field's help
