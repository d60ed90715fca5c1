"""Scoring one hand from its bid and the bidding team's books."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.bids import Bid
from scoring.errors import ScoringError
from scoring.rules import BOOKS_PER_DEAL, DefendersOddBooks, RuleSet, SetScoring


@dataclass(frozen=True)
class HandScore:
    """Points of a hand for the bidding team and the defenders, before penalty points."""

    bidders: int
    defenders: int
    made: bool
    boston: bool


def apply_reneges(rules: RuleSet, books: int, bidders: int = 0, defenders: int = 0) -> int:
    """The bidding team's books once renege penalties have moved books between the teams.

    Each renege moves ``rules.renege_books`` from the reneging team to the other; reneges by
    both teams offset. A team that cannot give up the books it owes leaves the other all 13.
    """
    rules.check_books(books)
    for count, who in ((bidders, "bidding team"), (defenders, "defending team")):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ScoringError(f"The {who}'s reneges must be a count of 0 or more, not {count!r}.")
    moved = (defenders - bidders) * rules.renege_books
    return max(0, min(BOOKS_PER_DEAL, books + moved))


def score_hand(rules: RuleSet, bid: Bid, books: int) -> HandScore:
    """Score a hand from the bidding team's books after penalties (kitty book included)."""
    rules.check_bid(bid)
    rules.check_books(books, after_penalties=True)
    multiplier = rules.multiplier(bid)
    if books >= bid.books_needed:
        points = (books - 6) * multiplier
        boston = books == BOOKS_PER_DEAL
        if boston:
            points *= rules.boston_multiplier
        return HandScore(bidders=points, defenders=0, made=True, boston=boston)

    bid_points = bid.level * multiplier
    if rules.set_scoring is SetScoring.DEFENDERS_GAIN:
        bidders, defenders = 0, bid_points
    else:
        bidders, defenders = -bid_points, 0
    defenders += _defenders_odd_books(rules, bid, BOOKS_PER_DEAL - books)
    return HandScore(bidders=bidders, defenders=defenders, made=False, boston=False)


def _defenders_odd_books(rules: RuleSet, bid: Bid, defenders_books: int) -> int:
    if rules.defenders_odd_books is DefendersOddBooks.NONE:
        return 0
    if rules.defenders_odd_books is DefendersOddBooks.TRUMP_ONLY:
        if bid.is_no_trump:
            return 0
        threshold = 7 if bid.level == 1 else 6
    else:
        threshold = 6
    return max(0, defenders_books - threshold)
