"""The commands about one tournament: named by its slug, found once, refused when there is none."""

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Tournament


class TournamentCommand(BaseCommand):
    """A command whose first argument is a tournament's slug; its ``tournament_handle(tournament, **options)``
    is given the tournament that slug names."""

    def add_arguments(self, parser):
        parser.add_argument("tournament_slug", help="the tournament's slug, as in its page's address")
        self.tournament_arguments(parser)

    def tournament_arguments(self, parser):
        """The command's own arguments, after the slug."""

    def handle(self, *args, tournament_slug, **options):
        tournament = Tournament.objects.filter(slug=tournament_slug).select_related("event").first()
        if tournament is None:
            raise CommandError(f"There is no tournament {tournament_slug!r}.")
        return self.tournament_handle(tournament, **options)
