from accounts.services import admin_create
from core.commands import PlatformCommand


class Command(PlatformCommand):
    help = "Create an admin account and print its generated password (shown once)."

    def add_command_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")

    def run(self, *, username, email, **options):
        user, password = admin_create(username=username, email=email)
        return {"username": user.username, "password": password, "role": "admin"}

    def summary(self, result):
        return (
            f"Admin “{result['username']}” created.\n"
            f"Password (shown once, change it after signing in): {result['password']}"
        )
