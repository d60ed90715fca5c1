"""Penalties of the tournament rule sheet and the points each one gives."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import ScoringError
from scoring.rules import RuleSet
from scoring.table import Pair
from scoring.terms import Term

MAX_RULING_POINTS = 100


@dataclass(frozen=True)
class Inputs:
    """What is entered for a kind of penalty besides the offending team and the hand, and who enters it.

    ``count``: how many times (a renege); ``choice``: the wronged player's choice (a bid out of turn);
    ``points``: a ruling's points; ``hint``: said beside the kind where it is chosen; ``staff_only``: only
    the tournament's staff record it (on the round as a whole, with its reason in writing); ``on_form``: chosen
    on the penalty form (a deal out of turn is recorded with its deal instead); ``rule``: what the rule set
    gives for it, as the sheets print it, naming its settings in braces ("{renege_books} books ...").
    """

    count: bool = False
    choice: bool = False
    points: bool = False
    hint: str = ""
    staff_only: bool = False
    on_form: bool = True
    rule: str = ""

    @property
    def fields(self) -> tuple[str, ...]:
        """The entries the kind needs beyond its hand and team, by the names the penalty keeps them."""
        return tuple(name for name in ("count", "choice", "points") if getattr(self, name))


class PenaltyKind(Term):
    """The offences of the rule sheet; what is entered for each is its ``inputs`` (``INPUTS``)."""

    RENEGE = "renege", "Renege"
    BID_OUT_OF_TURN = "bid_out_of_turn", "Bid out of turn"
    PLAY_OUT_OF_TURN = "play_out_of_turn", "Play out of turn"
    DEAL_OUT_OF_TURN = "deal_out_of_turn", "Deal out of turn"
    EXPOSED_CARD = "exposed_card", "Exposed card"
    DIRECTOR_RULING = "director_ruling", "Director's ruling"

    @property
    def inputs(self) -> Inputs:
        return INPUTS[self]

    @property
    def choice_label(self) -> str:
        """The kind as the penalty form offers it, with its hint."""
        return f"{self.label} ({self.inputs.hint})" if self.inputs.hint else self.label

    def rule(self, rules: RuleSet) -> str:
        """What ``rules`` give for this kind, in words ("3 points to the opponents"); empty for a kind whose
        points are not the rule set's."""
        return self.inputs.rule.format_map(rules.to_dict())

    @classmethod
    def on_form(cls, *, staff: bool) -> list[PenaltyKind]:
        """The kinds the penalty form offers: staff see those only staff record."""
        return [kind for kind in cls if kind.inputs.on_form and (staff or not kind.inputs.staff_only)]


INPUTS = {
    PenaltyKind.RENEGE: Inputs(
        count=True, hint="books move before scoring", rule="{renege_books} books to the other team before scoring"
    ),
    PenaltyKind.BID_OUT_OF_TURN: Inputs(
        choice=True, rule="the wronged player takes {bid_out_of_turn_points} points, a re-deal, or play on"
    ),
    PenaltyKind.PLAY_OUT_OF_TURN: Inputs(rule="{play_out_of_turn_points} points to the opponents"),
    PenaltyKind.DEAL_OUT_OF_TURN: Inputs(on_form=False),
    PenaltyKind.EXPOSED_CARD: Inputs(
        hint="a team's first is a warning", rule="a warning the first time, then {exposed_card_points} points"
    ),
    PenaltyKind.DIRECTOR_RULING: Inputs(points=True, staff_only=True),
}


def penalty_rules(rules: RuleSet) -> list[tuple[PenaltyKind, str]]:
    """The kinds whose points or books the rule set fixes, each with what ``rules`` give for it."""
    return [(kind, kind.rule(rules)) for kind in PenaltyKind if kind.inputs.rule]


class BidOutOfTurnChoice(Term):
    """What the player whose turn it was chooses after a bid out of turn."""

    TAKE_POINTS = "take_points", "Take points"
    REDEAL = "redeal", "Re-deal"
    CONTINUE = "continue", "Continue"


