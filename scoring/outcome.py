"""What a table came to, and what a team's round came to: decided here once, read by every page, sheet, export and
API answer (the rules, Absent teams and substitutes: credited rounds read the same everywhere).

A table is played (in play until both teams sign), a forfeit (one team absent, or both), and may have had time
called after hand N. A team's round is won, lost or tied at a signed table, a bye, won by forfeit, lost by being
absent, sat out, or still in play; with the points the standings count for it. A bye and a forfeit won count at
once, as the absent team's loss does; their points are provisional until every table of the round is signed.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.absence import Absent
from scoring.round import round_winner
from scoring.table import Pair
from scoring.terms import Term


class Result(Term):
    """A team's round, in the words every surface uses (the API gives the value)."""

    WON = "won", "won"
    LOST = "lost", "lost"
    TIED = "tied", "tied"
    BYE = "bye", "bye"
    WON_BY_FORFEIT = "won by forfeit", "won by forfeit"
    LOST_ABSENT = "lost: absent", "lost: absent"
    SAT_OUT = "sat out", "sat out"
    PLAYING = "playing", "in play"

    @property
    def won(self) -> bool:
        """A round win in the standings (a bye and a forfeit won count as one)."""
        return self in (Result.WON, Result.BYE, Result.WON_BY_FORFEIT)

    @property
    def lost(self) -> bool:
        return self in (Result.LOST, Result.LOST_ABSENT)


@dataclass(frozen=True)
class Credit:
    """What a bye or a forfeit won is credited: the average of the round's winners at its signed tables, so
    ``provisional`` until every table of the round is signed (a later sheet moves it)."""

    points: int
    provisional: bool = False


# How every surface marks points holding such a credit: "7 points (provisional)", "31 (provisional)".
PROVISIONAL = " (provisional)"


@dataclass(frozen=True)
class TableOutcome:
    """A table's result as stored: its totals, whether the round is complete and signed, a forfeit, and time
    called after how many hands."""

    ns_total: int
    ew_total: int
    complete: bool
    signed: bool
    forfeit: Absent | None = None
    time_called_after: int | None = None

    @property
    def winner(self) -> Pair | None:
        """The team that won the round once it is complete (signed or not); at a forfeit, the team that was there.
        None for a tie, a double forfeit or a round in play."""
        if self.forfeit is not None:
            return self.forfeit.present_pair
        return round_winner({Pair.NORTH_SOUTH: self.ns_total, Pair.EAST_WEST: self.ew_total}, complete=self.complete)

    @property
    def score(self) -> str:
        """The table's score as a line shows it: "Forfeit", or the totals ("12–4")."""
        return "Forfeit" if self.forfeit is not None else f"{self.ns_total}–{self.ew_total}"

    @property
    def words(self) -> str:
        """What happened besides the hands: "Forfeit: East–West absent; North–South score the round as a bye",
        "Time called after hand 3", or nothing."""
        if self.forfeit is not None:
            present = self.forfeit.present_pair
            then = f"{present.label} score the round as a bye" if present else "both teams lose the round"
            return f"Forfeit: {self.forfeit.label}; {then}"
        if self.time_called_after is not None:
            return f"Time called after hand {self.time_called_after}"
        return ""

    def result_of(self, pair: Pair) -> Result:
        """The round's result for the team at ``pair``."""
        if self.forfeit is not None:
            return Result.LOST_ABSENT if pair in self.forfeit.absent_pairs else Result.WON_BY_FORFEIT
        if not self.signed:
            return Result.PLAYING
        winner = self.winner
        return Result.TIED if winner is None else Result.WON if winner == pair else Result.LOST


@dataclass(frozen=True)
class TeamOutcome:
    """A team's round: its result, the points for and against it, whether the standings count it yet (a table once
    signed; a bye and a forfeit won once their round is out) and whether its points are ``provisional`` (a bye's
    or a forfeit's credit before every table of the round is signed)."""

    result: Result
    points_for: int = 0
    points_against: int = 0
    counted: bool = True
    provisional: bool = False

    @property
    def points_said(self) -> str:
        """The points as every surface says them: "7 points", "7 points (provisional)"."""
        return f"{self.points_for} points" + (PROVISIONAL if self.provisional else "")

    @property
    def line(self) -> str:
        """The round as a line says it: "won 12–4", "in play 5–3", "bye, 7 points", "won by forfeit, 7 points"
        ("..., 7 points (provisional)" until every table of the round is signed), "lost: absent, 0 points",
        "sat out (no result)"."""
        result = self.result
        if result in (Result.BYE, Result.WON_BY_FORFEIT):
            if not self.counted:
                return f"{result.label}, credited once the round is out"
            return f"{result.label}, {self.points_said}"
        if result == Result.LOST_ABSENT:
            return f"{result.label}, 0 points"
        if result == Result.SAT_OUT:
            return f"{result.label} (no result)"
        return f"{result.label} {self.points_for}–{self.points_against}"


def _credited(result: Result, credit: Credit | None) -> TeamOutcome:
    """A bye's or a forfeit won's round: its credit, counted at once; nothing yet in a round not out."""
    if credit is None:
        return TeamOutcome(result, 0, 0, counted=False)
    return TeamOutcome(result, credit.points, 0, provisional=credit.provisional)


def team_outcome(table: TableOutcome | None, pair: Pair | None, *, credit: Credit | None = None) -> TeamOutcome:
    """The round of the team at ``pair`` of ``table`` (None: a bye); ``credit`` is what the standings credit a bye
    or a forfeit won (None while its round is not out: a draft)."""
    if table is None:
        return _credited(Result.BYE, credit)
    assert pair is not None, "a team at a table sits at one of its pairs"
    result = table.result_of(pair)
    if result == Result.WON_BY_FORFEIT:
        return _credited(result, credit)
    if result == Result.LOST_ABSENT:
        return TeamOutcome(result, 0, 0)
    mine, theirs = (table.ns_total, table.ew_total) if pair == Pair.NORTH_SOUTH else (table.ew_total, table.ns_total)
    return TeamOutcome(result, mine, theirs, counted=result != Result.PLAYING)
