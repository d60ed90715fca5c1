from pathlib import Path

from django.conf import settings
from django.core.management.base import CommandError

from tournament.management.tournament_command import TournamentCommand
from tournament.models import Round
from tournament.printing import round_sheets_pdf


class Command(TournamentCommand):
    help = (
        "Write one PDF with every table's score sheet of a round: completed from the records, or blank "
        "(--blank) to score on paper. Each sheet's QR code links to the table's page under --base-url."
    )

    def tournament_arguments(self, parser):
        parser.add_argument("--round", type=int, required=True, dest="round_number")
        parser.add_argument("--blank", action="store_true", help="empty rows to fill in by hand")
        parser.add_argument("-o", "--output", required=True, help="the PDF file to write")
        parser.add_argument(
            "--base-url",
            default=settings.SITE_URL or "http://127.0.0.1:8000",
            help="the address phones use to reach the app (default: the SITE_URL setting, else http://127.0.0.1:8000)",
        )

    def tournament_handle(self, tournament, *, round_number, blank, output, base_url, **options):
        round_ = (
            Round.objects.filter(tournament=tournament, number=round_number).select_related("tournament__event").first()
        )
        if round_ is None:
            raise CommandError(f"{tournament.name} has no round {round_number}.")
        content = round_sheets_pdf(round_, blank=blank, base_url=base_url)
        Path(output).write_bytes(content)
        self.stdout.write(f"Wrote {output}: {round_.tables.count()} sheets, {len(content) // 1024} KB.")
