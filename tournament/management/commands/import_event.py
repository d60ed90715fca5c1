from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from tournament.errors import ServiceError
from tournament.selectors.persons import event_link_rows
from tournament.services.archive import archive_import, archive_parse
from tournament.services.log import Actor


class Command(BaseCommand):
    help = (
        "Load an event archive written by export_event into a database that does not have that event "
        "(--copy loads a copy beside it: free addresses, new table links and team codes). A team whose code "
        "another team of this database holds is given a new code, said here. A malformed or inconsistent file "
        "is refused with the first problem's place in the file, and nothing is imported. See docs/archive.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--copy",
            action="store_true",
            help="load a copy beside what the database holds (the same event exported from this database)",
        )

    def handle(self, *args, file, copy=False, **options):
        try:
            raw = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        try:
            report = archive_import(data=archive_parse(raw), as_copy=copy, actor=Actor.command("import_event"))
        except ServiceError as error:
            hint = " (to load a copy of it beside, add --copy)" if "already in this database" in error.message else ""
            raise CommandError(f"Nothing imported. {error.message}{hint}") from None
        event = report.event
        self.stdout.write(f"Imported {event.name} ({event.tournaments.count()} tournaments) as /{event.slug}/.")
        if report.new_codes:
            self.stdout.write(
                f"{len(report.new_codes)} teams had a code another team of this database holds, and were given a "
                f"new one (print their code slips again): {', '.join(report.new_codes)}."
            )
        rows = event_link_rows(event)
        linked = sum(1 for row in rows if row.player.person_id)
        if linked:
            self.stdout.write(f"{linked} of {len(rows)} players linked to their persons, as the archive says.")
        suggested = sum(1 for row in rows if row.suggestions)
        if suggested:
            self.stdout.write(
                f"{suggested} player(s) of this event may be persons who played before: link them from the event's "
                f"“Players and persons” page ({reverse('director:event_persons', args=[event.slug])})."
            )
