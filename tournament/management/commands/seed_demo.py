import datetime
import random

from django.core.management.base import BaseCommand
from django.db import transaction

from scoring import Suit
from tournament.models import Event, Round, Table
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import announcement_post, event_create, tournament_create
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.sheets import HandEntry, hand_record, sheet_sign, table_first_dealer_set
from tournament.services.teams import PlayerEntry, team_register

DEMO_EVENT = "Bid Whist Demo Weekend"
FIRST_NAMES = [
    "Ann", "Bo", "Carla", "Dee", "Earl", "Faye", "Gus", "Hattie", "Ike", "June", "Kenny", "Lola",
    "Marcus", "Nell", "Otis", "Pearl", "Quincy", "Rosa", "Sam", "Tess", "Ulysses", "Vera", "Walt",
    "Xavier", "Yvonne", "Zeke", "Alma", "Booker", "Cora", "Dwight", "Etta", "Floyd",
]  # fmt: skip
LAST_NAMES = [
    "Lee", "Jones", "Washington", "Brooks", "Carter", "Hayes", "Mitchell", "Reed", "Simmons", "Tate",
    "Wallace", "Young", "Bell", "Coleman", "Dixon", "Ford",
]  # fmt: skip
CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis", "Cleveland", "Houston", "Oakland", "Baltimore"]
SUITS = Suit.values()


def _demo_hand(rng: random.Random, dealer: str) -> HandEntry:
    """A plausible hand: modest bids, books near what was bid."""
    level = rng.choice([1, 1, 2, 2, 3, 3, 4, 5])
    kind = rng.choice(["high", "high", "low", "nt"])
    books = max(0, min(13, 6 + level + rng.choice([-2, -1, 0, 0, 1, 1, 2])))
    bidder = rng.choice("NESW")
    if kind == "nt":
        return HandEntry(dealer, bidder, level, kind, books, direction=rng.choice(["up", "down"]))
    return HandEntry(dealer, bidder, level, kind, books, suit=rng.choice(SUITS))


def _play(table: Table, rng: random.Random, hands: int, sign: bool) -> None:
    """Enter ``hands`` hands (more while a playoff match is level), then sign for both teams."""
    table_first_dealer_set(table=table, version=table.version, seat=rng.choice("NESW"))
    played = 0
    while played < hands or (sign and not table.complete):
        table.refresh_from_db()
        dealer = table.next_dealer
        hand_record(table=table, version=table.version, entry=_demo_hand(rng, dealer))
        table.refresh_from_db()
        played += 1
    if sign:
        for pair in ("NS", "EW"):
            table.refresh_from_db()
            player = table.seatings.get(pair=pair).team.memberships.order_by("position").first().player
            sheet_sign(table=table, version=table.version, pair=pair, player=player)


class Command(BaseCommand):
    help = (
        "Load the demo event (does nothing if it is already there): a 1st tournament of 8 teams played "
        "to a champion (three rounds and a four-team playoff), and a Main Event of 16 teams with two "
        "signed rounds and a third in play."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        if Event.objects.filter(name=DEMO_EVENT).exists():
            self.stdout.write("The demo event is already loaded.")
            return
        rng = random.Random(2026)
        today = datetime.date.today()
        event = event_create(
            name=DEMO_EVENT,
            venue="Community Center Ballroom",
            starts_on=today,
            ends_on=today + datetime.timedelta(days=2),
        )
        first = tournament_create(event=event, name="1st tournament", qualifying_rounds=3)
        main = tournament_create(event=event, name="Main Event", qualifying_rounds=4)
        players = [
            PlayerEntry(
                f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {LAST_NAMES[i % len(LAST_NAMES)]}", CITIES[i // 4 % len(CITIES)]
            )
            for i in range(32)
        ]
        for number in range(16):
            pair = players[2 * number : 2 * number + 2]
            team_register(tournament=main, players=pair, fee_paid=True, side_pot=number % 3 == 0, checked_in=True)
            if number < 8:
                # The same players in the 1st tournament, with another partner.
                other = [players[number], players[31 - number]]
                team_register(tournament=first, players=other, fee_paid=number % 2 == 0, checked_in=True)
        for number, method in ((1, Round.Method.RANDOM), (2, Round.Method.SWISS), (3, Round.Method.SWISS)):
            round_ = round_publish(round=round_draw(tournament=main, method=method, seed=2026 if number == 1 else None))
            for table in round_.tables.order_by("number"):
                if number < 3:
                    _play(table, rng, hands=4, sign=True)
                elif table.number <= 5:
                    _play(table, rng, hands=table.number - 1, sign=False)
        announcement_post(tournament=main, text="Round 3 is under way. Lunch is served in the side hall at noon.")
        for number, method in ((1, Round.Method.RANDOM), (2, Round.Method.SWISS), (3, Round.Method.SWISS)):
            round_ = round_publish(round=round_draw(tournament=first, method=method, seed=7 if number == 1 else None))
            for table in round_.tables.order_by("number"):
                _play(table, rng, hands=4, sign=True)
        playoff_seed(tournament=first, teams=4, third_place=True)
        playoff_publish(tournament=first)
        while (match := first.playoff_matches.filter(table__isnull=False, winner__isnull=True).first()) is not None:
            _play(match.table, rng, hands=4, sign=True)
        self.stdout.write(
            f"Loaded {event.name}: {first.name} (8 teams, played to a champion) and {main.name} (16 teams, "
            "rounds 1 and 2 signed, round 3 in play)."
        )
