from django.core.management.base import CommandError

from tournament import selectors
from tournament.api import data as api_data
from tournament.api.encode import json_of
from tournament.errors import ServiceError
from tournament.management.tournament_command import TournamentCommand
from tournament.services.log import Actor
from tournament.services.playoffs import playoff_publish, playoff_seed


class Command(TournamentCommand):
    help = (
        "Seed a tournament's playoff from the standings (--seed N, once qualifying is signed) and publish the "
        "bracket (--publish), or print the bracket as it stands (--format json for a machine-readable copy)."
    )

    def tournament_arguments(self, parser):
        parser.add_argument("--seed", type=int, dest="teams", help="seed the top N teams of the standings")
        parser.add_argument("--third-place", action="store_true", help="with a third-place match")
        parser.add_argument("--double", action="store_true", help="double elimination")
        parser.add_argument("--publish", action="store_true", help="publish the bracket: the first tables open")
        parser.add_argument("--format", choices=["text", "json"], default="text", dest="output")

    def tournament_handle(self, tournament, *, teams, third_place, double, publish, output, **options):
        try:
            if teams is not None:
                playoff_seed(
                    tournament=tournament,
                    teams=teams,
                    third_place=third_place,
                    double=double,
                    actor=Actor.command("playoff"),
                )
            if publish:
                playoff_publish(tournament=tournament, actor=Actor.command("playoff"))
        except ServiceError as error:
            raise CommandError(error.message) from None
        tournament.refresh_from_db()
        seeds = [(s.seed, s.team) for s in selectors.playoff_seeds(tournament)]
        matches = [match for column in selectors.playoff_bracket(tournament) for match in column.matches]
        champion = selectors.tournament_champion(tournament)
        if output == "json":
            self.stdout.write(json_of(api_data.bracket(tournament)))
            return
        for number, t in seeds:
            self.stdout.write(f"seed {number}: #{t.number} {t.display_name}")
        for m in matches:
            top = f"#{m.top_team.number}" if m.top_team else m.top_source
            bottom = f"#{m.bottom_team.number}" if m.bottom_team else m.bottom_source
            result = f" -> #{m.winner.number}" if m.winner else (" (not needed)" if m.not_needed else "")
            self.stdout.write(f"{m.code:5} {m.label}: {top} v {bottom}{result}")
        if champion:
            self.stdout.write(f"champion: #{champion.number} {champion.display_name}")
