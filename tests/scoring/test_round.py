import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    Bid,
    BidOutOfTurnChoice,
    Deal,
    Pair,
    Penalty,
    PenaltyKind,
    RuleSet,
    ScoringError,
    Seat,
    bye_points,
    penalty_points,
    score_round,
)

RULES = RuleSet()
NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def hand(dealer, bidder, bid, books, *penalties):
    return Deal(dealer=dealer, bidder=bidder, bid=Bid.parse(bid), books=books, penalties=penalties)


def test_seats_go_clockwise_and_partners_sit_opposite():
    assert [N.next, E.next, S.next, W.next] == [E, S, W, N]
    assert N.pair is S.pair is NS and E.pair is W.pair is EW
    assert NS.other is EW


def test_a_round_of_four_hands():
    deals = [
        hand(N, E, "3", 9),  # EW make 3
        hand(E, S, "4 No", 9),  # NS set: EW +8
        hand(S, W, "2 Special", 5),  # EW set: NS 2 + 2 odd books
        hand(W, N, "5", 12),  # NS make 6
    ]
    result = score_round(RULES, deals)
    assert [(line.points(NS), line.points(EW)) for line in result.lines] == [
        (0, 3),
        (0, 8),
        (4, 0),
        (6, 0),
    ]
    assert [line.totals[NS] for line in result.lines] == [0, 0, 4, 10]
    assert result.totals == {NS: 10, EW: 11}
    assert result.complete and result.winner is EW and result.hands_played == 4
    assert result.next_dealer is None
    assert result.hands_won(EW) == 2 and result.hands_won(NS) == 2


def test_a_level_round_is_a_tie():
    result = score_round(RULES, [hand(N, N, "3", 9), hand(E, E, "3", 9), hand(S, S, "1", 7), hand(W, W, "1", 7)])
    assert result.complete and result.tied and result.winner is None


def test_an_unfinished_round_has_no_winner_and_proposes_the_next_dealer():
    result = score_round(RULES, [hand(S, N, "3", 9)])
    assert not result.complete and result.winner is None
    assert result.next_dealer is W and result.next_hand_number == 2


def test_the_first_dealer_is_proposed_before_any_deal():
    result = score_round(RULES, [], first_dealer=E)
    assert result.next_dealer is E and result.next_hand_number == 1


def test_a_third_deal_by_one_team_is_refused():
    out_of_turn = Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS)
    deals = [hand(N, N, "3", 9), hand(S, N, "3", 9, out_of_turn), hand(N, N, "3", 9)]
    message = "North–South have already dealt 2 times this round; hand 3 is dealt by East or West"
    with pytest.raises(ScoringError, match=message) as refused:
        score_round(RULES, deals)
    assert refused.value.field == "dealer"
    deals[2] = hand(N, N, "3", 9, out_of_turn)
    assert score_round(RULES, deals).hands_played == 3, "marked dealt out of turn, a third deal stands"


def test_a_dealer_the_rotation_does_not_propose_is_refused_unless_marked():
    with pytest.raises(ScoringError, match="Hand 2 is dealt by East: the deal passes clockwise") as refused:
        score_round(RULES, [hand(N, N, "3", 9), hand(W, N, "3", 9)])
    assert refused.value.field == "dealer"
    marked = hand(W, N, "3", 9, Penalty(PenaltyKind.DEAL_OUT_OF_TURN, EW))
    assert score_round(RULES, [hand(N, N, "3", 9), marked]).next_dealer is N


def test_after_a_deal_out_of_turn_stands_each_team_still_deals_twice():
    # North deals hand 1; West deals hand 2 out of turn, caught after bidding: the hand stands.
    out_of_turn = Penalty(PenaltyKind.DEAL_OUT_OF_TURN, EW)
    deals = [hand(N, E, "3", 9), hand(W, N, "3", 9, out_of_turn)]
    assert score_round(RULES, deals).next_dealer is N
    deals.append(hand(N, N, "3", 9))
    assert score_round(RULES, deals).next_dealer is E
    # Had South dealt hand 3 instead (out of turn too), North–South would be done and East–West deal hand 4.
    south = hand(S, N, "3", 9, Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS))
    assert score_round(RULES, [*deals[:2], south]).next_dealer.pair is EW


def test_rotation_skips_a_team_that_has_dealt_its_share():
    # South dealt out of turn, caught after bidding began: the hand stood.
    deals = [hand(N, E, "3", 9), hand(S, E, "3", 9, Penalty(PenaltyKind.DEAL_OUT_OF_TURN, NS))]
    assert score_round(RULES, deals).next_dealer is W


