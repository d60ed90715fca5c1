from pathlib import Path

from django.core.management.base import CommandError

from tournament.errors import ImportRejected
from tournament.management.tournament_command import TournamentCommand
from tournament.services.log import Actor
from tournament.services.teams import CSV_COLUMNS, teams_import_csv


class Command(TournamentCommand):
    help = (
        "Register the teams of a CSV file in a tournament; a file with any problem imports nothing. "
        "Columns (first line): " + ", ".join(CSV_COLUMNS) + "; player1 and player2 are required. See docs/teams-csv.md."
    )

    def tournament_arguments(self, parser):
        parser.add_argument("file", help="the CSV file (UTF-8)")

    def tournament_handle(self, tournament, *, file, **options):
        try:
            text = Path(file).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        try:
            teams = teams_import_csv(tournament=tournament, text=text, actor=Actor.command("import_teams"))
        except ImportRejected as error:
            for line, message in error.problems:
                self.stderr.write(f"{file}, line {line}: {message}")
            raise CommandError(error.message) from None
        self.stdout.write(f"Imported {len(teams)} teams into {tournament}.")
