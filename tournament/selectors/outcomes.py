"""What each team made of its tournaments, for series and persons: qualifying rounds won (byes included)
and how far it went in a decided playoff. A fixed number of queries for any number of tournaments and teams."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Q

from scoring import Pair
from scoring.series import Finish, finish_from_place
from tournament.models import Round, Seating
from tournament.selectors.placings import playoff_places, reached
from tournament.selectors.standings import qualifying_rounds_signed

NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST


@dataclass(frozen=True)
class Outcome:
    qualifying_wins: int = 0
    place: int | None = None
    reached: str = ""

    @property
    def finish(self) -> Finish:
        return finish_from_place(self.place)


def _qualifying_wins(tournament_ids) -> dict[int, int]:
    """Signed qualifying rounds won (forfeit wins included), and byes of qualifying rounds whose every table is
    signed (as the standings count them)."""
    won = Q(pair=NS, table__ns_total__gt=F("table__ew_total")) | Q(pair=EW, table__ew_total__gt=F("table__ns_total"))
    won = (Q(table__forfeit="") & won) | Q(pair=NS, table__forfeit=EW) | Q(pair=EW, table__forfeit=NS)  # forfeit wins
    wins = defaultdict(int)
    signed = Seating.objects.filter(
        round__tournament_id__in=tournament_ids,
        round__kind=Round.Kind.QUALIFYING,
        table__isnull=False,
        table__locked_at__isnull=False,
    )
    for team_id, count in signed.values("team_id").annotate(won=Count("pk", filter=won)).values_list("team_id", "won"):
        wins[team_id] += count
    done = qualifying_rounds_signed(tournament_id__in=tournament_ids).values("pk")
    byes = Seating.objects.filter(round__in=done, table__isnull=True).values("team_id").annotate(byes=Count("pk"))
    for team_id, count in byes.values_list("team_id", "byes"):
        wins[team_id] += count
    return wins


def _places(tournament_ids) -> dict[int, tuple[int, str]]:
    """Each playoff team's final place and how far it went, for the tournaments whose playoff is decided."""
    return {
        place.team: (place.place, reached(place))
        for places in playoff_places(tournament_ids).values()
        for place in places
    }


def team_outcomes(tournament_ids) -> dict[int, Outcome]:
    """Outcome per team id of the tournaments (teams with nothing yet are absent: no wins, no place)."""
    tournament_ids = list(tournament_ids)
    if not tournament_ids:
        return {}
    wins = _qualifying_wins(tournament_ids)
    places = _places(tournament_ids)
    return {
        team_id: Outcome(wins.get(team_id, 0), *places.get(team_id, (None, ""))) for team_id in set(wins) | set(places)
    }