def test_a_hand_after_the_last_is_refused():
    deals = [
        hand(N, N, "3", 9),
        hand(E, E, "3", 9),
        hand(S, S, "3", 9),
        hand(W, W, "3", 9),
        hand(N, N, "3", 9),
    ]
    with pytest.raises(ScoringError, match="round is over: all 4 hands"):
        score_round(RULES, deals)


def test_re_deals_score_nothing_and_the_same_hand_number_is_dealt_again():
    deals = [
        Deal(dealer=N, misdeal=True),
        hand(N, E, "3", 9),
        Deal(dealer=E, penalties=(Penalty(PenaltyKind.BID_OUT_OF_TURN, NS, choice=BidOutOfTurnChoice.REDEAL),)),
        hand(E, S, "3", 9),
    ]
    result = score_round(RULES, deals)
    assert [line.hand_number for line in result.lines] == [1, 1, 2, 2]
    assert [line.counts for line in result.lines] == [False, True, False, True]
    assert result.lines[0].points(NS) == result.lines[0].points(EW) == 0
    assert result.hands_played == 2 and result.next_dealer is S


def test_a_deal_out_of_turn_caught_before_bidding_is_re_dealt_by_the_right_dealer():
    wrong = Deal(dealer=E, penalties=(Penalty(PenaltyKind.DEAL_OUT_OF_TURN, EW, before_bidding=True),))
    result = score_round(RULES, [wrong], first_dealer=N)
    assert not result.lines[0].counts and result.next_dealer is N


def test_a_re_deal_has_no_bid_and_no_play_penalties():
    with pytest.raises(ScoringError, match="no bid"):
        Deal(dealer=N, misdeal=True, bidder=N, bid=Bid.parse("3"), books=9)
    with pytest.raises(ScoringError, match="renege"):
        Deal(dealer=N, misdeal=True, penalties=(Penalty(PenaltyKind.RENEGE, NS),))


def test_a_played_hand_needs_its_bid_and_books():
    with pytest.raises(ScoringError, match="bidding seat, the bid and the books"):
        Deal(dealer=N, bidder=E, bid=Bid.parse("3"))


def test_a_renege_moves_books_before_scoring():
    # East-West bid 3 and take 9, but East reneged: 6 books, set; North-South score 3 + 1 odd book.
    result = score_round(RULES, [hand(N, E, "3", 9, Penalty(PenaltyKind.RENEGE, EW))])
    line = result.lines[0]
    assert line.books_after_penalties == 6
    assert (line.points(NS), line.points(EW)) == (4, 0)


def test_bid_out_of_turn_choices():
    def with_choice(choice):
        penalty = Penalty(PenaltyKind.BID_OUT_OF_TURN, EW, choice=choice)
        return score_round(RULES, [hand(N, N, "3", 9, penalty)]).lines[0]

    taken = with_choice(BidOutOfTurnChoice.TAKE_POINTS)
    assert (taken.penalty_points[NS], taken.points(NS)) == (3, 6)
    continued = with_choice(BidOutOfTurnChoice.CONTINUE)
    assert continued.penalty_points == {NS: 0, EW: 0} and continued.points(NS) == 3


def test_play_out_of_turn_gives_the_opponents_the_rule_sets_points():
    rules = RuleSet(play_out_of_turn_points=5)
    line = score_round(rules, [hand(N, N, "3", 9, Penalty(PenaltyKind.PLAY_OUT_OF_TURN, NS))]).lines[0]
    assert (line.points(NS), line.points(EW)) == (3, 5)


def test_a_teams_first_exposed_card_in_a_round_is_a_warning():
    exposed_ns = Penalty(PenaltyKind.EXPOSED_CARD, NS)
    exposed_ew = Penalty(PenaltyKind.EXPOSED_CARD, EW)
    deals = [
        hand(N, N, "3", 9, exposed_ns),
        hand(E, N, "3", 9, exposed_ns, exposed_ew),
        hand(S, N, "3", 9, exposed_ns),
    ]
    lines = score_round(RULES, deals).lines
    assert lines[0].warnings == (exposed_ns,) and lines[0].penalty_points == {NS: 0, EW: 0}
    assert lines[1].warnings == (exposed_ew,) and lines[1].penalty_points == {NS: 0, EW: 3}
    assert lines[2].penalty_points == {NS: 0, EW: 3}


def test_director_rulings_on_a_hand_and_on_the_round():
    ruling = Penalty(PenaltyKind.DIRECTOR_RULING, EW, points=-2)
    result = score_round(
        RULES,
        [hand(N, E, "3", 10, ruling)],
        rulings=[Penalty(PenaltyKind.DIRECTOR_RULING, NS, points=5)],
    )
    assert result.lines[0].points(EW) == 2
    assert result.totals == {NS: 5, EW: 2}


