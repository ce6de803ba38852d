"""A base for our management commands: a human summary, or one JSON object with --json."""

import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError


class PlatformCommand(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print one JSON object instead.")
        self.add_command_arguments(parser)

    def add_command_arguments(self, parser):
        """Add the command's own arguments."""

    def handle(self, *args, **options):
        try:
            result = self.run(**options)
        except ServiceError as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False, sort_keys=True))
        else:
            self.stdout.write(self.summary(result))

    def run(self, **options) -> dict:
        """Do the work; return what --json prints."""
        raise NotImplementedError

    def summary(self, result: dict) -> str:
        """Return the human summary of `result`."""
        raise NotImplementedError
