"""Ranking teams over their signed rounds by a tournament's ordered criteria (the rules, Standings)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from scoring.places import Place, places
from scoring.table import TeamKey

CRITERIA = {
    "rounds_won": "Rounds won (a tie counts ½)",
    "total_points": "Total points",
    "point_difference": "Point difference",
    "hands_won": "Hands won",
    "fewest_against": "Fewest points against",
    "head_to_head": "The team that won their meeting",
}

# Each criterion as it is named in a list of them ("Rounds won, total points, ..., meeting").
CRITERIA_SHORT = {**{name: label.split(" (")[0].lower() for name, label in CRITERIA.items()}, "head_to_head": "meeting"}

# The orders a tournament may rank by, each a sequence of criteria.
ORDERS = (
    ("rounds_won", "total_points", "point_difference", "head_to_head"),
    ("total_points", "rounds_won", "point_difference", "head_to_head"),
    ("rounds_won", "hands_won", "total_points", "head_to_head"),
    ("rounds_won", "fewest_against", "total_points", "head_to_head"),
)


def order_label(order: Sequence[str]) -> str:
    """An order of criteria in words: "Rounds won, total points, point difference, meeting"."""
    return ", ".join(CRITERIA_SHORT[name] for name in order).capitalize()


@dataclass(frozen=True)
class TeamRecord:
    """A team's results over the rounds that count."""

    key: TeamKey
    wins: int = 0
    losses: int = 0
    ties: int = 0
    points_for: int = 0
    points_against: int = 0
    hands_won: int = 0
    bostons: int = 0

    @property
    def rounds_won(self) -> float:
        return self.wins + self.ties / 2

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def rounds_played(self) -> int:
        return self.wins + self.losses + self.ties


@dataclass(frozen=True)
class Meeting:
    """Two teams met at a table; ``winner`` is one of them, or None for a tie."""

    first: TeamKey
    second: TeamKey
    winner: TeamKey | None


@dataclass(frozen=True)
class Placed:
    place: Place
    record: TeamRecord


# Each criterion's value of a record, larger is better (head to head is decided within a level group).
VALUES = {
    "rounds_won": lambda record: 2 * record.wins + record.ties,
    "total_points": lambda record: record.points_for,
    "point_difference": lambda record: record.points_for - record.points_against,
    "hands_won": lambda record: record.hands_won,
    "fewest_against": lambda record: -record.points_against,
}


def _split(group: list[TeamRecord], key: Callable[[TeamRecord], Any]) -> list[list[TeamRecord]]:
    """The group in runs of equal ``key``, largest first, each run in the group's order (each key computed once)."""
    parts: list[list[TeamRecord]] = []
    last = None
    for value, record in sorted(((key(record), record) for record in group), key=itemgetter(0), reverse=True):
        if parts and value == last:
            parts[-1].append(record)
        else:
            parts.append([record])
            last = value
    return parts


def _head_to_head(group: list[TeamRecord], meetings: Sequence[Meeting]) -> list[list[TeamRecord]]:
    """Order a level group by their results against each other, if every two of them met."""
    keys = {record.key for record in group}
    inside = [m for m in meetings if m.first in keys and m.second in keys and m.first != m.second]
    met = {frozenset((m.first, m.second)) for m in inside}
    if any(frozenset((a.key, b.key)) not in met for i, a in enumerate(group) for b in group[i + 1 :]):
        return [group]
    score = dict.fromkeys(keys, 0)
    for meeting in inside:
        if meeting.winner is None:
            score[meeting.first] += 1
            score[meeting.second] += 1
        else:
            score[meeting.winner] += 2
    return _split(group, lambda record: score[record.key])


def rank(records: Iterable[TeamRecord], criteria: Sequence[str], meetings: Sequence[Meeting] = ()) -> list[Placed]:
    """Rank by each criterion in turn; teams level on every one share the place."""
    unknown = [c for c in criteria if c not in CRITERIA]
    if unknown:
        raise ValueError(f"Unknown standings criterion: {', '.join(unknown)}.")
    groups = [sorted(records, key=lambda record: record.key)]
    for criterion in criteria:
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif criterion == "head_to_head":
                refined.extend(_head_to_head(group, meetings))
            else:
                refined.extend(_split(group, VALUES[criterion]))
        groups = refined
    return [Placed(place, record) for place, record in places(groups)]
