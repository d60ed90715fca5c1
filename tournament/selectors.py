"""Reads that build pages, each a fixed number of queries whatever the size of the field."""

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from tournament.models import Event, Round, Seating, Table, Team, TeamMember, Tournament


def events_list() -> QuerySet[Event]:
    return Event.objects.annotate(tournament_count=Count("tournaments"))


def event_get(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def event_tournaments(event: Event) -> QuerySet[Tournament]:
    return event.tournaments.annotate(
        team_count=Count("teams", distinct=True),
        checked_in_count=Count("teams", filter=Q(teams__checked_in=True, teams__withdrawn=False), distinct=True),
    )


def tournament_get(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), slug=slug)


def _members() -> Prefetch:
    return Prefetch("memberships", queryset=TeamMember.objects.select_related("player").order_by("position"))


def teams_with_players(tournament: Tournament) -> QuerySet[Team]:
    return tournament.teams.prefetch_related(_members()).order_by("number")


def teams_search(tournament: Tournament, query: str = "") -> QuerySet[Team]:
    """Teams whose name, number, city or either player's name matches the desk's search box."""
    teams = teams_with_players(tournament)
    query = query.strip()
    if query:
        match = Q(name__icontains=query) | Q(city__icontains=query) | Q(memberships__player__name__icontains=query)
        if query.isdigit():
            match |= Q(number=int(query))
        teams = teams.filter(pk__in=Team.objects.filter(match, tournament=tournament).values("pk"))
    return teams


@dataclass(frozen=True)
class DeskCounts:
    teams: int
    checked_in: int
    fee_paid: int
    side_pot: int
    withdrawn: int


def desk_counts(tournament: Tournament) -> DeskCounts:
    counts = tournament.teams.aggregate(
        teams=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True, withdrawn=False)),
        fee_paid=Count("pk", filter=Q(fee_paid=True)),
        side_pot=Count("pk", filter=Q(side_pot=True)),
        withdrawn=Count("pk", filter=Q(withdrawn=True)),
    )
    return DeskCounts(**counts)


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(table_count=Count("tables")).order_by("number")


def round_get(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament__event"), tournament=tournament, number=number)


def _seatings() -> Prefetch:
    return Prefetch(
        "seatings",
        queryset=Seating.objects.select_related("team").prefetch_related(
            Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player"))
        ),
    )


def round_tables(round_: Round) -> list[Table]:
    return list(round_.tables.prefetch_related(_seatings()).order_by("number"))


def round_byes(round_: Round) -> list[Seating]:
    return list(
        round_.seatings.filter(table__isnull=True)
        .select_related("team")
        .prefetch_related(Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player")))
    )


def round_unplaced_teams(round_: Round) -> list[Team]:
    """Checked-in teams a draft leaves out (a late arrival), for the director to place."""
    return list(
        teams_with_players(round_.tournament).filter(checked_in=True, withdrawn=False).exclude(seatings__round=round_)
    )


def table_by_secret(secret: str) -> Table:
    """The table a private link opens: only a published or closed round's table."""
    return get_object_or_404(
        Table.objects.select_related("round__tournament__event").prefetch_related(_seatings()),
        secret=secret,
        round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED],
    )
