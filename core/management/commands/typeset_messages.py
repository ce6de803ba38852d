"""Give the French catalogue its French spaces (core/typography.py), in place.

Run after adding French messages, before compilemessages; only the msgstrs that change are
rewritten, each keeping its lines, so the diff is those messages and nothing else.
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from core.typography import po_typeset


class Command(BaseCommand):
    help = "Put French no-break spaces into locale/fr's catalogues (before : ; ! ?, in « »)."

    def handle(self, *args, **options):
        for path in sorted((Path(settings.BASE_DIR) / "locale" / "fr").rglob("*.po")):
            changed = po_typeset(path)
            self.stdout.write(f"{path.name}: {changed} messages typeset")
