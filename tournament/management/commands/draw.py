from django.core.management.base import CommandError

from tournament import selectors
from tournament.errors import ServiceError
from tournament.management.tournament_command import TournamentCommand
from tournament.models import Round
from tournament.services.draws import round_draw, round_publish
from tournament.services.log import Actor


class Command(TournamentCommand):
    help = (
        "Draw a tournament's next round as a draft (replacing a draft of the same round) and print it. "
        "Random draws are reproducible: the same --seed gives the same tables."
    )
    # A director draws between rounds with the hall waiting: the system checks (a fifth of the command's time
    # at 512 teams) run at every migrate and server start instead.
    requires_system_checks = []

    def tournament_arguments(self, parser):
        parser.add_argument("--round", type=int, required=True, dest="round_number", help="the round to draw")
        parser.add_argument("--method", choices=Round.Method.values, default=Round.Method.RANDOM)
        parser.add_argument("--seed", type=int, help="random draw: the seed (default: a new one, printed)")
        parser.add_argument(
            "--pairs",
            default="",
            help='manual draw: tables as team numbers, e.g. "1-5, 2-6, 3-7, 4-8, 9" (a lone number is the bye); '
            "default: number order",
        )
        parser.add_argument("--publish", action="store_true", help="publish the draw at once")
        parser.add_argument(
            "--override-unsigned",
            action="store_true",
            help="draw (and publish) although tables of an earlier round have not signed; written in the log",
        )

    def tournament_handle(
        self, tournament, *, round_number, method, seed, pairs, publish, override_unsigned, **options
    ):
        latest = tournament.rounds.order_by("-number").first()
        expected = 1 if latest is None else latest.number if latest.is_draft else latest.number + 1
        if round_number != expected:
            raise CommandError(f"The next round to draw is round {expected}, not {round_number}.")
        try:
            actor = Actor.command("draw")
            round_ = round_draw(
                tournament=tournament,
                method=method,
                seed=seed,
                pairs=pairs.replace(",", "\n"),
                actor=actor,
                override_unsigned=override_unsigned,
            )
            if publish:
                round_ = round_publish(round=round_, actor=actor, override_unsigned=override_unsigned)
        except ServiceError as error:
            hint = " (--override-unsigned to draw anyway)" if error.field == "override_unsigned" else ""
            raise CommandError(error.message + hint) from None
        seed_text = f", seed {round_.seed}" if round_.seed is not None else ""
        self.stdout.write(f"Round {round_.number} ({round_.get_method_display()} draw{seed_text}), {round_.status}:")
        for table in selectors.round_tables(round_):
            ns, ew = table.team_ns, table.team_ew
            self.stdout.write(
                f"  table {table.number}: #{ns.number} {ns.display_name} (NS) v #{ew.number} {ew.display_name} (EW)"
            )
        for bye in selectors.round_byes(round_):
            self.stdout.write(f"  bye: #{bye.team.number} {bye.team.display_name}")
