"""The final placings 1..N of the whole field, once the playoff is decided (for the prizes)."""

from dataclasses import dataclass
from itertools import groupby

from scoring.bracket import FINAL, THIRD, Decided, final_places, stage_name
from tournament.models import PlayoffMatch, Team, Tournament
from tournament.selectors.prefetch import members
from tournament.selectors.standings import tournament_standings


@dataclass(frozen=True)
class Placing:
    place: int
    shared: bool
    team: Team
    reached: str

    @property
    def label(self) -> str:
        """ "3", or "T-3" for a shared place (as the standings write it)."""
        return f"T-{self.place}" if self.shared else str(self.place)


def _reached(place) -> str:
    """How far a playoff team went, in words."""
    match = place.last
    if match.bracket == FINAL:
        return "Champion" if place.won_last else "Runner-up"
    if match.bracket == THIRD:
        return "Third place" if place.won_last else "Fourth place"
    name = stage_name(match.label)
    return f"Out in the {name[0].lower()}{name[1:]}"


def tournament_placings(tournament: Tournament) -> list[Placing] | None:
    """Champion, runner-up, third (from the third-place match, or shared), then by playoff round reached,
    then everyone else in qualifying order; None until every playoff match needed is decided."""
    matches = list(
        PlayoffMatch.objects.filter(tournament=tournament, not_needed=False)
        .select_related("top_team", "bottom_team", "winner")
        .prefetch_related(members("top_team__memberships"), members("bottom_team__memberships"))
    )
    if not matches or any(match.winner_id is None for match in matches):
        return None
    seeds = dict(tournament.playoff_seeds.values_list("team_id", "seed"))
    decided = [
        Decided(m.code, m.bracket, m.stage, m.label, m.top_team, m.bottom_team, m.winner)
        for m in matches
        if m.top_team_id and m.bottom_team_id
    ]
    places = final_places(decided, {team: seeds.get(team.pk, 0) for m in decided for team in (m.top, m.bottom)})
    placings = [Placing(place.place, place.shared, place.team, _reached(place)) for place in places]
    in_playoff = {placing.team.pk for placing in placings}
    rest = [row for row in tournament_standings(tournament) if row.team.pk not in in_playoff]
    for _, group in groupby(rest, key=lambda row: row.place):
        tied = list(group)
        place = len(placings) + 1
        placings.extend(
            Placing(place, len(tied) > 1, row.team, f"Qualifying ({row.label} in the standings)") for row in tied
        )
    return placings
