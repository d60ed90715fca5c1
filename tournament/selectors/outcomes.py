"""What each team made of its tournaments, for series and persons: qualifying rounds won (byes included)
and how far it went in a decided playoff. A fixed number of queries for any number of tournaments and teams."""

from collections.abc import Collection
from dataclasses import dataclass

from scoring.places import Place
from scoring.series import Finish, finish_from_place
from tournament.selectors.placings import playoff_places, reached
from tournament.selectors.standings import TALLY, tournaments_tallies


@dataclass(frozen=True)
class Outcome:
    qualifying_wins: int = 0
    place: Place | None = None
    reached: str = ""

    @property
    def finish(self) -> Finish:
        return finish_from_place(self.place.number if self.place else None)


def _qualifying_wins(tournament_ids: Collection[int]) -> dict[int, int]:
    """Qualifying rounds won, byes and forfeits won included: the standings' own count (``tournaments_tallies``)."""
    wins = TALLY.index("wins")
    return {team_id: tally[wins] for team_id, tally in tournaments_tallies(tournament_ids).items()}


def _places(tournament_ids: Collection[int]) -> dict[int, tuple[Place, str]]:
    """Each playoff team's final place and how far it went, for the tournaments whose playoff is decided."""
    return {
        place.team: (place.place, reached(place))
        for places in playoff_places(tournament_ids).values()
        for place in places
    }


def team_outcomes(tournament_ids: Collection[int]) -> dict[int, Outcome]:
    """Outcome per team id of the tournaments (teams with nothing yet are absent: no wins, no place)."""
    tournament_ids = list(tournament_ids)
    if not tournament_ids:
        return {}
    wins = _qualifying_wins(tournament_ids)
    places = _places(tournament_ids)
    nowhere = (None, "")
    teams = set(wins) | set(places)
    return {team_id: Outcome(wins.get(team_id, 0), *places.get(team_id, nowhere)) for team_id in teams}
