"""The final placings 1..N of the whole field, once the tournament is over (for the prizes), and where a team's
part in it ended.

``playoff_places`` is the one reading of a decided bracket's places: the placings below (the public pages, the
projector, the PDFs, the exports, the API, the archive and the payouts read them) and the series' and persons'
outcomes all go through it.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from scoring.bracket import FINAL, THIRD, Decided, FinalPlace, Source, final_places, stage_name
from scoring.places import Place, places
from tournament.models import PlayoffMatch, PlayoffSeed, Team, Tournament
from tournament.selectors.prefetch import members
from tournament.selectors.standings import StandingTeam, qualifying_rounds_signed, tournament_standings

CHAMPION = "Champion"
BY_THE_STANDINGS = "By the standings (no playoff)"
NOT_IN_THE_PLAYOFF = "Did not reach the playoff"


@dataclass(frozen=True)
class Placing:
    place: Place
    team: Team | StandingTeam
    reached: str

    @property
    def champion(self) -> bool:
        return self.reached == CHAMPION


def out_in(label: str) -> str:
    """How a team knocked out of the playoff went out, from its last match's label: "Out in the semifinal"."""
    name = stage_name(label)
    return f"Out in the {name[0].lower()}{name[1:]}"


def reached(place: FinalPlace) -> str:
    """How far a playoff team went, in words."""
    match = place.last
    if match.bracket == FINAL:
        return CHAMPION if place.won_last else "Runner-up"
    if match.bracket == THIRD:
        return "Third place" if place.won_last else "Fourth place"
    return out_in(match.label)


def playoff_places(tournament_ids: Iterable[int]) -> dict[int, list[FinalPlace]]:
    """Each decided playoff's final places, best first, by tournament id (its teams by id); a tournament whose
    playoff is not decided (a match needed has no winner yet) is absent. Two queries for any number of them."""
    matches = defaultdict(list)
    for match in PlayoffMatch.objects.filter(tournament_id__in=tournament_ids, not_needed=False).values(
        "tournament_id",
        "code",
        "bracket",
        "bracket_round",
        "stage",
        "label",
        "top_team_id",
        "bottom_team_id",
        "winner_id",
    ):
        matches[match["tournament_id"]].append(match)
    decided_ids = [key for key, found in matches.items() if all(match["winner_id"] for match in found)]
    seeds = dict(PlayoffSeed.objects.filter(tournament_id__in=decided_ids).values_list("team_id", "seed"))
    places = {}
    for tournament_id in decided_ids:
        decided = [
            Decided(
                code=m["code"],
                bracket=m["bracket"],
                round=m["bracket_round"],
                stage=m["stage"],
                label=m["label"],
                top=m["top_team_id"],
                bottom=m["bottom_team_id"],
                winner=m["winner_id"],
            )
            for m in matches[tournament_id]
            if m["top_team_id"] and m["bottom_team_id"]
        ]
        places[tournament_id] = final_places(decided, seeds)
    return places


def tournament_placings(tournament: Tournament) -> list[Placing] | None:
    """Champion, runner-up, third (from the third-place match, or shared), then by playoff round reached,
    then everyone else in qualifying order; None until every playoff match needed is decided. A tournament
    without a playoff (none seeded) is placed by its standings once every qualifying round is signed."""
    if not tournament.playoff_seeds.exists():
        return _by_the_standings(tournament)
    final = playoff_places([tournament.pk]).get(tournament.pk)
    if final is None:
        return None
    teams = Team.objects.filter(pk__in=[place.team for place in final]).prefetch_related(members()).in_bulk()
    placings = [Placing(place.place, teams[place.team], reached(place)) for place in final]
    in_playoff = {placing.team.pk for placing in placings}
    rest = [row for row in tournament_standings(tournament) if row.team.pk not in in_playoff]
    tied = [list(group) for _, group in groupby(rest, key=lambda row: row.place)]
    placings.extend(
        Placing(place, row.team, f"Qualifying ({row.place} in the standings)")
        for place, row in places(tied, first=len(placings) + 1)
    )
    return placings


def _by_the_standings(tournament: Tournament) -> list[Placing] | None:
    """A tournament without a playoff, placed by its standings (the rules, Playoffs) once every qualifying round is
    published and signed; None before."""
    if qualifying_rounds_signed(tournament=tournament).count() < tournament.qualifying_rounds:
        return None
    return [Placing(row.place, row.team, BY_THE_STANDINGS) for row in tournament_standings(tournament)]


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
