"""The round clock (the rules, Time): what is left, the warnings, and a table's projected finish.

Plain arithmetic on the server's times: every page carries the server's answer, so every screen agrees
whatever the clock of the phone showing it says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from scoring.errors import ScoringError
from scoring.terms import Term

MAX_ADDED_MINUTES = 60


class ClockLevel(Term):
    """How urgent the clock looks: the pages colour it so."""

    NONE = "", "Time enough"
    WARNING = "warning", "Warning"
    LAST = "last", "Last warning"
    UP = "up", "Time"
    PAUSED = "paused", "Paused"


@dataclass(frozen=True)
class Clock:
    """A round's or one table's clock: running towards ``ends_at``, or paused with ``left_seconds`` to go,
    or (neither) not started."""

    ends_at: datetime | None = None
    left_seconds: int | None = None

    @classmethod
    def start(cls, now: datetime, minutes: int) -> Clock:
        if minutes <= 0:
            raise ScoringError("This tournament has no round clock: set the round's minutes in its rules first.")
        return cls(ends_at=now + timedelta(minutes=minutes))

    @property
    def started(self) -> bool:
        return self.ends_at is not None or self.left_seconds is not None

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    @property
    def paused(self) -> bool:
        return self.ends_at is None and self.left_seconds is not None

    def remaining(self, now: datetime) -> int | None:
        """Whole seconds left (rounded up, never below 0); None when the clock has not started."""
        if self.ends_at is not None:
            return max(0, math.ceil((self.ends_at - now).total_seconds()))
        return self.left_seconds

    def is_up(self, now: datetime) -> bool:
        return self.started and self.remaining(now) == 0

    def pause(self, now: datetime) -> Clock:
        if not self.running:
            raise ScoringError("The clock is not running: there is nothing to pause.")
        if self.is_up(now):
            raise ScoringError("Time is up: add time to go on, there is nothing left to pause.")
        return Clock(left_seconds=self.remaining(now))

    def resume(self, now: datetime) -> Clock:
        if self.ends_at is not None or self.left_seconds is None:
            raise ScoringError("The clock is not paused: there is nothing to resume.")
        return Clock(ends_at=now + timedelta(seconds=self.left_seconds))

    def plus(self, minutes: int, now: datetime) -> Clock:
        """The clock with ``minutes`` more; a clock already at time starts again from now."""
        if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_ADDED_MINUTES:
            raise ScoringError(f"Add 1 to {MAX_ADDED_MINUTES} minutes.", field="minutes")
        if self.ends_at is not None:
            return Clock(ends_at=max(self.ends_at, now) + timedelta(minutes=minutes))
        if self.left_seconds is None:
            raise ScoringError("The clock has not started: start it first.")
        return Clock(left_seconds=self.left_seconds + minutes * 60)

    def level(self, now: datetime, *, warn_minutes: int, last_warn_minutes: int) -> ClockLevel:
        """The warning the clock shows now: none, the first, the last, time, or paused."""
        remaining = self.remaining(now)
        if remaining is None:
            return ClockLevel.NONE
        if remaining == 0:
            return ClockLevel.UP
        if self.paused:
            return ClockLevel.PAUSED
        if remaining <= last_warn_minutes * 60:
            return ClockLevel.LAST
        if remaining <= warn_minutes * 60:
            return ClockLevel.WARNING
        return ClockLevel.NONE


def clock_text(seconds: int | None) -> str:
    """Seconds left as a clock reads them: "12:05", "1:02:09"; "" for a clock not started."""
    if seconds is None:
        return ""
    hours, rest = divmod(max(seconds, 0), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@dataclass(frozen=True)
class Projection:
    """Where a table stands against its clock: the hand in play and the minutes it will likely run over
    (negative: likely to finish early); ``minutes_over`` is None with no hand saved to judge the pace by."""

    hand_in_play: int
    hands_per_round: int
    minutes_over: int | None

    @property
    def words(self) -> str:
        where = f"hand {self.hand_in_play} of {self.hands_per_round}"
        if self.minutes_over is None:
            return where
        if self.minutes_over > 0:
            return f"{where}, likely {self.minutes_over} minute{'s' if self.minutes_over != 1 else ''} over"
        return f"{where}, likely on time"


def projected_finish(
    *,
    started_at: datetime,
    ends_at: datetime,
    hand_saved_at: Sequence[datetime],
    hands_per_round: int,
    now: datetime,
) -> Projection:
    """Project a table's finish from its pace: the remaining hands take on average what the hands saved so far
    took since the clock started; a table slower than that finishes no sooner than now."""
    played = len(hand_saved_at)
    hand_in_play = min(played + 1, hands_per_round)
    if not played:
        return Projection(hand_in_play, hands_per_round, None)
    last = max(hand_saved_at)
    per_hand = max((last - started_at).total_seconds(), 0) / played
    finish = last + timedelta(seconds=per_hand * (hands_per_round - played))
    if played < hands_per_round:
        finish = max(finish, now)
    over = math.ceil((finish - ends_at).total_seconds() / 60)
    return Projection(hand_in_play, hands_per_round, over)
