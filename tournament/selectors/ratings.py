"""Ratings used in a tournament when the director chooses: a team's strength for seeding round 1, and the
last standings tie-break. A team's rating is the mean of its rated players' stored ratings."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from itertools import groupby
from typing import TYPE_CHECKING

from scoring.places import places
from tournament.models import TeamMember

if TYPE_CHECKING:
    from tournament.selectors.standings import StandingRow


def team_ratings(team_ids: Iterable[int]) -> dict[int, float]:
    """Mean stored rating of each team's rated players; teams with no rated player are absent. One query."""
    found: defaultdict[int, list[float]] = defaultdict(list)
    rows = TeamMember.objects.filter(team_id__in=list(team_ids), player__person__rating__isnull=False).values_list(
        "team_id", "player__person__rating__rating"
    )
    for team_id, rating in rows:
        found[team_id].append(rating)
    return {team_id: sum(ratings) / len(ratings) for team_id, ratings in found.items()}


def ratings_break_ties(rows: list[StandingRow]) -> list[StandingRow]:
    """Standing rows with each shared place split by team rating, highest first; teams without a rating
    come after rated ones, and teams still level (or both unrated) keep sharing the place."""
    if not any(row.place.shared for row in rows):
        return rows
    ratings = team_ratings(row.team.pk for row in rows)

    def strength(row: StandingRow) -> tuple[bool, float]:
        rating = ratings.get(row.team.pk)
        return (rating is not None, round(rating, 6) if rating is not None else 0)

    result: list[StandingRow] = []
    for place, grouped in groupby(rows, key=lambda row: row.place):
        levels = [list(level) for _, level in groupby(sorted(grouped, key=strength, reverse=True), key=strength)]
        result.extend(dataclasses.replace(row, place=split) for split, row in places(levels, first=place.number))
    return result
