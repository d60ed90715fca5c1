"""Series points by final placing and a series' standings (the rules, Players across events).

A team's players earn the points of the best place the team reached (champion, runner-up, semifinalist:
they do not add up) plus a share for each qualifying round won, byes and forfeit wins included.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from itertools import groupby
from typing import Any, Generic, TypeVar

from scoring.errors import ScoringError
from scoring.places import Place, places

# What the caller keys by (a team, a person, ("person", id)...): handed back as given.
K = TypeVar("K", bound=Hashable)


class Finish(Enum):
    """How far a team went in the playoff; NONE for a team out of it, or a tournament without one."""

    CHAMPION = "champion"
    RUNNER_UP = "runner_up"
    SEMIFINALIST = "semifinalist"
    NONE = "none"


SERIES_POINTS_DEFAULT = {"champion": 6, "runner_up": 3, "semifinalist": 1, "qualifying_win": 0.5}
SERIES_POINTS_LABELS = {
    "champion": "Champion",
    "runner_up": "Runner-up",
    "semifinalist": "Other semifinalists",
    "qualifying_win": "Each qualifying round won",
}
LIMIT = 1000


def _amount(name: str, value: object) -> Fraction:
    if isinstance(value, bool):
        raise ScoringError(f"{SERIES_POINTS_LABELS[name]}: a number of points, not {value!r}.", field=name)
    try:
        amount = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ScoringError(f"{SERIES_POINTS_LABELS[name]}: {value!r} is not a number of points.", field=name) from None
    if amount < 0 or amount > LIMIT:
        raise ScoringError(f"{SERIES_POINTS_LABELS[name]}: points are 0 to {LIMIT}.", field=name)
    if amount.denominator not in (1, 2, 4):
        raise ScoringError(f"{SERIES_POINTS_LABELS[name]}: whole points, halves or quarters only.", field=name)
    return amount


@dataclass(frozen=True)
class SeriesPoints:
    """A series' points table (setting ``series_points``)."""

    champion: Fraction = Fraction(6)
    runner_up: Fraction = Fraction(3)
    semifinalist: Fraction = Fraction(1)
    qualifying_win: Fraction = Fraction(1, 2)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> SeriesPoints:
        """The table from stored settings; missing entries take the default, unknown ones are refused."""
        unknown = sorted(set(data) - set(SERIES_POINTS_DEFAULT))
        if unknown:
            raise ScoringError(f"Unknown series points setting: {', '.join(unknown)}.")
        merged = {**SERIES_POINTS_DEFAULT, **data}
        table = cls(**{name: _amount(name, merged[name]) for name in SERIES_POINTS_DEFAULT})
        if not table.champion >= table.runner_up >= table.semifinalist:
            raise ScoringError("The champion earns at least the runner-up, who earns at least a semifinalist.")
        return table

    def to_dict(self) -> dict[str, int | float]:
        return {name: points_number(getattr(self, name)) for name in SERIES_POINTS_DEFAULT}

    def for_finish(self, finish: Finish) -> Fraction:
        return {
            Finish.CHAMPION: self.champion,
            Finish.RUNNER_UP: self.runner_up,
            Finish.SEMIFINALIST: self.semifinalist,
            Finish.NONE: Fraction(0),
        }[finish]


def points_number(points: Fraction) -> int | float:
    """Points as JSON keeps them: a whole number, or a float for halves and quarters (exact in binary)."""
    return int(points) if points.denominator == 1 else float(points)


QUARTERS = {0: "", 1: "¼", 2: "½", 3: "¾"}


@lru_cache(maxsize=4096)
def points_text(points: Fraction) -> str:
    """ "6", "2½", "¼": how a standings table writes points (whole quarters in integers: a series table
    writes tens of thousands of them)."""
    quarters = points * 4
    if quarters.denominator != 1:
        return str(float(points))
    whole, part = divmod(quarters.numerator, 4)
    if whole == 0 and part:
        return QUARTERS[part]
    return f"{whole}{QUARTERS[part]}"


def finish_from_place(place: int | None) -> Finish:
    """The finish of a playoff team from its final place (1, 2, 3 or 4; two beaten semifinalists share
    third without a third-place match, or are third and fourth after one). None: not in the playoff."""
    if place is None or place < 1:
        return Finish.NONE
    if place == 1:
        return Finish.CHAMPION
    if place == 2:
        return Finish.RUNNER_UP
    if place <= 4:
        return Finish.SEMIFINALIST
    return Finish.NONE


def tournament_points(table: SeriesPoints, *, finish: Finish, qualifying_wins: int) -> Fraction:
    """A team's points from one tournament: its finish's points (not added up) and the qualifying rounds won."""
    if isinstance(qualifying_wins, bool) or not isinstance(qualifying_wins, int) or qualifying_wins < 0:
        raise ScoringError(f"Qualifying rounds won is a whole number from 0, not {qualifying_wins!r}.")
    return table.for_finish(finish) + table.qualifying_win * qualifying_wins


@dataclass(frozen=True)
class SeriesPlace(Generic[K]):
    place: Place
    key: K
    points: Fraction


def series_standings(
    totals: Mapping[K, Fraction], *, order_key: Callable[[K], Any] | None = None
) -> list[SeriesPlace[K]]:
    """Persons ranked by series total, highest first; equal totals share the place.

    ``order_key`` orders persons inside a shared place (a name, say); by key when not given.
    """
    within = order_key or (lambda key: key)
    ordered = sorted(totals, key=lambda key: (-totals[key], within(key)))
    groups = [list(level) for _, level in groupby(ordered, key=totals.__getitem__)]
    return [SeriesPlace(place, key, totals[key]) for place, key in places(groups)]
