"""Benchmark and test data across events (not for an event): many events whose players are the same persons,
in one series, each event's round played and signed, stored in bulk so that 50 events of 512 teams take
seconds. The hands are ordinary made bids with the points the engine gives them (3 high made with 9 books
is 3 points, with 8 books 2); a hidden person every seventh."""

import datetime

from django.db import transaction
from django.utils import timezone

from scoring import Seat
from tournament.models import (
    Hand,
    Person,
    Player,
    Round,
    Seating,
    Series,
    SeriesTournament,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournament.services.events import event_create, free_slug, tournament_create
from tournament.services.standings import standings_store
from tournament.services.teams.codes import unused_team_codes

CITIES = ["Detroit", "Chicago", "Atlanta", "Houston", "Memphis", "Oakland", "Newark", "Dallas"]
FIRST_DAY = datetime.date(2026, 1, 3)


@transaction.atomic
def across_build(*, events: int, teams: int, name: str = "Across") -> tuple[Series, list[Tournament], list[Person]]:
    """``events`` events a week apart, each one tournament of ``teams`` teams (``teams`` even) whose players
    are the same ``2 * teams`` persons (partners change from event to event), all in one series."""
    persons = Person.objects.bulk_create(
        Person(name=f"{name} person {i}", city=CITIES[i % len(CITIES)], hidden=i % 7 == 6) for i in range(2 * teams)
    )
    series = Series.objects.create(name=f"{name} series", slug=free_slug(Series, f"{name} series"))
    tournaments = []
    for number in range(events):
        day = FIRST_DAY + datetime.timedelta(weeks=number)
        event = event_create(name=f"{name} {number + 1}", starts_on=day, ends_on=day)
        tournament = tournament_create(event=event, name="Open", qualifying_rounds=1)
        _event_play(tournament, persons, shift=number)
        standings_store(tournament=tournament)
        tournaments.append(tournament)
    SeriesTournament.objects.bulk_create(SeriesTournament(series=series, tournament=t) for t in tournaments)
    return series, tournaments, persons


def _event_play(tournament: Tournament, persons: list[Person], *, shift: int) -> None:
    count = len(persons)
    order = persons[shift % count :] + persons[: shift % count]
    players = Player.objects.bulk_create(
        Player(event=tournament.event, name=person.name, city=person.city, person=person) for person in order
    )
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, number=i + 1, city=players[2 * i].city, checked_in=True, code=code)
        for i, code in enumerate(unused_team_codes(count // 2))
    )
    TeamMember.objects.bulk_create(
        TeamMember(tournament=tournament, team=team, player=players[2 * i + position], position=position + 1)
        for i, team in enumerate(teams)
        for position in (0, 1)
    )
    round_ = Round.objects.create(
        tournament=tournament, number=1, status=Round.Status.CLOSED, method=Round.Method.RANDOM, seed=shift
    )
    now = timezone.now()
    tables = Table.objects.bulk_create(
        Table(
            round=round_,
            number=n + 1,
            first_dealer=Seat.NORTH,
            ns_total=6,
            ew_total=4,
            hands_played=4,
            complete=True,
            locked_at=now,
        )
        for n in range(len(teams) // 2)
    )
    Seating.objects.bulk_create(
        Seating(round=round_, team=teams[2 * n + side], table=table, pair=("NS", "EW")[side])
        for n, table in enumerate(tables)
        for side in (0, 1)
    )
    hands = []
    for table in tables:
        ns, ew = 0, 0
        for sequence, dealer in enumerate(Seat, start=1):
            north_south = dealer in (Seat.NORTH, Seat.SOUTH)
            points = 3 if north_south else 2
            ns, ew = ns + (points if north_south else 0), ew + (0 if north_south else points)
            hands.append(
                Hand(
                    table=table,
                    sequence=sequence,
                    hand_number=sequence,
                    dealer=dealer,
                    bidder=dealer,
                    bid_level=3,
                    bid_kind="high",
                    trump_suit="spades",
                    books=9 if north_south else 8,
                    books_after_penalties=9 if north_south else 8,
                    made=True,
                    ns_points=points if north_south else 0,
                    ew_points=0 if north_south else points,
                    ns_total=ns,
                    ew_total=ew,
                )
            )
    Hand.objects.bulk_create(hands)
