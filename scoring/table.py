"""Seats and partnerships at a table, and the clockwise order of the deal."""

from __future__ import annotations

from typing import TypeAlias

from scoring.terms import Term

# What the engine knows a team by: the app's team id or number (tests may name teams by letters). Any key the
# engine sorts by, so it is orderable as well as hashable.
TeamKey: TypeAlias = int | str


class Pair(Term):
    """A partnership: the two players who sit opposite each other."""

    NORTH_SOUTH = "NS", "North–South"
    EAST_WEST = "EW", "East–West"

    @property
    def other(self) -> Pair:
        return Pair.EAST_WEST if self is Pair.NORTH_SOUTH else Pair.NORTH_SOUTH

    @property
    def seats(self) -> tuple[Seat, Seat]:
        if self is Pair.NORTH_SOUTH:
            return (Seat.NORTH, Seat.SOUTH)
        return (Seat.EAST, Seat.WEST)

    @property
    def short(self) -> str:
        """The pair in short, by its seats' letters: "N–S", "E–W"."""
        return "–".join(seat.value for seat in self.seats)


class Seat(Term):
    NORTH = "N", "North"
    EAST = "E", "East"
    SOUTH = "S", "South"
    WEST = "W", "West"

    @property
    def pair(self) -> Pair:
        return Pair.NORTH_SOUTH if self in (Seat.NORTH, Seat.SOUTH) else Pair.EAST_WEST

    @property
    def position(self) -> int:
        """Which of its team's two players sits here: the first sits North or East, the second South or West."""
        return 0 if self in (Seat.NORTH, Seat.EAST) else 1

    @property
    def next(self) -> Seat:
        """The seat to the left: deals and play pass clockwise."""
        order = list(Seat)
        return order[(order.index(self) + 1) % len(order)]
