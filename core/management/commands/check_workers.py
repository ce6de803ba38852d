import time

from django.conf import settings
from django.core.management.base import CommandError

from core.commands import PlatformCommand
from core.models import WorkerCheck
from core.services.workers import worker_check_start


class Command(PlatformCommand):
    help = "Send a worker check to each queue and wait until a worker has run it."

    def add_command_arguments(self, parser):
        parser.add_argument(
            "--queue",
            action="append",
            choices=settings.JOB_QUEUES,
            help="Queue to check (repeat it; default: default, scrape, export).",
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=60.0,
            help="Seconds to wait for the workers (default 60).",
        )

    def run(self, *, queue, timeout, **options):
        queues = queue or ["default", "scrape", "export"]
        checks = [worker_check_start(queue=name) for name in queues]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            checks = [WorkerCheck.objects.get(pk=c.pk) for c in checks]
            if all(c.is_finished for c in checks):
                break
            time.sleep(0.5)
        result = {
            "checks": [
                {
                    "queue": c.queue,
                    "status": c.status,
                    "progress": c.progress,
                    "worker": c.worker,
                    "message": c.message_text,
                }
                for c in checks
            ]
        }
        waiting = [c.queue for c in checks if c.status != WorkerCheck.Status.SUCCEEDED]
        if waiting:
            raise CommandError(f"No worker served {', '.join(waiting)} within {timeout:g} s.")
        return result

    def summary(self, result):
        return "\n".join(f"{c['queue']}: {c['status']} ({c['worker']})" for c in result["checks"])
