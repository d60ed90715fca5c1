"""Teams with their players, the desk's search, and a team's rounds for its public page."""

import re
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet, prefetch_related_objects

from scoring import Pair, Result, TeamOutcome, team_outcome
from tournament.models import Hand, Round, Seating, Table, Team, Tournament
from tournament.selectors.prefetch import members, penalties
from tournament.selectors.standings import round_credits
from tournament.selectors.tables import SeatView, rounds_substitutes, seats_of


def teams_with_players(tournament: Tournament) -> QuerySet[Team]:
    return tournament.teams.prefetch_related(members()).order_by("number")


def teams_search(tournament: Tournament, query: str = "") -> QuerySet[Team]:
    """Teams whose name, number, city or either player's name matches the desk's search box."""
    teams = teams_with_players(tournament)
    query = query.replace("\x00", "").strip()[:100]
    if query:
        match = Q(name__icontains=query) | Q(city__icontains=query) | Q(memberships__player__name__icontains=query)
        if re.fullmatch(r"[0-9]{1,6}", query):
            match |= Q(number=int(query))
        teams = teams.filter(pk__in=Team.objects.filter(match, tournament=tournament).values("pk"))
    return teams


@dataclass(frozen=True)
class TeamRound:
    """One round of a team's page: where it sat, against whom, who sat where (a substitute included), the hands,
    and what the round came to for the team (``outcome``: the result and the points the standings count, the same on
    every surface)."""

    round: Round
    table: Table | None
    pair: str
    opponent: Team | None
    hands: list
    outcome: TeamOutcome
    sat_out: bool = False
    seats: list[SeatView] = field(default_factory=list)


def team_rounds(team: Team) -> list[TeamRound]:
    """Every round of a team (drafts aside) in order: each it played or had a bye in, with its hands and
    penalties, and each it sat out (``sat_out``: marked before the draw, no result). A fixed number of queries."""
    seatings = list(
        Seating.objects.filter(team=team)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "table__round", "table__playoff_match")
        .order_by("round__number")
    )
    table_ids = [s.table_id for s in seatings if s.table_id]
    opponents = {
        s.table_id: s.team
        for s in Seating.objects.filter(table_id__in=table_ids)
        .exclude(team=team)
        .select_related("team")
        .prefetch_related(members("team__memberships"))
    }
    hands: dict[int | None, list[Hand]] = {}
    for hand in Hand.objects.filter(table_id__in=table_ids).prefetch_related(penalties()).order_by("sequence"):
        hands.setdefault(hand.table_id, []).append(hand)
    credits = round_credits(team.tournament, [team.pk]) if seatings else {}
    prefetch_related_objects([team], members())
    substitutes = rounds_substitutes(s.round_id for s in seatings if s.table_id)
    played = [
        TeamRound(
            round=s.round,
            table=s.table,
            pair=s.pair,
            opponent=opponents.get(s.table_id),
            hands=hands.get(s.table_id, []),
            outcome=team_outcome(
                s.table.outcome if s.table else None,
                Pair(s.pair) if s.pair else None,
                credit=credits.get((s.round_id, team.pk)),
            ),
            seats=seats_of({Pair(s.pair): team, Pair(s.pair).other: opponents.get(s.table_id)}, substitutes[s.round_id])
            if s.table_id
            else [],
        )
        for s in seatings
    ]
    sat_out = [
        TeamRound(round_, None, "", None, [], TeamOutcome(Result.SAT_OUT), sat_out=True)
        for round_ in team_sat_out_rounds(team)
    ]
    return sorted(played + sat_out, key=lambda entry: entry.round.number)


def team_sat_out_rounds(team: Team) -> list[Round]:
    """The rounds (drafts aside) the team was marked as sitting out before they were drawn (one query)."""
    marked = team.sit_outs.values("round_number")
    rounds = Round.objects.filter(tournament_id=team.tournament_id, number__in=marked)
    return list(rounds.exclude(status=Round.Status.DRAFT).order_by("number"))


def absent_twice(tournament: Tournament) -> list[Team]:
    """Teams not withdrawn that were the absent side of two forfeits or more: the director is offered their
    withdrawal (one query)."""
    counts: dict[int, int] = {}
    absent_as = Seating.objects.filter(round__tournament=tournament, team__withdrawn=False).exclude(table__forfeit="")
    for team_id, pair, forfeit in absent_as.exclude(table__isnull=True).values_list(
        "team_id", "pair", "table__forfeit"
    ):
        if forfeit in (pair, "both"):
            counts[team_id] = counts.get(team_id, 0) + 1
    twice = [team_id for team_id, count in counts.items() if count >= 2]
    return list(tournament.teams.filter(pk__in=twice).order_by("number")) if twice else []
