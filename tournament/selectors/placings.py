"""The final placings 1..N of the whole field, once the tournament is over (for the prizes), and where a team's
part in it ended."""

from dataclasses import dataclass
from itertools import groupby

from scoring.bracket import FINAL, THIRD, Decided, Source, final_places, stage_name
from tournament.models import PlayoffMatch, Team, Tournament
from tournament.selectors.prefetch import members
from tournament.selectors.standings import qualifying_rounds_signed, tournament_standings

CHAMPION = "Champion"
BY_THE_STANDINGS = "By the standings (no playoff)"
NOT_IN_THE_PLAYOFF = "Did not reach the playoff"


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

    @property
    def champion(self) -> bool:
        return self.reached == CHAMPION


def out_in(label: str) -> str:
    """How a team knocked out of the playoff went out, from its last match's label: "Out in the semifinal"."""
    name = stage_name(label)
    return f"Out in the {name[0].lower()}{name[1:]}"


def _reached(place) -> str:
    """How far a playoff team went, in words."""
    match = place.last
    if match.bracket == FINAL:
        return CHAMPION if place.won_last else "Runner-up"
    if match.bracket == THIRD:
        return "Third place" if place.won_last else "Fourth place"
    return out_in(match.label)


def tournament_placings(tournament: Tournament) -> list[Placing] | None:
    """Champion, runner-up, third (from the third-place match, or shared), then by playoff round reached,
    then everyone else in qualifying order; None until every playoff match needed is decided. A tournament
    without a playoff (none seeded) is placed by its standings once every qualifying round is signed."""
    if not tournament.playoff_seeds.exists():
        return _by_the_standings(tournament)
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


def _by_the_standings(tournament: Tournament) -> list[Placing] | None:
    """A tournament without a playoff, placed by its standings (RULES.md, Playoffs) once every qualifying round is
    published and signed; None before."""
    if qualifying_rounds_signed(tournament=tournament).count() < tournament.qualifying_rounds:
        return None
    return [
        Placing(row.place, row.label != str(row.place), row.team, BY_THE_STANDINGS)
        for row in tournament_standings(tournament)
    ]


@dataclass(frozen=True)
class TeamFinish:
    """Where a team's part in the tournament ended: its final ``placing`` once the tournament is placed, or, while
    the playoff goes on without it, how it went out (``out``: its place is decided when the playoff ends)."""

    placing: Placing | None = None
    out: str = ""


def _playoff_out(tournament: Tournament, team: Team) -> str:
    """While the playoff is played: how the team went out of it ("" while it still plays, or may). A team is
    out once it lost a match whose loser no other match takes (a third-place match, a losers' bracket do)."""
    if not tournament.playoff_seeds.filter(team=team).exists():
        return NOT_IN_THE_PLAYOFF
    matches = list(
        tournament.playoff_matches.filter(not_needed=False).values_list(
            "stage", "code", "label", "loser_id", "top_source", "bottom_source"
        )
    )
    taken = {source for *_, top, bottom in matches for source in (top, bottom)}
    lost = [(stage, code, label) for stage, code, label, loser, *_ in matches if loser == team.pk]
    if not lost:
        return ""
    _, code, label = max(lost)
    return "" if str(Source("loser", code)) in taken else out_in(label)


def team_finish(team: Team) -> TeamFinish | None:
    """Where the team's part in the tournament ended, from the final placings once the tournament is over (or how
    it went out of the playoff still played); None while it still plays or may."""
    tournament = team.tournament
    placings = tournament_placings(tournament)
    if placings is not None:
        return TeamFinish(placing=next((p for p in placings if p.team.pk == team.pk), None))
    if tournament.playoff_published_at is None:
        return None
    out = _playoff_out(tournament, team)
    return TeamFinish(out=out) if out else None
