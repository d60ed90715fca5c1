"""The Bid Whist rules engine: bids, rule sets, hand and round scoring, penalties.

Plain Python with no database: the Django app loads records, calls these functions and stores
what they return.
"""

from scoring.absence import Absent, forfeit_allowed_from
from scoring.bids import Bid, BidKind, Contract, Direction, Suit
from scoring.clock import Clock, ClockLevel, Projection, clock_text, projected_finish
from scoring.errors import ScoringError
from scoring.hand import HandScore, apply_reneges, score_hand
from scoring.outcome import Credit, Result, TableOutcome, TeamOutcome, team_outcome
from scoring.penalties import (
    BidOutOfTurnChoice,
    Penalty,
    PenaltyKind,
    RedealReason,
    penalty_points,
    penalty_rules,
)
from scoring.round import Deal, DealLine, PenaltyLine, RoundScore, bye_points, round_winner, score_round
from scoring.rules import (
    PRESETS,
    SETTINGS,
    TIMING_SETTINGS,
    ByeScoring,
    DealStyle,
    DefendersOddBooks,
    RuleSet,
    SetScoring,
)
from scoring.table import Pair, Seat
from scoring.terms import Term

__all__ = [
    "PRESETS",
    "SETTINGS",
    "TIMING_SETTINGS",
    "Absent",
    "Bid",
    "BidKind",
    "BidOutOfTurnChoice",
    "ByeScoring",
    "Clock",
    "ClockLevel",
    "Contract",
    "Credit",
    "Deal",
    "DealLine",
    "DealStyle",
    "DefendersOddBooks",
    "Direction",
    "HandScore",
    "Pair",
    "Penalty",
    "PenaltyKind",
    "PenaltyLine",
    "Projection",
    "RedealReason",
    "Result",
    "RoundScore",
    "RuleSet",
    "ScoringError",
    "Seat",
    "SetScoring",
    "Suit",
    "TableOutcome",
    "TeamOutcome",
    "Term",
    "apply_reneges",
    "bye_points",
    "clock_text",
    "forfeit_allowed_from",
    "penalty_points",
    "penalty_rules",
    "projected_finish",
    "round_winner",
    "score_hand",
    "score_round",
    "team_outcome",
]
