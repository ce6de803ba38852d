"""`release_schedules tick`: take the due schedules' snapshots and apply their retention, for
installs that run cron instead of Celery beat; `release_schedules list`: the schedules."""

from core.commands import PlatformCommand
from exports.models import ReleaseSchedule
from exports.services.schedules import schedules_tick


class Command(PlatformCommand):
    help = "Release schedules: `tick` (what beat sends every minute) or `list`."

    def add_command_arguments(self, parser):
        parser.add_argument("action", choices=["tick", "list"])

    def run(self, **options) -> dict:
        if options["action"] == "tick":
            return {"action": "tick", "schedules": [o.as_dict() for o in schedules_tick()]}
        rows = ReleaseSchedule.objects.order_by("name")
        return {
            "action": "list",
            "schedules": [
                {
                    "id": s.pk,
                    "name": s.name,
                    "frequency": s.frequency,
                    "hour": s.hour,
                    "weekday": s.weekday,
                    "enabled": s.enabled,
                    "keep_last": s.keep_last,
                    "next_run_at": s.next_run_at.isoformat() if s.next_run_at else None,
                    "last_checked_at": s.last_checked_at.isoformat() if s.last_checked_at else None,
                    "snapshots": s.snapshots.count(),
                }
                for s in rows
            ],
        }

    def summary(self, result: dict) -> str:
        if result["action"] == "tick":
            if not result["schedules"]:
                return "No schedule was due."
            return "\n".join(
                f"{s['name']}: snapshot {s['release']} built"
                if s["built"]
                else f"{s['name']}: data unchanged since the last snapshot, nothing built"
                for s in result["schedules"]
            )
        if not result["schedules"]:
            return "No schedule."
        return "\n".join(
            f"{s['name']} · {s['frequency']} · {'enabled' if s['enabled'] else 'disabled'} · "
            f"next {s['next_run_at'] or '—'} · {s['snapshots']} snapshots, keeps {s['keep_last']}"
            for s in result["schedules"]
        )
