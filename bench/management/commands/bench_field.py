import dataclasses
import datetime
import time

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from scoring import Seat
from tournament.models import Hand, Round, Signature, Table, Tournament
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import event_create, tournament_create, tournament_rules_set
from tournament.services.recompute import table_recompute
from tournament.services.standings import standings_store
from tournament.services.teams import PlayerEntry
from tournament.services.teams.register import register

CITIES = ["Detroit", "Chicago", "Atlanta", "Houston", "Memphis", "Oakland", "Newark", "Dallas"]


def play_fast(table: Table, winner_first: bool) -> None:
    """Four ordinary hands and both signatures, written straight to the tables and rescored by the engine:
    benchmark data in seconds, where entering 3,000 hands through the services takes minutes."""
    seats = list(Seat)
    hands = []
    for number, dealer in enumerate(seats, start=1):
        bidder = dealer if (number % 2 == 1) == winner_first else dealer.next
        hands.append(
            Hand(table=table, sequence=number, dealer=dealer, bidder=bidder, bid_level=3, bid_kind="high", books=9)
        )
    Hand.objects.bulk_create(hands)
    Table.objects.filter(pk=table.pk).update(first_dealer=Seat.NORTH)
    table.refresh_from_db()
    table_recompute(table)
    Signature.objects.bulk_create(
        Signature(table=table, pair=seating.pair, player=seating.team.members[0].player)
        for seating in table.seatings.select_related("team").prefetch_related("team__memberships__player")
    )
    Table.objects.filter(pk=table.pk).update(locked_at=timezone.now())


@transaction.atomic
def field_build(*, teams: int, rounds: int, name: str, hands: int | None = None) -> Tournament:
    """A tournament of ``teams`` checked-in teams with ``rounds`` published, played and signed rounds
    (random first, then Swiss), and one more qualifying round left to draw; ``hands`` a round, if given (the
    played rounds hold four each)."""
    today = datetime.date.today()
    event = event_create(name=f"{name} {time.time_ns()}", starts_on=today, ends_on=today)
    tournament = tournament_create(event=event, name=name)
    Tournament.objects.filter(pk=tournament.pk).update(qualifying_rounds=rounds + 1)
    tournament.refresh_from_db()
    if hands is not None:
        tournament_rules_set(tournament=tournament, rules=dataclasses.replace(tournament.rules, hands_per_round=hands))
    for i in range(teams):
        city = CITIES[i % len(CITIES)]
        players = [PlayerEntry(f"{name} player {i}a", city), PlayerEntry(f"{name} player {i}b", city)]
        register(tournament, players, "", city, None, True, False, True)
    for number in range(1, rounds + 1):
        method = Round.Method.RANDOM if number == 1 else Round.Method.SWISS
        round_ = round_publish(round=round_draw(tournament=tournament, method=method, seed=number))
        for table in round_.tables.order_by("number"):
            play_fast(table, winner_first=table.number % 3 != 0)
    standings_store(tournament=tournament)
    return tournament


class Command(BaseCommand):
    help = "Benchmark data (not for an event): a tournament of N teams with R played and signed rounds."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=512)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--name", default="Scale")
        parser.add_argument("--hands", type=int, help="hands a round (the rules' default if not given)")

    def handle(self, *args, teams, rounds, name, hands, **options):
        start = time.perf_counter()
        tournament = field_build(teams=teams, rounds=rounds, name=name, hands=hands)
        self.stdout.write(
            f"{tournament.slug}: {teams} teams, {rounds} signed rounds in {time.perf_counter() - start:.1f} s"
        )
