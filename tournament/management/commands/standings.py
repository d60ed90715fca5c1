import csv

from django.core.management.base import CommandError

from tournament.api import data as api_data
from tournament.api.encode import json_of
from tournament.management.tournament_command import TournamentCommand
from tournament.selectors.placings import tournament_placings
from tournament.selectors.standings import tournament_standings

COLUMNS = ["Place", "Team", "Players", "City", "W-L-T", "For", "Against", "Diff", "Hands won", "Bostons"]
PLACING_COLUMNS = ["Place", "Team", "Players", "How"]


class Command(TournamentCommand):
    help = "Print a tournament's standings over its signed rounds, as a table, CSV or JSON."

    def tournament_arguments(self, parser):
        parser.add_argument("--format", choices=["table", "csv", "json"], default="table", dest="output")
        parser.add_argument(
            "--placings",
            action="store_true",
            help="the final placings of the whole field (once the playoff is decided)",
        )

    def tournament_handle(self, tournament, *, output, placings, **options):
        if placings:
            self.placings(tournament, output)
            return
        rows = tournament_standings(tournament)
        if output == "json":
            self.stdout.write(json_of([api_data.standing_out(row) for row in rows]))
            return
        values = [
            [
                str(row.place),
                f"#{row.team.number} {row.team.display_name}",
                row.team.player_names,
                row.team.city,
                row.won_lost_tied,
                str(row.record.points_for),
                str(row.record.points_against),
                f"{row.record.difference:+d}",
                str(row.record.hands_won),
                str(row.record.bostons),
            ]
            for row in rows
        ]
        if output == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(
                [
                    "Place",
                    "Team",
                    "Players",
                    "City",
                    "W-L-T",
                    "Points for",
                    "Against",
                    "Difference",
                    "Hands won",
                    "Bostons",
                ]
            )
            writer.writerows(values)
            return
        widths = [max(len(str(cell)) for cell in column) for column in zip(COLUMNS, *values, strict=True)]
        line = "  ".join
        self.stdout.write(line(title.ljust(width) for title, width in zip(COLUMNS, widths, strict=True)))
        self.stdout.write(line("-" * width for width in widths))
        for row in values:
            self.stdout.write(line(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))

    def placings(self, tournament, output):
        placings = tournament_placings(tournament)
        if placings is None:
            raise CommandError(f"{tournament.name} has no final placings yet: it is not over.")
        if output == "json":
            self.stdout.write(json_of(api_data.placings(tournament)))
            return
        values = [
            [
                str(placing.place),
                f"#{placing.team.number} {placing.team.display_name}",
                placing.team.player_names,
                placing.reached,
            ]
            for placing in placings
        ]
        if output == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(PLACING_COLUMNS)
            writer.writerows(values)
            return
        widths = [max(len(str(cell)) for cell in column) for column in zip(PLACING_COLUMNS, *values, strict=True)]
        for row in [PLACING_COLUMNS, *values]:
            self.stdout.write("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
