"""Penalties of the tournament rule sheet and the points each one gives."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scoring.errors import ScoringError
from scoring.rules import RuleSet
from scoring.table import Pair


class PenaltyKind(StrEnum):
    RENEGE = "renege"
    BID_OUT_OF_TURN = "bid_out_of_turn"
    PLAY_OUT_OF_TURN = "play_out_of_turn"
    DEAL_OUT_OF_TURN = "deal_out_of_turn"
    EXPOSED_CARD = "exposed_card"
    DIRECTOR_RULING = "director_ruling"

    @property
    def label(self) -> str:
        return _KIND_LABELS[self]


_KIND_LABELS = {
    PenaltyKind.RENEGE: "Renege",
    PenaltyKind.BID_OUT_OF_TURN: "Bid out of turn",
    PenaltyKind.PLAY_OUT_OF_TURN: "Play out of turn",
    PenaltyKind.DEAL_OUT_OF_TURN: "Deal out of turn",
    PenaltyKind.EXPOSED_CARD: "Exposed card",
    PenaltyKind.DIRECTOR_RULING: "Director's ruling",
}


class BidOutOfTurnChoice(StrEnum):
    """What the player whose turn it was chooses after a bid out of turn."""

    TAKE_POINTS = "take_points"
    REDEAL = "redeal"
    CONTINUE = "continue"


@dataclass(frozen=True)
class Penalty:
    """One penalty on a deal.

    ``team`` is the offending team; for a director's ruling it is the team whose score the
    ruling changes by ``points`` (negative to take points away).
    """

    kind: PenaltyKind
    team: Pair
    count: int = 1
    choice: BidOutOfTurnChoice | None = None
    before_bidding: bool = False
    points: int = 0

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", PenaltyKind(self.kind))
            object.__setattr__(self, "team", Pair(self.team))
        except ValueError as error:
            raise ScoringError(f"Not a penalty: {error}.") from None
        if self.choice is not None:
            object.__setattr__(self, "choice", BidOutOfTurnChoice(self.choice))
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ScoringError("A renege count is 1 or more.")
        if self.count != 1 and self.kind is not PenaltyKind.RENEGE:
            raise ScoringError(f"{self.kind.label} is recorded once per offence.")
        if (self.kind is PenaltyKind.BID_OUT_OF_TURN) != (self.choice is not None):
            raise ScoringError("A bid out of turn needs the wronged player's choice: take points, re-deal or continue.")
        if self.before_bidding and self.kind is not PenaltyKind.DEAL_OUT_OF_TURN:
            raise ScoringError("Only a deal out of turn is caught before bidding.")
        if self.kind is PenaltyKind.DIRECTOR_RULING:
            if isinstance(self.points, bool) or not isinstance(self.points, int) or not self.points:
                raise ScoringError("A director's ruling gives or takes a whole number of points.")
        elif self.points:
            raise ScoringError(f"{self.kind.label} points come from the rule set, not the entry.")

    @property
    def causes_redeal(self) -> bool:
        """Whether this penalty makes its deal one that does not count."""
        if self.kind is PenaltyKind.DEAL_OUT_OF_TURN:
            return self.before_bidding
        return self.kind is PenaltyKind.BID_OUT_OF_TURN and self.choice is BidOutOfTurnChoice.REDEAL

    @property
    def needs_play(self) -> bool:
        """Penalties that can only happen once cards are played."""
        return self.kind in (PenaltyKind.RENEGE, PenaltyKind.PLAY_OUT_OF_TURN)


def penalty_points(rules: RuleSet, penalty: Penalty, *, warning: bool = False) -> dict[Pair, int]:
    """The points a penalty adds to each team's result (renege books are moved elsewhere).

    ``warning`` marks an exposed card that is its team's first of the round: recorded, no points.
    """
    points = {Pair.NORTH_SOUTH: 0, Pair.EAST_WEST: 0}
    wronged = penalty.team.other
    if penalty.kind is PenaltyKind.BID_OUT_OF_TURN:
        if penalty.choice is BidOutOfTurnChoice.TAKE_POINTS:
            points[wronged] += rules.bid_out_of_turn_points
    elif penalty.kind is PenaltyKind.PLAY_OUT_OF_TURN:
        points[wronged] += rules.play_out_of_turn_points
    elif penalty.kind is PenaltyKind.EXPOSED_CARD:
        if not warning:
            points[wronged] += rules.exposed_card_points
    elif penalty.kind is PenaltyKind.DIRECTOR_RULING:
        points[penalty.team] += penalty.points
    return points
