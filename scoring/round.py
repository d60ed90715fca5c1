"""A round at a table: its deals in order, the dealer rotation, penalties and the result."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scoring.bids import Bid
from scoring.errors import ScoringError
from scoring.hand import HandScore, apply_reneges, score_hand
from scoring.penalties import Penalty, PenaltyKind, penalty_points
from scoring.rules import ByeScoring, RuleSet
from scoring.table import Pair, Seat


@dataclass(frozen=True)
class Deal:
    """One deal as recorded: a played hand, or a re-deal that does not count.

    ``books`` are the bidding team's books as played (kitty included), before renege penalties.
    """

    dealer: Seat
    bidder: Seat | None = None
    bid: Bid | None = None
    books: int | None = None
    misdeal: bool = False
    penalties: tuple[Penalty, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealer", Seat(self.dealer))
        if self.bidder is not None:
            object.__setattr__(self, "bidder", Seat(self.bidder))
        object.__setattr__(self, "penalties", tuple(self.penalties))
        redeals = [p for p in self.penalties if p.causes_redeal]
        if len(redeals) + self.misdeal > 1:
            raise ScoringError("A deal is re-dealt for one reason only.")
        if self.counts:
            if self.bidder is None or self.bid is None or self.books is None:
                raise ScoringError("A played hand needs the bidding seat, the bid and the books won.")
        else:
            if self.bidder is not None or self.bid is not None or self.books is not None:
                raise ScoringError("A re-deal is not played: it has no bid and no books.")
            if any(p.needs_play for p in self.penalties):
                raise ScoringError("A re-deal is not played, so nobody can renege or play out of turn.")

    @property
    def counts(self) -> bool:
        return not self.misdeal and not any(p.causes_redeal for p in self.penalties)

    @property
    def out_of_turn(self) -> bool:
        """Dealt by the wrong seat and caught only once bidding had begun: the hand stands (its mark is the
        deal-out-of-turn penalty that does not cause a re-deal)."""
        return any(p.kind is PenaltyKind.DEAL_OUT_OF_TURN and not p.causes_redeal for p in self.penalties)

    @property
    def bidding_pair(self) -> Pair | None:
        return self.bidder.pair if self.bidder else None


@dataclass(frozen=True)
class PenaltyLine:
    """A penalty as scored: whether it was only a warning, and the points it gave each team."""

    penalty: Penalty
    warning: bool
    points: dict[Pair, int]


@dataclass(frozen=True)
class DealLine:
    """A deal as scored, with both teams' points and the running totals of the deals up to it.

    ``penalties`` holds one line per penalty of the deal, in the order the deal lists them.
    """

    hand_number: int
    deal: Deal
    hand: HandScore | None
    books_after_penalties: int | None
    hand_points: dict[Pair, int]
    penalty_points: dict[Pair, int]
    penalties: tuple[PenaltyLine, ...]
    totals: dict[Pair, int]

    @property
    def warnings(self) -> tuple[Penalty, ...]:
        return tuple(line.penalty for line in self.penalties if line.warning)

    @property
    def counts(self) -> bool:
        return self.deal.counts

    def points(self, pair: Pair) -> int:
        return self.hand_points[pair] + self.penalty_points[pair]


def round_winner(totals: Mapping[Pair, int], *, complete: bool) -> Pair | None:
    """The team with more points once the round is complete; None for a tie or a round in play."""
    if not complete:
        return None
    ns, ew = totals[Pair.NORTH_SOUTH], totals[Pair.EAST_WEST]
    if ns == ew:
        return None
    return Pair.NORTH_SOUTH if ns > ew else Pair.EAST_WEST


@dataclass(frozen=True)
class RoundScore:
    """A round as scored: one line per deal and one per ruling, each in the order given."""

    lines: tuple[DealLine, ...]
    rulings: tuple[PenaltyLine, ...]
    totals: dict[Pair, int]
    hands_played: int
    complete: bool
    next_dealer: Seat | None
    next_hand_number: int | None

    @property
    def winner(self) -> Pair | None:
        return round_winner(self.totals, complete=self.complete)

    @property
    def tied(self) -> bool:
        return self.complete and self.winner is None

    def hands_won(self, pair: Pair) -> int:
        """Hands in which the team's hand points beat the other team's."""
        return sum(1 for line in self.lines if line.counts and line.hand_points[pair] > line.hand_points[pair.other])


def _zero() -> dict[Pair, int]:
    return {Pair.NORTH_SOUTH: 0, Pair.EAST_WEST: 0}


def _hand_points(rules: RuleSet, deal: Deal) -> tuple[HandScore, int, dict[Pair, int]]:
    bidders = deal.bidding_pair
    assert bidders is not None and deal.bid is not None and deal.books is not None, "a played deal (checked)"
    reneges = _zero()
    for penalty in deal.penalties:
        if penalty.kind is PenaltyKind.RENEGE:
            reneges[penalty.team] += penalty.count
    books = apply_reneges(rules, deal.books, bidders=reneges[bidders], defenders=reneges[bidders.other])
    score = score_hand(rules, deal.bid, books)
    return score, books, {bidders: score.bidders, bidders.other: score.defenders}


class _Rotation:
    """Tracks who has dealt so each team deals its share, and proposes the next dealer."""

    def __init__(self, rules: RuleSet, first_dealer: Seat | None) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.last_dealer: Seat | None = None
        self.dealt = {Pair.NORTH_SOUTH: 0, Pair.EAST_WEST: 0}
        self.hands = 0

    @property
    def in_regulation(self) -> bool:
        return self.hands < self.rules.hands_per_round

    def proposal(self) -> Seat | None:
        if self.last_dealer is None:
            return self.first_dealer
        seat = self.last_dealer.next
        if self.in_regulation:
            for _ in range(4):
                if self.dealt[seat.pair] < self.rules.deals_per_team:
                    return seat
                seat = seat.next
        return seat

    def check(self, dealer: Seat, *, out_of_turn: bool = False) -> None:
        """Refuse a dealer the rotation does not propose, unless the hand is marked dealt out of turn.

        The mark is the one way a team deals a third time in a round (the rules, Deal).
        """
        if out_of_turn:
            return
        share = self.rules.deals_per_team
        hand_number = self.hands + 1
        if self.in_regulation and self.dealt[dealer.pair] >= share:
            others = " or ".join(seat.label for seat in dealer.pair.other.seats)
            raise ScoringError(
                f"{dealer.pair.label} have already dealt {share} times this round; hand {hand_number} is dealt by "
                f"{others}. If {dealer.label} dealt out of turn and bidding had begun, mark the hand so.",
                field="dealer",
            )
        expected = self.proposal()
        if expected is not None and dealer != expected:
            raise ScoringError(
                f"Hand {hand_number} is dealt by {expected.label}: the deal passes clockwise. If {dealer.label} "
                "dealt out of turn and bidding had begun, mark the hand so; caught before the first bid, it is a "
                "re-deal.",
                field="dealer",
            )

    def record(self, dealer: Seat) -> None:
        if self.in_regulation:
            self.dealt[dealer.pair] += 1
        self.last_dealer = dealer
        self.hands += 1


def score_round(
    rules: RuleSet,
    deals: Sequence[Deal],
    *,
    first_dealer: Seat | None = None,
    rulings: Sequence[Penalty] = (),
    tiebreak: bool = False,
    time_called: bool = False,
) -> RoundScore:
    """Score a round's deals in the order they were dealt.

    ``first_dealer`` is the seat dealt the first diamond (default: the first deal's dealer).
    ``rulings`` are director's rulings on the round as a whole. With ``tiebreak`` (a playoff
    match) a round level after its regulation hands goes on one hand at a time until a team leads.
    With ``time_called`` (the rules, Time) the round is over with the hands played (a tied playoff match still
    goes on one hand at a time); staff may still enter a hand after the call.
    Raises ``ScoringError`` for a third deal by one team or a hand after the round is over.
    """
    if first_dealer is None and deals:
        first_dealer = deals[0].dealer
    rotation = _Rotation(rules, Seat(first_dealer) if first_dealer else None)
    totals = _zero()
    ruled = _zero()
    ruling_lines = []
    for ruling in rulings:
        if ruling.kind is not PenaltyKind.DIRECTOR_RULING:
            raise ScoringError("Only a director's ruling applies to the round as a whole.")
        points = penalty_points(rules, ruling)
        ruling_lines.append(PenaltyLine(ruling, False, points))
        for pair in Pair:
            totals[pair] += points[pair]
            ruled[pair] += points[pair]
    exposed = _zero()
    lines = []

    def over() -> bool:
        if rotation.in_regulation:
            return False
        return not tiebreak or totals[Pair.NORTH_SOUTH] != totals[Pair.EAST_WEST]

    for deal in deals:
        if over():
            raise ScoringError(
                f"The round is over: all {rules.hands_per_round} hands are recorded."
                + (" A tied match goes on one hand at a time only while it is tied." if tiebreak else "")
            )
        hand_number = rotation.hands + 1
        hand = books = None
        hand_points = _zero()
        if deal.counts:
            rotation.check(deal.dealer, out_of_turn=deal.out_of_turn)
            hand, books, hand_points = _hand_points(rules, deal)
        extra = _zero()
        penalty_lines = []
        for penalty in deal.penalties:
            warning = False
            if penalty.kind is PenaltyKind.EXPOSED_CARD:
                warning = exposed[penalty.team] == 0
                exposed[penalty.team] += 1
            points = penalty_points(rules, penalty, warning=warning)
            penalty_lines.append(PenaltyLine(penalty, warning, points))
            for pair in Pair:
                extra[pair] += points[pair]
        for pair in Pair:
            totals[pair] += hand_points[pair] + extra[pair]
        if deal.counts:
            rotation.record(deal.dealer)
        lines.append(
            DealLine(
                hand_number=hand_number,
                deal=deal,
                hand=hand,
                books_after_penalties=books,
                hand_points=hand_points,
                penalty_points=extra,
                penalties=tuple(penalty_lines),
                # The running totals of the deals alone: the sheet lists the round's rulings after its deals.
                totals={pair: totals[pair] - ruled[pair] for pair in Pair},
            )
        )
    complete = over() or (time_called and (not tiebreak or totals[Pair.NORTH_SOUTH] != totals[Pair.EAST_WEST]))
    return RoundScore(
        lines=tuple(lines),
        rulings=tuple(ruling_lines),
        totals=dict(totals),
        hands_played=rotation.hands,
        complete=complete,
        next_dealer=None if complete else rotation.proposal(),
        next_hand_number=None if complete else rotation.hands + 1,
    )


def bye_points(rules: RuleSet, winners_points: Sequence[int]) -> int:
    """Points credited for a bye: by default the average of the round's winners, rounded half up."""
    if rules.bye_scoring is ByeScoring.WIN_ONLY or not winners_points:
        return 0
    total, count = sum(winners_points), len(winners_points)
    return (2 * total + count) // (2 * count)
