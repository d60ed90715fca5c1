"""Large fields for the benchmarks and the query-count tests, stored in bulk where the services would take minutes:
the teams, players and events that ``tournament/factories.py`` names and makes, many at once. Benchmark and test
data, not for an event, so it stays out of the app."""

import dataclasses
import datetime
import time
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from scoring import Seat
from tournament.factories import EventFactory, PlayerEntryFactory, TournamentFactory
from tournament.models import (
    Hand,
    Person,
    Player,
    Round,
    Seating,
    Series,
    SeriesTournament,
    Signature,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import free_slug, tournament_rules_set
from tournament.services.recompute import table_recompute
from tournament.services.standings import standings_store
from tournament.services.teams import PlayerEntry
from tournament.services.teams.codes import unused_team_codes

FIRST_DAY = datetime.date(2026, 1, 3)


def entries(teams: int, *, label: str) -> list[PlayerEntry]:
    """The players of ``teams`` teams, two by two, named as ``TeamFactory`` names them (``label`` first)."""
    return [PlayerEntryFactory.build(number=i, side=side, label=label) for i in range(teams) for side in "ab"]


def teams_bulk(tournament: Tournament, players: Sequence[PlayerEntry], *, persons: Sequence[Person] = ()) -> list[Team]:
    """Checked-in teams of ``players`` taken two by two (each linked to the person beside it, if given), in a
    few queries; a team's city is its first player's."""
    created = Player.objects.bulk_create(
        Player(event=tournament.event, name=entry.name, city=entry.city, person=person)
        for entry, person in zip(players, persons or [None] * len(players), strict=True)
    )
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, number=i + 1, city=created[2 * i].city, checked_in=True, code=code)
        for i, code in enumerate(unused_team_codes(len(created) // 2))
    )
    TeamMember.objects.bulk_create(
        TeamMember(tournament=tournament, team=team, player=created[2 * i + position], position=position + 1)
        for i, team in enumerate(teams)
        for position in (0, 1)
    )
    return teams


def play_fast(table: Table, winner_first: bool) -> None:
    """Four ordinary hands and both signatures, written straight to the tables and rescored by the engine:
    benchmark data in seconds, where entering 3,000 hands through the services takes minutes."""
    hands = []
    for number, dealer in enumerate(Seat, start=1):
        bidder = dealer if (number % 2 == 1) == winner_first else dealer.next
        hands.append(Hand(table=table, sequence=number, dealer=dealer, bidder=bidder, level=3, kind="high", books=9))
    Hand.objects.bulk_create(hands)
    Table.objects.filter(pk=table.pk).update(first_dealer=Seat.NORTH)
    table.refresh_from_db()
    table_recompute(table)
    Signature.objects.bulk_create(
        Signature(table=table, pair=seating.pair, player=seating.team.members[0].player)
        for seating in table.seatings.select_related("team").prefetch_related("team__memberships__player")
    )
    Table.objects.filter(pk=table.pk).update(locked_at=timezone.now())


def rounds_signed(tournament: Tournament, rounds: int, *, hands: bool = True) -> None:
    """``rounds`` rounds drawn (random, then Swiss), published and signed at every table: with four hands each,
    or (``hands=False``, for query counts) only the totals a signed sheet leaves; then the standings stored."""
    for number in range(1, rounds + 1):
        method = Round.Method.RANDOM if number == 1 else Round.Method.SWISS
        round_ = round_publish(round=round_draw(tournament=tournament, method=method, seed=number))
        if not hands:
            Table.objects.filter(round=round_).update(
                ns_total=10, ew_total=4, hands_played=4, complete=True, locked_at=timezone.now()
            )
            continue
        for table in round_.tables.order_by("number"):
            play_fast(table, winner_first=table.number % 3 != 0)
    standings_store(tournament=tournament)


def tournament_of_today(name: str) -> Tournament:
    """A tournament named ``name`` in a one-day event of today, its name made unique by the clock (a benchmark's
    database keeps the fields of earlier runs)."""
    today = datetime.date.today()
    return TournamentFactory.create(
        event=EventFactory.create(name=f"{name} {time.time_ns()}", starts_on=today, ends_on=today), name=name
    )


@transaction.atomic
def field_build(*, teams: int, rounds: int, name: str, hands: int | None = None) -> Tournament:
    """A tournament of ``teams`` checked-in teams with ``rounds`` published, played and signed rounds
    (random first, then Swiss), and one more qualifying round left to draw; ``hands`` a round, if given (the
    played rounds hold four each)."""
    tournament = tournament_of_today(name)
    Tournament.objects.filter(pk=tournament.pk).update(qualifying_rounds=rounds + 1)
    tournament.refresh_from_db()
    if hands is not None:
        tournament_rules_set(tournament=tournament, rules=dataclasses.replace(tournament.rules, hands_per_round=hands))
    teams_bulk(tournament, entries(teams, label=f"{name} player"))
    rounds_signed(tournament, rounds)
    return tournament


@transaction.atomic
def across_build(*, events: int, teams: int, name: str = "Across") -> tuple[Series, list[Tournament], list[Person]]:
    """``events`` events a week apart, each one tournament of ``teams`` teams (``teams`` even) whose players
    are the same ``2 * teams`` persons (partners change from event to event), all in one series; each event's
    round played and signed with ordinary made bids (3 high made with 9 books is 3 points, with 8 books 2); a
    hidden person every seventh."""
    persons = Person.objects.bulk_create(
        Person(name=entry.name, city=entry.city, hidden=i % 7 == 6)
        for i, entry in enumerate(entries(teams, label=f"{name} person"))
    )
    series = Series.objects.create(name=f"{name} series", slug=free_slug(Series, f"{name} series"))
    tournaments = []
    for number in range(events):
        day = FIRST_DAY + datetime.timedelta(weeks=number)
        event = EventFactory.create(name=f"{name} {number + 1}", starts_on=day, ends_on=day)
        tournament = TournamentFactory.create(event=event, name="Open", qualifying_rounds=1)
        shift = number % len(persons)
        order = persons[shift:] + persons[:shift]
        players = [PlayerEntry(person.name, person.city) for person in order]
        _round_play(tournament, teams_bulk(tournament, players, persons=order), seed=number)
        standings_store(tournament=tournament)
        tournaments.append(tournament)
    SeriesTournament.objects.bulk_create(SeriesTournament(series=series, tournament=t) for t in tournaments)
    return series, tournaments, persons


def _round_play(tournament: Tournament, teams: list[Team], *, seed: int) -> None:
    """Round 1 closed: team 1 against 2, 3 against 4..., four hands a table written with their points."""
    round_ = Round.objects.create(
        tournament=tournament, number=1, status=Round.Status.CLOSED, method=Round.Method.RANDOM, seed=seed
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
                    level=3,
                    kind="high",
                    suit="spades",
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
