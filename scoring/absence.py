"""Absent teams (the rules, Absent teams and substitutes): who a forfeit scores for, and when it may be declared."""

from __future__ import annotations

from datetime import datetime, timedelta

from scoring.table import Pair
from scoring.terms import Term


class Absent(Term):
    """Who was not at the table when the director declared the forfeit."""

    NORTH_SOUTH = "NS", "North–South absent"
    EAST_WEST = "EW", "East–West absent"
    BOTH = "both", "Both teams absent"

    @property
    def absent_pairs(self) -> tuple[Pair, ...]:
        if self is Absent.BOTH:
            return (Pair.NORTH_SOUTH, Pair.EAST_WEST)
        return (Pair(self.value),)

    @property
    def present_pair(self) -> Pair | None:
        """The team at the table, scored as a bye; None when both were absent (both lose)."""
        return None if self is Absent.BOTH else Pair(self.value).other


def forfeit_allowed_from(start: datetime, forfeit_minutes: int) -> datetime:
    """When a team not at its table may be declared absent: ``forfeit_minutes`` after the clock started (or,
    without a clock, after the round was published)."""
    return start + timedelta(minutes=forfeit_minutes)
