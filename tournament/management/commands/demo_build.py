import datetime
import json
import random
from dataclasses import replace
from pathlib import Path

import factory
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from scoring import Suit
from tournament.factories import EventFactory, PlayerEntryFactory, TeamFactory, TournamentFactory
from tournament.models import Event, Round, Table, Tournament
from tournament.roles import DIRECTORS, role_groups_ensure
from tournament.selectors.money import desk_money, payout_sheet
from tournament.services.archive import event_export
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import announcement_post
from tournament.services.log import Actor
from tournament.services.money import money_settings_set, payment_book, payment_move, payout_hand_over, payout_pay
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.sheets import (
    ChangeContext,
    HandEntry,
    entry_of,
    hand_record,
    hand_update,
    penalty_add,
    sheet_sign,
    table_first_dealer_set,
)
from tournament.services.teams import team_desk_update

DEMO_EVENT = "Bid Whist Demo Weekend"
DEMO_FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "demo-event.json"
DEMO_START = datetime.date(2026, 7, 10)
FIRST_NAMES = [
    "Ann", "Bo", "Carla", "Dee", "Earl", "Faye", "Gus", "Hattie", "Ike", "June", "Kenny", "Lola",
    "Marcus", "Nell", "Otis", "Pearl", "Quincy", "Rosa", "Sam", "Tess", "Ulysses", "Vera", "Walt",
    "Xavier", "Yvonne", "Zeke", "Alma", "Booker", "Cora", "Dwight", "Etta", "Floyd",
]  # fmt: skip
LAST_NAMES = [
    "Lee", "Jones", "Washington", "Brooks", "Carter", "Hayes", "Mitchell", "Reed", "Simmons", "Tate",
    "Wallace", "Young", "Bell", "Coleman", "Dixon", "Ford",
]  # fmt: skip
# Fees, a side pot and the house's share, so that the desk and the payout sheet show money at work.
DEMO_MONEY = {
    "entry_fee": "50",
    "side_pot_fee": "10",
    "house_percent": "10",
    "payout_percents": "50, 30, 20",
    "side_pot_rule": "placing",
}
CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis", "Cleveland", "Houston", "Oakland", "Baltimore"]


