"""What each team made of its tournaments, for series and persons: qualifying rounds won (byes included)
and how far it went in a decided playoff. A fixed number of queries for any number of tournaments and teams."""

from collections import defaultdict
from dataclasses import dataclass

from scoring import Pair
from scoring.bracket import Decided, final_places
from scoring.series import Finish, finish_from_place
from tournament.models import PlayoffMatch, PlayoffSeed
from tournament.selectors.placings import _reached
from tournament.selectors.standings import TALLY, tournaments_tallies

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
    """Qualifying rounds won, byes and forfeits won included: the standings' own count (``tournaments_tallies``)."""
    wins = TALLY.index("wins")
    return {team_id: tally[wins] for team_id, tally in tournaments_tallies(tournament_ids).items()}


def _places(tournament_ids) -> dict[int, tuple[int, str]]:
    """Each playoff team's final place and how far it went, for the tournaments whose playoff is decided."""
    matches = defaultdict(list)
    for match in PlayoffMatch.objects.filter(tournament_id__in=tournament_ids, not_needed=False).values(
        "tournament_id", "code", "bracket", "stage", "label", "top_team_id", "bottom_team_id", "winner_id"
    ):
        matches[match["tournament_id"]].append(match)
    seeds = dict(PlayoffSeed.objects.filter(tournament_id__in=tournament_ids).values_list("team_id", "seed"))
    places = {}
    for found in matches.values():
        if any(match["winner_id"] is None for match in found):
            continue
        decided = [
            Decided(
                m["code"], m["bracket"], m["stage"], m["label"], m["top_team_id"], m["bottom_team_id"], m["winner_id"]
            )
            for m in found
            if m["top_team_id"] and m["bottom_team_id"]
        ]
        for place in final_places(decided, seeds):
            places[place.team] = (place.place, _reached(place))
    return places


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
