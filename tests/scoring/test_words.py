"""The engine's vocabulary and the small rules every layer asks it: how things are written and decided."""

import pytest

from scoring import (
    Bid,
    BidKind,
    BidOutOfTurnChoice,
    Contract,
    Deal,
    Direction,
    Pair,
    Penalty,
    PenaltyKind,
    RedealReason,
    RuleSet,
    ScoringError,
    Seat,
    Suit,
    penalty_rules,
    round_winner,
    score_round,
)

NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST


def test_each_term_is_its_stored_value_with_a_label():
    assert Seat("N") is Seat.NORTH and Seat.NORTH == "N" and Seat.NORTH.label == "North"
    assert Pair.choices() == [("NS", "North–South"), ("EW", "East–West")]
    assert BidKind.values() == ["high", "low", "nt"]
    assert [kind.label for kind in BidKind] == ["Uptown", "Downtown", "No Trump"]
    assert [suit.symbol for suit in Suit] == ["♠", "♥", "♦", "♣"]
    assert [suit.red for suit in Suit] == [False, True, True, False]
    assert [seat.position for seat in Seat] == [0, 0, 1, 1], "each team's first player sits North or East"


@pytest.mark.parametrize(
    ("contract", "written"),
    [
        (Contract(Bid(4, BidKind.HIGH), Suit.SPADES), "4 Uptown ♠"),
        (Contract(Bid(4, BidKind.LOW), "hearts"), "4 Downtown ♥"),
        (Contract(Bid(4, BidKind.LOW)), "4 Downtown"),
        (Contract(Bid(3, BidKind.NO_TRUMP), direction="down"), "3 No Trump (downtown)"),
        (Contract(Bid(3, BidKind.NO_TRUMP)), "3 No Trump (uptown)"),
    ],
)
def test_a_contract_is_written_in_the_players_words(contract, written):
    assert str(contract) == written


def test_no_trump_with_no_direction_is_played_up():
    assert Contract(Bid(2, BidKind.NO_TRUMP)).direction is Direction.UP


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Contract(Bid(3, BidKind.NO_TRUMP), Suit.CLUBS), "suit"),
        (lambda: Contract(Bid(3, BidKind.HIGH), direction="up"), "direction"),
        (lambda: Contract(Bid(3, BidKind.HIGH), "stars"), "suit"),
        (lambda: Bid(9, BidKind.HIGH), "level"),
        (lambda: Bid(3, "sideways"), "kind"),
        (lambda: RuleSet(min_bid=3).check_bid(Bid(2, BidKind.HIGH)), "level"),
        (lambda: RuleSet().check_books(14), "books"),
        (lambda: Penalty(PenaltyKind.RENEGE, "XY"), "team"),
        (lambda: Penalty("cheating", NS), "kind"),
        (lambda: Penalty(PenaltyKind.BID_OUT_OF_TURN, NS), "choice"),
        (lambda: RuleSet(min_bid=0), "min_bid"),
    ],
)
def test_each_refusal_names_the_entry_it_concerns(make, field):
    with pytest.raises(ScoringError) as refused:
        make()
    assert refused.value.field == field


def test_a_third_deal_is_refused_beside_the_dealer():
    deals = [
        Deal(Seat.NORTH, Seat.NORTH, Bid(3, BidKind.HIGH), 9),
        Deal(Seat.SOUTH, Seat.NORTH, Bid(3, BidKind.HIGH), 9),
    ]
    with pytest.raises(ScoringError) as refused:
        score_round(RuleSet(), [*deals, Deal(Seat.NORTH, Seat.EAST, Bid(3, BidKind.HIGH), 9)])
    assert refused.value.field == "dealer"


@pytest.mark.parametrize(
    ("penalty", "words"),
    [
        (Penalty(PenaltyKind.RENEGE, EW, count=2), "Renege by East–West ×2"),
        (Penalty(PenaltyKind.BID_OUT_OF_TURN, NS, choice="take_points"), "Bid out of turn by North–South: take points"),
        (Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS), "Deal out of turn by North–South, the hand stands"),
        (
            Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS, before_bidding=True),
            "Deal out of turn by North–South, caught before the first bid, re-dealt",
        ),
        (Penalty(PenaltyKind.PLAY_OUT_OF_TURN, EW), "Play out of turn by East–West"),
        (Penalty(PenaltyKind.DIRECTOR_RULING, EW, points=-2), "Director's ruling: −2 to East–West"),
    ],
)
def test_a_penalty_is_described_in_words(penalty, words):
    assert penalty.describe() == words


