from django.core.management.base import BaseCommand, CommandError

from tournament.errors import ServiceError
from tournament.models import Table, Tournament
from tournament.services.log import Actor
from tournament.services.sheets.write import sheet_rescore
from tournament.services.standings import standings_store


class Command(BaseCommand):
    help = (
        "Rescore every stored sheet from its entries through the scoring engine, store the results and "
        "report every stored value that differed, then store the standings' team records again from the sheets. "
        "With a tournament slug, only that tournament."
    )

    def add_arguments(self, parser):
        parser.add_argument("tournament_slug", nargs="?", help="only this tournament (default: all)")

    def handle(self, *args, tournament_slug=None, **options):
        tables = Table.objects.select_related("round__tournament__event").order_by(
            "round__tournament", "round__number", "number"
        )
        if tournament_slug:
            if not Tournament.objects.filter(slug=tournament_slug).exists():
                raise CommandError(f"There is no tournament {tournament_slug!r}.")
            tables = tables.filter(round__tournament__slug=tournament_slug)
        checked = differing = 0
        for table in tables:
            checked += 1
            try:
                differences = sheet_rescore(table=table, actor=Actor.command("recompute_scores"))
            except ServiceError as error:
                self.stderr.write(f"{table.round}, table {table.number}: cannot be scored: {error.message}")
                continue
            if differences:
                differing += 1
                self.stdout.write(f"{table.round}, table {table.number}:")
                for record, changes in differences.items():
                    self.stdout.write(f"  {record}: {'; '.join(changes)}")
        rebuilt = Tournament.objects.filter(slug=tournament_slug) if tournament_slug else Tournament.objects.all()
        for tournament in rebuilt:
            standings_store(tournament=tournament)
        self.stdout.write(
            f"Rescored {checked} table(s); {differing} had stored scores that differed. "
            f"Stored the standings' team records of {len(rebuilt)} tournament(s) again."
        )
