"""Statistics and awards from the per-hand record of signed tables (the tournament's scoring; the engine tallies)."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet, Sum

from scoring import PenaltyKind
from scoring.statistics import MINIMUM_BIDS, Award, HandLine, Statistics, awards, combine, tally
from tournament.models import Hand, Penalty, Seating, Table, Tournament
from tournament.selectors.standings import StandingTeam, teams_in_play

NS_SEATS = ("N", "S")


def _team_statistics(tables: Q) -> dict[int, Statistics]:
    """Statistics per team id over the signed tables ``tables`` selects (a filter on Table): three queries."""
    sides: dict[int, dict[str, int]] = defaultdict(dict)
    seatings = Seating.objects.filter(table__locked_at__isnull=False, table__in=_tables(tables))
    for table_id, pair, team_id in seatings.values_list("table_id", "pair", "team_id"):
        sides[table_id][pair] = team_id
    lines = []
    hands = Hand.objects.filter(table__locked_at__isnull=False, table__in=_tables(tables), counts=True)
    for hand in hands.values("table_id", "bidder", "level", "kind", "made", "boston", "ns_points", "ew_points"):
        bidding = "NS" if hand["bidder"] in NS_SEATS else "EW" if hand["bidder"] else ""
        for pair, points in (("NS", hand["ns_points"]), ("EW", hand["ew_points"])):
            owner = sides[hand["table_id"]].get(pair)
            if owner is None:
                continue
            if pair == bidding:
                lines.append(HandLine(owner, points, hand["level"], hand["kind"], hand["made"], hand["boston"]))
            else:
                lines.append(HandLine(owner, points))
    reneges: defaultdict[int, int] = defaultdict(int)
    penalties = Penalty.objects.filter(
        kind=PenaltyKind.RENEGE, table__locked_at__isnull=False, table__in=_tables(tables)
    ).values("table_id", "team")
    for row in penalties.annotate(reneges=Sum("count")):
        owner = sides[row["table_id"]].get(row["team"])
        if owner is not None:
            reneges[owner] += row["reneges"]
    return tally(lines, reneges)


def _tables(where: Q) -> QuerySet[Table, Any]:
    return Table.objects.filter(where).values("pk")


@dataclass(frozen=True)
class TeamStatistics:
    team: StandingTeam
    stats: Statistics


@dataclass(frozen=True)
class TournamentAwards:
    rows: list[TeamStatistics]
    awards: list[tuple[Award, list[StandingTeam]]]
    minimum_bids: int


def tournament_statistics(tournament: Tournament, *, minimum_bids: int = MINIMUM_BIDS) -> TournamentAwards:
    """Every team's statistics over its signed tables (qualifying and playoff), by team number, and the
    event's awards with the teams that won each."""
    stats = _team_statistics(Q(round__tournament=tournament))
    teams = [team for team in teams_in_play(tournament) if team.pk in stats]
    by_id = {team.pk: team for team in teams}
    found = awards({team.pk: stats[team.pk] for team in teams}, minimum_bids=minimum_bids)
    return TournamentAwards(
        rows=[TeamStatistics(team, stats[team.pk]) for team in teams],
        awards=[(award, [by_id[key] for key in award.winners]) for award in found],
        minimum_bids=minimum_bids,
    )


def person_statistics(team_ids: list[int]) -> Statistics:
    """A person's statistics: the sum over the teams they played on."""
    stats = _team_statistics(Q(seatings__team_id__in=team_ids))
    mine = [(0, stats[team_id]) for team_id in team_ids if team_id in stats]
    return combine(mine).get(0, Statistics())