class DemoPlayerFactory(PlayerEntryFactory):
    """The demo's players: player ``number`` named from the lists of first and last names, four to a city."""

    name = factory.LazyAttribute(
        lambda entry: f"{FIRST_NAMES[entry.number % len(FIRST_NAMES)]} {LAST_NAMES[entry.number % len(LAST_NAMES)]}"
    )
    city = factory.LazyAttribute(lambda entry: CITIES[entry.number // 4 % len(CITIES)])


def _demo_hand(rng: random.Random, dealer: str) -> HandEntry:
    """A plausible hand: modest bids, books near what was bid."""
    level = rng.choice([1, 1, 2, 2, 3, 3, 4, 5])
    kind = rng.choice(["high", "high", "low", "nt"])
    books = max(0, min(13, 6 + level + rng.choice([-2, -1, 0, 0, 1, 1, 2])))
    bidder = rng.choice("NESW")
    if kind == "nt":
        return HandEntry(dealer, bidder, level, kind, books, direction=rng.choice(["up", "down"]))
    return HandEntry(dealer, bidder, level, kind, books, suit=rng.choice(Suit.values()))


def _play(table: Table, rng: random.Random, hands: int, sign: bool) -> None:
    """Enter ``hands`` hands from the table link (more while a playoff match is level), then both teams sign."""
    table_first_dealer_set(table=table, seat=rng.choice("NESW"), context=ChangeContext(version=table.version))
    played = 0
    while played < hands or (sign and not table.complete):
        table.refresh_from_db()
        hand_record(table=table, entry=_demo_hand(rng, table.next_dealer), context=ChangeContext(version=table.version))
        table.refresh_from_db()
        played += 1
    if sign:
        for pair in ("NS", "EW"):
            table.refresh_from_db()
            team = table.seatings.get(pair=pair).team
            sheet_sign(
                table=table,
                pair=pair,
                player=team.members[0].player,
                code=team.code,
                context=ChangeContext(version=table.version),
            )


def demo_event_play(director: Actor) -> Event:
    """The demo weekend, played through the services as a director and the table links would."""
    rng = random.Random(2026)
    event = EventFactory.create(
        name=DEMO_EVENT, venue="Community Center Ballroom", starts_on=DEMO_START, actor=director
    )
    first = TournamentFactory.create(event=event, name="1st tournament", qualifying_rounds=3, actor=director)
    main = TournamentFactory.create(event=event, name="Main Event", qualifying_rounds=4, actor=director)
    players = [DemoPlayerFactory.build(number=i) for i in range(32)]
    main = money_settings_set(tournament=main, **DEMO_MONEY, actor=director)
    first = money_settings_set(tournament=first, **{**DEMO_MONEY, "side_pot_fee": "0"}, actor=director)
    entered = []
    for number in range(16):
        pair = players[2 * number : 2 * number + 2]
        entered.append(
            TeamFactory.create(
                tournament=main, players=pair, side_pot=number % 3 == 0, checked_in=False, actor=director
            )
        )
        if number < 8:
            # The same players in the 1st tournament, with another partner.
            other = [players[number], players[31 - number]]
            entered.append(TeamFactory.create(tournament=first, players=other, checked_in=False, actor=director))
    for team in entered:
        team_desk_update(team=team, checked_in=True, actor=director)
    _fees(main, first, director)

    for number, method in ((1, Round.Method.RANDOM), (2, Round.Method.SWISS), (3, Round.Method.SWISS)):
        draft = round_draw(tournament=main, method=method, seed=2026 if number == 1 else None, actor=director)
        round_ = round_publish(round=draft, actor=director)
        for table in round_.tables.order_by("number"):
            if number < 3:
                _play(table, rng, hands=4, sign=True)
            elif table.number <= 5:
                _play(table, rng, hands=table.number - 1, sign=False)
        if number == 1:
            _corrections(round_, director)
    announcement_post(
        tournament=main, text="Round 3 is under way. Lunch is served in the side hall at noon.", actor=director
    )

    for number, method in ((1, Round.Method.RANDOM), (2, Round.Method.SWISS), (3, Round.Method.SWISS)):
        draft = round_draw(tournament=first, method=method, seed=7 if number == 1 else None, actor=director)
        round_ = round_publish(round=draft, actor=director)
        for table in round_.tables.order_by("number"):
            _play(table, rng, hands=4, sign=True)
    playoff_seed(tournament=first, teams=4, third_place=True, actor=director)
    playoff_publish(tournament=first, actor=director)
    playoff_tables = Table.objects.filter(playoff_match__tournament=first, playoff_match__winner=None)
    while (match_table := playoff_tables.order_by("playoff_match__stage", "playoff_match__code").first()) is not None:
        _play(match_table, rng, hands=4, sign=True)
    _prizes(first, director)
    return event


def _fees(main: Tournament, first: Tournament, director: Actor) -> None:
    """The desk's money: every team of the 1st tournament paid; in the Main Event the side-pot teams paid fee and
    side pot in one payment, a payment booked to the wrong team was moved, #14 still owes its fee and #16 its
    side pot."""
    for team in first.teams.order_by("number"):
        method = "card" if team.number % 4 == 0 else "cash"
        payment_book(team=team, amount=DEMO_MONEY["entry_fee"], method=method, actor=director)
    for team in main.teams.order_by("number"):
        if team.number not in (14, 15):
            owed = desk_money(main, [team]).accounts[team.pk].outstanding
            payment_book(team=team, amount=DEMO_MONEY["entry_fee"] if team.number == 16 else owed, actor=director)
    (wrong,) = payment_book(team=main.teams.get(number=14), amount=DEMO_MONEY["entry_fee"], actor=director)
    payment_move(
        payment=wrong,
        team=main.teams.get(number=15),
        reason="Team #15 paid; it was booked to #14 by mistake",
        actor=director,
    )


def _prizes(first: Tournament, director: Actor) -> None:
    """The 1st tournament's prize-giving under way: the champion paid and signed for at the desk, the runner-up
    paid and not yet confirmed, third place still to pay."""
    lines = payout_sheet(first).prizes
    for line in lines[:2]:
        payout_pay(tournament=first, team=line.team, pot=line.pot, actor=director)
    champion = first.payouts.get(team=lines[0].team)
    payout_hand_over(payout=champion, signed_by=lines[0].team.members[0].player.name, actor=director)


def _corrections(round_: Round, director: Actor) -> None:
    """A renege ruled by the director at table 1 and a recount corrected at table 2, both after signing."""
    table = round_.tables.get(number=1)
    penalty_add(
        table=table,
        kind="renege",
        team="EW",
        hand=table.hands.get(sequence=2),
        context=ChangeContext(
            version=table.version, actor=director, reason="Renege found when the tricks were checked after signing"
        ),
    )
    table = round_.tables.get(number=2)
    hand = table.hands.get(sequence=1)
    entry = entry_of(hand)
    table.refresh_from_db()
    hand_update(
        hand=hand,
        entry=replace(entry, books=min(13, entry.books + 1)),
        context=ChangeContext(version=table.version, actor=director, reason="Tricks counted again: one more book"),
    )


class Command(BaseCommand):
    help = (
        "Play the demo weekend through the services and write it as an event archive (default: "
        "fixtures/demo-event.json, which seed_demo loads). Nothing is kept in the database."
    )

    def add_arguments(self, parser):
        parser.add_argument("-o", "--output", default=str(DEMO_FIXTURE))

    def handle(self, *args, output, **options):
        if Event.objects.filter(name=DEMO_EVENT).exists():
            raise CommandError("This database already holds the demo event: build it from an empty database.")
        with transaction.atomic():
            user, _ = get_user_model().objects.get_or_create(username="director", defaults={"is_staff": True})
            user.groups.add(role_groups_ensure()[DIRECTORS])
            data = event_export(demo_event_play(Actor.staff(user)))
            transaction.set_rollback(True)
        Path(output).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        self.stdout.write(f"Wrote the demo event to {output}.")
