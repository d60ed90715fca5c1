"""Seats and partnerships at a table, and the clockwise order of the deal."""

from __future__ import annotations

from enum import StrEnum


class Pair(StrEnum):
    """A partnership: the two players who sit opposite each other."""

    NORTH_SOUTH = "NS"
    EAST_WEST = "EW"

    @property
    def other(self) -> Pair:
        return Pair.EAST_WEST if self is Pair.NORTH_SOUTH else Pair.NORTH_SOUTH

    @property
    def label(self) -> str:
        return "North–South" if self is Pair.NORTH_SOUTH else "East–West"

    @property
    def seats(self) -> tuple[Seat, Seat]:
        if self is Pair.NORTH_SOUTH:
            return (Seat.NORTH, Seat.SOUTH)
        return (Seat.EAST, Seat.WEST)


class Seat(StrEnum):
    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"

    @property
    def pair(self) -> Pair:
        return Pair.NORTH_SOUTH if self in (Seat.NORTH, Seat.SOUTH) else Pair.EAST_WEST

    @property
    def next(self) -> Seat:
        """The seat to the left: deals and play pass clockwise."""
        order = list(Seat)
        return order[(order.index(self) + 1) % len(order)]

    @property
    def label(self) -> str:
        return self.name.capitalize()
