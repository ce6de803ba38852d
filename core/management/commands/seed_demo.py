import json

from django.conf import settings

from accounts.roles import Role
from accounts.services import demo_user_ensure
from core.commands import PlatformCommand

DEMO_USERS = [("admin", Role.ADMIN), ("reviewer", Role.REVIEWER), ("annotator", Role.ANNOTATOR)]


class Command(PlatformCommand):
    help = "Create (or refresh) one demo account per role and print their logins."

    def run(self, **options):
        logins_file = settings.VAR_DIR / "demo-logins.json"
        known = json.loads(logins_file.read_text()) if logins_file.exists() else {}
        logins = {
            username: demo_user_ensure(
                username=username, role=role, known_password=known.get(username)
            )
            for username, role in DEMO_USERS
        }
        logins_file.parent.mkdir(parents=True, exist_ok=True)
        logins_file.write_text(json.dumps(logins, indent=2))
        logins_file.chmod(0o600)
        return {
            "users": [{"username": u, "role": str(r), "password": logins[u]} for u, r in DEMO_USERS]
        }

    def summary(self, result):
        lines = ["Demo logins (kept in var/demo-logins.json):"]
        lines += [f"  {u['role']:<10} {u['username']:<10} {u['password']}" for u in result["users"]]
        return "\n".join(lines)