def test_warnings_and_reasons_are_part_of_the_description():
    assert Penalty(PenaltyKind.EXPOSED_CARD, NS).describe(warning=True) == "Exposed card by North–South (warning)"
    ruling = Penalty(PenaltyKind.DIRECTOR_RULING, NS, points=3)
    assert ruling.describe(reason="Slow play") == "Director's ruling: +3 to North–South: Slow play"


def test_only_the_penalty_that_caused_a_re_deal_goes_with_it():
    assert not Penalty(PenaltyKind.BID_OUT_OF_TURN, NS, choice=BidOutOfTurnChoice.REDEAL).removable
    assert not Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS, before_bidding=True).removable
    assert Penalty(PenaltyKind.BID_OUT_OF_TURN, NS, choice=BidOutOfTurnChoice.TAKE_POINTS).removable
    assert Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS).removable


def test_a_re_deal_reason_records_the_penalty_that_explains_it():
    assert RedealReason.MISDEAL.penalty(NS) is None and not RedealReason.MISDEAL.names_a_team
    dealt = RedealReason.DEAL_OUT_OF_TURN.penalty(EW)
    assert dealt.causes_redeal and dealt.team is EW and dealt.before_bidding
    bid = RedealReason.BID_OUT_OF_TURN.penalty(NS)
    assert bid.causes_redeal and bid.choice is BidOutOfTurnChoice.REDEAL


def test_who_won_a_round():
    assert round_winner({NS: 5, EW: 3}, complete=True) is NS
    assert round_winner({NS: 3, EW: 5}, complete=True) is EW
    assert round_winner({NS: 4, EW: 4}, complete=True) is None, "a tie"
    assert round_winner({NS: 5, EW: 3}, complete=False) is None, "a round in play has no winner yet"


def test_results_come_back_in_the_order_given():
    """One line per deal, one per penalty of each deal, one per ruling: the caller pairs them by position."""
    first_exposed = Penalty(PenaltyKind.EXPOSED_CARD, NS)
    second_exposed = Penalty(PenaltyKind.EXPOSED_CARD, NS)
    renege = Penalty(PenaltyKind.RENEGE, EW)
    deals = [
        Deal(Seat.NORTH, Seat.NORTH, Bid(3, BidKind.HIGH), 9, penalties=(first_exposed, renege, second_exposed)),
    ]
    rulings = [Penalty(PenaltyKind.DIRECTOR_RULING, EW, points=2), Penalty(PenaltyKind.DIRECTOR_RULING, NS, points=-1)]
    result = score_round(RuleSet(), deals, rulings=rulings)
    lines = result.lines[0].penalties
    assert [line.penalty for line in lines] == [first_exposed, renege, second_exposed]
    assert [line.warning for line in lines] == [True, False, False]
    assert [line.points for line in lines] == [{NS: 0, EW: 0}, {NS: 0, EW: 0}, {NS: 0, EW: 3}]
    assert [line.points for line in result.rulings] == [{NS: 0, EW: 2}, {NS: -1, EW: 0}]


def test_the_penalty_rules_are_said_with_the_rule_sets_numbers():
    """The sheets and the penalty form say each penalty's points from the engine: a kind whose points the rule
    set fixes is listed with them; a deal out of turn (no points) and a ruling (points entered) are not."""
    rules = RuleSet().replace(
        renege_books=2, bid_out_of_turn_points=4, play_out_of_turn_points=5, exposed_card_points=6
    )
    assert dict(penalty_rules(rules)) == {
        PenaltyKind.RENEGE: "2 books to the other team before scoring",
        PenaltyKind.BID_OUT_OF_TURN: "the wronged player takes 4 points, a re-deal, or play on",
        PenaltyKind.PLAY_OUT_OF_TURN: "5 points to the opponents",
        PenaltyKind.EXPOSED_CARD: "a warning the first time, then 6 points",
    }


def test_a_pair_in_short_is_its_seats_letters():
    assert [pair.short for pair in Pair] == ["N–S", "E–W"]