def test_a_ruling_on_the_round_is_not_in_the_running_totals_of_the_deals_listed_before_it():
    """The sheet lists the round's rulings after its deals: hand 1's running total is hand 1's points."""
    deals = [hand(N, E, "3", 10), hand(E, N, "2", 8)]
    result = score_round(RULES, deals, rulings=[Penalty(PenaltyKind.DIRECTOR_RULING, NS, points=10)])
    assert [line.totals for line in result.lines] == [{NS: 0, EW: 4}, {NS: 2, EW: 4}]
    assert result.totals == {NS: 12, EW: 4}


def test_only_rulings_apply_to_the_round_as_a_whole():
    with pytest.raises(ScoringError):
        score_round(RULES, [], rulings=[Penalty(PenaltyKind.PLAY_OUT_OF_TURN, NS)])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": PenaltyKind.BID_OUT_OF_TURN, "team": NS}, "wronged player's choice"),
        ({"kind": PenaltyKind.DIRECTOR_RULING, "team": NS}, "whole number of points"),
        ({"kind": PenaltyKind.PLAY_OUT_OF_TURN, "team": NS, "points": 4}, "come from the rule set"),
        ({"kind": PenaltyKind.EXPOSED_CARD, "team": NS, "count": 2}, "once per offence"),
        ({"kind": PenaltyKind.RENEGE, "team": NS, "count": 0}, "1 or more"),
        ({"kind": PenaltyKind.RENEGE, "team": "XY"}, "Choose the team"),
    ],
)
def test_impossible_penalties_are_refused(kwargs, message):
    with pytest.raises(ScoringError, match=message):
        Penalty(**kwargs)


def test_penalty_points_for_each_kind():
    points = {
        kind: penalty_points(RULES, Penalty(kind, NS, choice="take_points" if kind == "bid_out_of_turn" else None))
        for kind in (
            PenaltyKind.RENEGE,
            PenaltyKind.BID_OUT_OF_TURN,
            PenaltyKind.PLAY_OUT_OF_TURN,
            PenaltyKind.DEAL_OUT_OF_TURN,
            PenaltyKind.EXPOSED_CARD,
        )
    }
    assert points[PenaltyKind.RENEGE] == {NS: 0, EW: 0}
    assert points[PenaltyKind.BID_OUT_OF_TURN] == {NS: 0, EW: 3}
    assert points[PenaltyKind.PLAY_OUT_OF_TURN] == {NS: 0, EW: 3}
    assert points[PenaltyKind.DEAL_OUT_OF_TURN] == {NS: 0, EW: 0}
    assert points[PenaltyKind.EXPOSED_CARD] == {NS: 0, EW: 3}
    assert penalty_points(RULES, Penalty(PenaltyKind.EXPOSED_CARD, NS), warning=True) == {NS: 0, EW: 0}


def test_a_tied_playoff_match_goes_on_one_hand_at_a_time():
    level = [hand(N, N, "3", 9), hand(E, E, "3", 9), hand(S, S, "1", 7), hand(W, W, "1", 7)]
    result = score_round(RULES, level, tiebreak=True)
    assert not result.complete and result.next_dealer is N and result.next_hand_number == 5
    decided = score_round(RULES, [*level, hand(N, E, "2", 8)], tiebreak=True)
    assert decided.complete and decided.winner is EW
    with pytest.raises(ScoringError, match="only while it is tied"):
        score_round(RULES, [*level, hand(N, E, "2", 8), hand(E, E, "2", 8)], tiebreak=True)


def test_bye_points_average_the_rounds_winners_rounded_half_up():
    assert bye_points(RULES, [10, 7, 8]) == 8
    assert bye_points(RULES, [5, 6]) == 6
    assert bye_points(RULES, []) == 0
    assert bye_points(RuleSet(bye_scoring="win_only"), [10, 7]) == 0


seats = st.sampled_from(list(Seat))


@st.composite
def legal_rounds(draw):
    """Four hands dealt by the proposed dealer each time, with random bids and books."""
    first = draw(seats)
    deals = []
    for _ in range(4):
        dealer = score_round(RULES, deals, first_dealer=first).next_dealer
        bid = Bid(draw(st.integers(1, 7)), draw(st.sampled_from(["high", "low", "nt"])))
        deals.append(Deal(dealer=dealer, bidder=draw(seats), bid=bid, books=draw(st.integers(0, 13))))
    return first, deals


@given(legal_rounds())
def test_following_the_proposals_each_team_deals_twice(round_):
    first, deals = round_
    result = score_round(RULES, deals, first_dealer=first)
    assert result.complete
    assert sorted(deal.dealer.pair for deal in deals) == [EW, EW, NS, NS]
    assert [deal.dealer for deal in deals] == [first, first.next, first.next.next, first.next.next.next]
    assert result.totals[NS] == sum(line.points(NS) for line in result.lines)
    assert result.totals[NS] >= 0 and result.totals[EW] >= 0
