"""Ratings used in a tournament when the director chooses: a team's strength for seeding round 1, and the
last standings tie-break (``standings.ratings_break_ties``). A team's rating is the mean of its rated players'
stored ratings."""

from collections import defaultdict
from collections.abc import Iterable

from tournament.models import TeamMember


def team_ratings(team_ids: Iterable[int]) -> dict[int, float]:
    """Mean stored rating of each team's rated players; teams with no rated player are absent. One query."""
    found: defaultdict[int, list[float]] = defaultdict(list)
    rows = TeamMember.objects.filter(team_id__in=list(team_ids), player__person__rating__isnull=False).values_list(
        "team_id", "player__person__rating__rating"
    )
    for team_id, rating in rows:
        found[team_id].append(rating)
    return {team_id: sum(ratings) / len(ratings) for team_id, ratings in found.items()}
