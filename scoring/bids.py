"""Bids, trump suits and no-trump directions, in the words players use at the table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from scoring.errors import ScoringError

MAX_LEVEL = 7


class BidKind(StrEnum):
    HIGH = "high"
    LOW = "low"
    NO_TRUMP = "nt"


class Suit(StrEnum):
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"


class Direction(StrEnum):
    """The card order a no-trump bidder names after winning; up when none is named."""

    UP = "up"
    DOWN = "down"


# Every spelling RULES.md accepts after the level, with spaces removed and lower-cased.
_KIND_WORDS = {
    "": BidKind.HIGH,
    "card": BidKind.HIGH,
    "high": BidKind.HIGH,
    "up": BidKind.HIGH,
    "uptown": BidKind.HIGH,
    "special": BidKind.LOW,
    "low": BidKind.LOW,
    "down": BidKind.LOW,
    "downtown": BidKind.LOW,
    "no": BidKind.NO_TRUMP,
    "nt": BidKind.NO_TRUMP,
    "notrump": BidKind.NO_TRUMP,
}
_BID_PATTERN = re.compile(r"(\d+)([a-z]*)")
_TOURNAMENT_WORDS = {BidKind.HIGH: "", BidKind.LOW: " Special", BidKind.NO_TRUMP: " No"}


@dataclass(frozen=True)
class Bid:
    """A level from 1 to 7 (books over six the bidders promise) and a kind."""

    level: int
    kind: BidKind

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int):
            raise ScoringError(f"A bid's level must be a whole number, not {self.level!r}.")
        if not 1 <= self.level <= MAX_LEVEL:
            raise ScoringError(f"A bid's level is 1 to {MAX_LEVEL}; {self.level} is not a bid.")
        try:
            kind = BidKind(self.kind)
        except ValueError:
            raise ScoringError(f"A bid is high, low (Special) or no trump; {self.kind!r} is none of them.") from None
        object.__setattr__(self, "kind", kind)

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid as a scorekeeper writes it: "4", "4 uptown", "2 Special", "3 No", "3 NT"..."""
        if not isinstance(text, str):
            raise ScoringError(f"A bid is written like 4, 4 Special or 4 No, not {text!r}.")
        compact = re.sub(r"\s+", "", text).lower()
        match = _BID_PATTERN.fullmatch(compact)
        if not match or match.group(2) not in _KIND_WORDS:
            raise ScoringError(f"{text.strip()!r} is not a bid: write it like 4, 4 Special or 4 No.")
        return cls(int(match.group(1)), _KIND_WORDS[match.group(2)])

    @property
    def is_no_trump(self) -> bool:
        return self.kind is BidKind.NO_TRUMP

    @property
    def books_needed(self) -> int:
        """The bidding team needs six books plus the level."""
        return 6 + self.level

    def __str__(self) -> str:
        return f"{self.level}{_TOURNAMENT_WORDS[self.kind]}"
