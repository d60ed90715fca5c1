from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.errors import ServiceError
from tournament.services.archive import archive_parse, event_import
from tournament.services.log import Actor


class Command(BaseCommand):
    help = (
        "Load an event archive written by export_event into a database that does not have that event. "
        "A malformed or inconsistent file is refused with the first problem's place in the file, and nothing "
        "is imported. See docs/archive.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, *args, file, **options):
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        try:
            event = event_import(data=archive_parse(raw), actor=Actor.command("import_event"))
        except ServiceError as error:
            raise CommandError(f"Nothing imported. {error.message}") from None
        self.stdout.write(f"Imported {event.name} ({event.tournaments.count()} tournaments).")