class RedealReason(Term):
    """Why the cards are dealt again: the deal does not count and the same hand number is dealt again."""

    MISDEAL = "misdeal", "Misdeal"
    DEAL_OUT_OF_TURN = "deal_out_of_turn", "Dealt out of turn, caught before the first bid"
    BID_OUT_OF_TURN = "bid_out_of_turn", "Bid out of turn, the wronged player chose a re-deal"

    @property
    def names_a_team(self) -> bool:
        """A re-deal for something a team did out of turn records that team's penalty."""
        return self is not RedealReason.MISDEAL

    def penalty(self, team: Pair) -> Penalty | None:
        """The penalty that makes the deal one that does not count (None for a misdeal)."""
        if self is RedealReason.DEAL_OUT_OF_TURN:
            return Penalty(PenaltyKind.DEAL_OUT_OF_TURN, team, before_bidding=True)
        if self is RedealReason.BID_OUT_OF_TURN:
            return Penalty(PenaltyKind.BID_OUT_OF_TURN, team, choice=BidOutOfTurnChoice.REDEAL)
        return None


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
        except ValueError:
            raise ScoringError("Choose the offence.", field="kind") from None
        try:
            object.__setattr__(self, "team", Pair(self.team))
        except ValueError:
            raise ScoringError("Choose the team.", field="team") from None
        if self.choice is not None:
            try:
                object.__setattr__(self, "choice", BidOutOfTurnChoice(self.choice))
            except ValueError:
                raise ScoringError("Choose take points, re-deal or continue.", field="choice") from None
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ScoringError("A renege count is 1 or more.", field="count")
        if self.count != 1 and self.kind is not PenaltyKind.RENEGE:
            raise ScoringError(f"{self.kind.label} is recorded once per offence.", field="count")
        if (self.kind is PenaltyKind.BID_OUT_OF_TURN) != (self.choice is not None):
            raise ScoringError(
                "A bid out of turn needs the wronged player's choice: take points, re-deal or continue.",
                field="choice",
            )
        if self.before_bidding and self.kind is not PenaltyKind.DEAL_OUT_OF_TURN:
            raise ScoringError("Only a deal out of turn is caught before bidding.")
        if self.kind is PenaltyKind.DIRECTOR_RULING:
            if isinstance(self.points, bool) or not isinstance(self.points, int) or not self.points:
                raise ScoringError("A director's ruling gives or takes a whole number of points.", field="points")
            if abs(self.points) > MAX_RULING_POINTS:
                raise ScoringError(
                    f"A ruling gives or takes at most {MAX_RULING_POINTS} points, not {abs(self.points)}.",
                    field="points",
                )
        elif self.points:
            raise ScoringError(f"{self.kind.label} points come from the rule set, not the entry.", field="points")

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

    @property
    def removable(self) -> bool:
        """Whether the penalty can be undone on its own: the one that caused a re-deal goes with the re-deal."""
        return not self.causes_redeal

    def describe(self, *, warning: bool = False, reason: str = "") -> str:
        """The penalty in words for the sheet and its history; ``reason`` is a ruling's written reason."""
        team = self.team.label
        if self.kind is PenaltyKind.RENEGE:
            return f"Renege by {team}" + (f" ×{self.count}" if self.count > 1 else "")
        if self.kind is PenaltyKind.BID_OUT_OF_TURN:
            choice = self.choice.label.lower() if self.choice else ""
            return f"Bid out of turn by {team}: {choice}"
        if self.kind is PenaltyKind.DEAL_OUT_OF_TURN:
            when = "caught before the first bid, re-dealt" if self.before_bidding else "the hand stands"
            return f"Deal out of turn by {team}, {when}"
        if self.kind is PenaltyKind.EXPOSED_CARD:
            return f"Exposed card by {team}" + (" (warning)" if warning else "")
        if self.kind is PenaltyKind.DIRECTOR_RULING:
            sign = "+" if self.points > 0 else "−"
            return f"Director's ruling: {sign}{abs(self.points)} to {team}" + (f": {reason}" if reason else "")
        return f"{self.kind.label} by {team}"


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
