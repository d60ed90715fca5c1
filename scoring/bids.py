"""Bids, trump suits and no-trump directions, in the words players use at the table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from scoring.errors import ScoringError
from scoring.terms import Term

T = TypeVar("T", bound=Term)

MAX_LEVEL = 7


class BidKind(Term):
    """A bid's kind, named as players call it at the table ("4 Uptown"): every page, sheet and doc reads the label."""

    HIGH = "high", "Uptown"
    LOW = "low", "Downtown"
    NO_TRUMP = "nt", "No Trump"


class Suit(Term):
    SPADES = "spades", "Spades"
    HEARTS = "hearts", "Hearts"
    DIAMONDS = "diamonds", "Diamonds"
    CLUBS = "clubs", "Clubs"

    @property
    def symbol(self) -> str:
        return {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Direction(Term):
    """The card order a no-trump bidder names after winning; up when none is named."""

    UP = "up", "Uptown"
    DOWN = "down", "Downtown"


# Every spelling a scorekeeper may write after the level, with spaces removed and lower-cased: the players' words,
# their short forms and the words of older rule sheets.
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
EXAMPLES = f"4 {BidKind.HIGH.label}, 4 {BidKind.LOW.label} or 4 {BidKind.NO_TRUMP.label}"


@dataclass(frozen=True)
class Bid:
    """A level from 1 to 7 (books over six the bidders promise) and a kind."""

    level: int
    kind: BidKind

    def __post_init__(self) -> None:
        if isinstance(self.level, bool) or not isinstance(self.level, int):
            raise ScoringError(f"A bid's level must be a whole number, not {self.level!r}.", field="level")
        if not 1 <= self.level <= MAX_LEVEL:
            raise ScoringError(f"A bid's level is 1 to {MAX_LEVEL}; {self.level} is not a bid.", field="level")
        try:
            kind = BidKind(self.kind)
        except ValueError:
            raise ScoringError(
                f"A bid is Uptown, Downtown or No Trump; {self.kind!r} is none of them.", field="kind"
            ) from None
        object.__setattr__(self, "kind", kind)

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid as a scorekeeper writes it: "4", "4 uptown", "2 downtown", "3 No Trump", "3 NT"..."""
        if not isinstance(text, str):
            raise ScoringError(f"A bid is written like {EXAMPLES}, not {text!r}.")
        compact = re.sub(r"\s+", "", text).lower()
        match = _BID_PATTERN.fullmatch(compact)
        if not match or match.group(2) not in _KIND_WORDS:
            raise ScoringError(f"{text.strip()!r} is not a bid: write it like {EXAMPLES}.")
        return cls(int(match.group(1)), _KIND_WORDS[match.group(2)])

    @property
    def is_no_trump(self) -> bool:
        return self.kind is BidKind.NO_TRUMP

    @property
    def books_needed(self) -> int:
        """The bidding team needs six books plus the level."""
        return 6 + self.level

    def __str__(self) -> str:
        return f"{self.level} {self.kind.label}"


@dataclass(frozen=True)
class Contract:
    """The winning bid with what its bidder named: a trump suit for high or low, a direction for no trump.

    A no-trump bid with no direction named is played up. A trump bid's suit may be left unnamed (the suit
    of the first card played is trump); scoring never needs it.
    """

    bid: Bid
    suit: Suit | None = None
    direction: Direction | None = None

    def __post_init__(self) -> None:
        suit = _term(Suit, self.suit, "suit", "Choose a trump suit: spades, hearts, diamonds or clubs.")
        direction = _term(Direction, self.direction, "direction", "No trump is played up or down.")
        if self.bid.is_no_trump:
            if suit is not None:
                raise ScoringError("A no-trump bid has no trump suit.", field="suit")
            direction = direction or Direction.UP
        elif direction is not None:
            raise ScoringError("Only a no-trump bid is played up or down.", field="direction")
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "direction", direction)

    def __str__(self) -> str:
        """The bid in players' words with its trump or direction: "4 Downtown ♥", "3 No Trump (downtown)"."""
        if self.bid.is_no_trump:
            assert self.direction is not None, "a no-trump contract is played up or down"
            return f"{self.bid} ({self.direction.label.lower()})"
        return f"{self.bid} {self.suit.symbol}" if self.suit else str(self.bid)


def _term(kind: type[T], value: object, field: str, message: str) -> T | None:
    if value in (None, ""):
        return None
    try:
        return kind(str(value))
    except ValueError:
        raise ScoringError(message, field=field) from None
