import datetime

from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.models import Event
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import event_create, tournament_create
from tournament.services.teams import PlayerEntry, team_register

DEMO_EVENT = "Bid Whist Demo Weekend"
FIRST_NAMES = [
    "Ann",
    "Bo",
    "Carla",
    "Dee",
    "Earl",
    "Faye",
    "Gus",
    "Hattie",
    "Ike",
    "June",
    "Kenny",
    "Lola",
    "Marcus",
    "Nell",
    "Otis",
    "Pearl",
    "Quincy",
    "Rosa",
    "Sam",
    "Tess",
    "Ulysses",
    "Vera",
    "Walt",
    "Xavier",
    "Yvonne",
    "Zeke",
    "Alma",
    "Booker",
    "Cora",
    "Dwight",
    "Etta",
    "Floyd",
]
LAST_NAMES = [
    "Lee",
    "Jones",
    "Washington",
    "Brooks",
    "Carter",
    "Hayes",
    "Mitchell",
    "Reed",
    "Simmons",
    "Tate",
    "Wallace",
    "Young",
    "Bell",
    "Coleman",
    "Dixon",
    "Ford",
]
CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis", "Cleveland", "Houston", "Oakland", "Baltimore"]


class Command(BaseCommand):
    help = (
        "Load the demo event (does nothing if it is already there): a 1st tournament with 8 teams "
        "registered, and a Main Event with 16 checked-in teams and round 1 drawn and published."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        if Event.objects.filter(name=DEMO_EVENT).exists():
            self.stdout.write("The demo event is already loaded.")
            return
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
                f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {LAST_NAMES[i % len(LAST_NAMES)]}",
                CITIES[i // 4 % len(CITIES)],
            )
            for i in range(32)
        ]
        for number in range(16):
            pair = players[2 * number : 2 * number + 2]
            team_register(tournament=main, players=pair, fee_paid=True, side_pot=number % 3 == 0, checked_in=True)
            if number < 8:
                # The same players in the 1st tournament, with another partner.
                other = [players[number], players[31 - number]]
                team_register(tournament=first, players=other, fee_paid=number % 2 == 0)
        round_publish(round=round_draw(tournament=main, method="random", seed=2026))
        self.stdout.write(f"Loaded {event.name}: {first.name} (8 teams) and {main.name} (16 teams, round 1 drawn).")
