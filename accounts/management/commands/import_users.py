from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from accounts.services import set_password_path, users_import
from core.commands import PlatformCommand


class Command(PlatformCommand):
    help = "Create accounts from a username,email,role CSV and print one-time set-password links."

    def add_command_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--base-url",
            default=None,
            help="Start of the printed links (default: SITE_URL, else http://127.0.0.1:8000).",
        )

    def run(self, *, path, base_url, **options):
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{path}: {error}") from None
        base = (base_url or settings.SITE_URL or "http://127.0.0.1:8000").rstrip("/")
        result = users_import(text=text)
        return {
            "created": [
                {
                    "username": user.username,
                    "email": user.email,
                    "role": row.role,
                    "set_password_url": base + set_password_path(user),
                }
                for row, user in result.created
            ],
            "skipped": [{"username": row.username, "line": row.line} for row in result.skipped],
        }

    def summary(self, result):
        lines = [
            f"{len(result['created'])} account(s) created, "
            f"{len(result['skipped'])} already present (unchanged)."
        ]
        lines += [
            f"{u['username']} ({u['role']}): {u['set_password_url']}" for u in result["created"]
        ]
        lines += [f"skipped line {u['line']}: {u['username']} exists" for u in result["skipped"]]
        return "\n".join(lines)
