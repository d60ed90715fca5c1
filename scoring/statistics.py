"""Statistics from the per-hand record, and an event's awards.

A team's statistics count the hands it played at signed tables: its bids made and set by level and kind,
no-trump bids made, Bostons (all 13 books taken on its own bid), its points per hand (hand and penalty
points over the hands that count) and the reneges charged against it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from scoring.bids import BidKind

# What the caller keys by (a team, a person, ("person", id)...): handed back as given.
K = TypeVar("K", bound=Hashable)

MINIMUM_BIDS = 5


@dataclass(frozen=True)
class HandLine(Generic[K]):
    """One counted hand from one team's side: its points, and its bid if it was the bidding team."""

    key: K
    points: int
    level: int | None = None
    kind: str = ""
    made: bool | None = None
    boston: bool = False


@dataclass
class Statistics:
    hands: int = 0
    points: int = 0
    made: dict[tuple[int, str], int] = field(default_factory=dict)
    set: dict[tuple[int, str], int] = field(default_factory=dict)
    bostons: int = 0
    reneges: int = 0

    @property
    def bids_made(self) -> int:
        return sum(self.made.values())

    @property
    def bids_set(self) -> int:
        return sum(self.set.values())

    @property
    def bids(self) -> int:
        return self.bids_made + self.bids_set

    @property
    def no_trump_made(self) -> int:
        return sum(count for (_, kind), count in self.made.items() if kind == BidKind.NO_TRUMP)

    @property
    def success(self) -> Fraction | None:
        """Bids made over bids played; None before the first bid."""
        return Fraction(self.bids_made, self.bids) if self.bids else None

    @property
    def points_per_hand(self) -> Fraction | None:
        return Fraction(self.points, self.hands) if self.hands else None

    def by_bid(self) -> list[tuple[int, str, int, int]]:
        """(level, kind, made, set) for every bid played, by level then kind."""
        played = sorted(set(self.made) | set(self.set), key=lambda bid: (bid[0], list(BidKind).index(BidKind(bid[1]))))
        return [(*bid, self.made.get(bid, 0), self.set.get(bid, 0)) for bid in played]

    def add(self, other: Statistics) -> None:
        self.hands += other.hands
        self.points += other.points
        self.bostons += other.bostons
        self.reneges += other.reneges
        for mine, theirs in ((self.made, other.made), (self.set, other.set)):
            for bid, count in theirs.items():
                mine[bid] = mine.get(bid, 0) + count


def tally(lines: Iterable[HandLine[K]], reneges: Mapping[K, int] | None = None) -> dict[K, Statistics]:
    """Each team's statistics from its hand lines and the reneges charged against it."""
    result: dict[K, Statistics] = {}
    for line in lines:
        stats = result.setdefault(line.key, Statistics())
        stats.hands += 1
        stats.points += line.points
        if line.level is not None:
            bid = (line.level, BidKind(line.kind).value)
            book = stats.made if line.made else stats.set
            book[bid] = book.get(bid, 0) + 1
            stats.bostons += int(line.boston)
    for key, count in (reneges or {}).items():
        result.setdefault(key, Statistics()).reneges += count
    return result


def combine(parts: Iterable[tuple[K, Statistics]]) -> dict[K, Statistics]:
    """Statistics summed per key (a person's over every team they played on)."""
    result: dict[K, Statistics] = {}
    for key, stats in parts:
        result.setdefault(key, Statistics()).add(stats)
    return result


@dataclass(frozen=True)
class Award(Generic[K]):
    title: str
    winners: tuple[K, ...]
    value: str


def _leaders(
    stats: Mapping[K, Statistics], measure: Callable[[Statistics], Fraction | int | None]
) -> tuple[tuple[K, ...], Fraction | int]:
    """The keys with the highest measure, and that measure; nobody when no one scored above nothing."""
    values = {key: value for key, s in stats.items() if (value := measure(s))}
    if not values:
        return (), 0
    best = max(values.values())
    return tuple(sorted((key for key, value in values.items() if value == best), key=str)), best


def awards(stats: Mapping[K, Statistics], *, minimum_bids: int = MINIMUM_BIDS) -> list[Award[K]]:
    """Most Bostons, best bid success (at least ``minimum_bids`` bids played), most no-trump bids made.

    Teams level on an award share it; an award nobody earned (no Boston all event) is left out."""
    found = []
    winners, best = _leaders(stats, lambda s: s.bostons)
    if winners:
        found.append(Award("Most Bostons", winners, f"{best} Boston{'s' if best != 1 else ''}"))
    eligible = {key: s for key, s in stats.items() if s.bids >= minimum_bids}
    winners, best = _leaders(eligible, lambda s: s.success)
    if winners:
        sample = eligible[winners[0]]
        found.append(
            Award(
                f"Best bid success (at least {minimum_bids} bids)",
                winners,
                f"{sample.bids_made} of {sample.bids} made ({round(100 * best)}%)",
            )
        )
    winners, best = _leaders(stats, lambda s: s.no_trump_made)
    if winners:
        found.append(Award("Most no-trump bids made", winners, f"{best} made"))
    return found
