import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    SETTINGS,
    Bid,
    BidKind,
    DealStyle,
    DefendersOddBooks,
    RuleSet,
    ScoringError,
    SetScoring,
)

ALL_BIDS = [Bid(level, kind) for level in range(1, 8) for kind in BidKind]
bids = st.sampled_from(ALL_BIDS)
rule_sets = st.sampled_from([RuleSet.preset("tournament"), RuleSet.preset("kitty"), RuleSet(low_beats_high=True)])


def test_tournament_preset_is_the_rule_sheet():
    rules = RuleSet.preset("tournament")
    assert rules == RuleSet()
    assert rules.deal is DealStyle.STRAIGHT and rules.jokers == 0 and rules.kitty_size == 0
    assert rules.min_bid == 1 and rules.low_beats_high is False
    assert rules.no_trump_multiplier == 2
    assert rules.set_scoring is SetScoring.DEFENDERS_GAIN
    assert rules.defenders_odd_books is DefendersOddBooks.TRUMP_ONLY
    assert rules.boston_multiplier == 1
    assert rules.renege_books == 3
    assert (rules.bid_out_of_turn_points, rules.play_out_of_turn_points, rules.exposed_card_points) == (
        3,
        3,
        3,
    )
    assert rules.hands_per_round == 4 and rules.deals_per_team == 2


def test_kitty_preset_is_the_social_game():
    rules = RuleSet.preset("kitty")
    assert rules.deal is DealStyle.KITTY and rules.jokers == 2 and rules.kitty_size == 6
    assert rules.min_bid == 3
    assert rules.set_scoring is SetScoring.BIDDERS_LOSE
    assert rules.defenders_odd_books is DefendersOddBooks.NONE
    assert rules.no_trump_multiplier == 2 and rules.boston_multiplier == 4


def test_unknown_preset_is_refused():
    with pytest.raises(ScoringError, match="no preset called 'bridge'"):
        RuleSet.preset("bridge")


@pytest.mark.parametrize("name", ["tournament", "kitty"])
def test_dict_round_trip(name):
    rules = RuleSet.preset(name)
    stored = rules.to_dict()
    assert all(isinstance(value, (str, int, bool)) for value in stored.values())
    assert RuleSet.from_dict(stored) == rules


def test_from_dict_fills_settings_missing_from_older_data():
    assert RuleSet.from_dict({"min_bid": 2}) == RuleSet(min_bid=2)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kitty": True}, "Unknown rule set setting: kitty"),
        ({"min_bid": 0}, "Minimum bid: 0 is outside 1 to 7"),
        ({"min_bid": "3"}, "Minimum bid: expected a whole number"),
        ({"low_beats_high": "yes"}, "Downtown beats Uptown: expected yes or no"),
        ({"deal": "bridge"}, "Deal: 'bridge' is not one of"),
        ({"jokers": 2}, "A straight deal has no jokers"),
        ({"deal": "kitty", "jokers": 3}, "Jokers: 3 is outside 0 to 2"),
        ({"renege_books": 14}, "Books moved by a renege"),
        ({"hands_per_round": 0}, "Hands per round"),
        ({"set_scoring": "nobody"}, "When a bid is set"),
        ({"boston_multiplier": True}, "Boston multiplier: expected a whole number"),
    ],
)
def test_from_dict_refuses_bad_data(data, message):
    with pytest.raises(ScoringError, match=message):
        RuleSet.from_dict(data)


def test_from_dict_refuses_a_non_mapping():
    with pytest.raises(ScoringError):
        RuleSet.from_dict([("min_bid", 1)])


def test_replace_checks_the_new_value():
    assert RuleSet().replace(min_bid=4).min_bid == 4
    with pytest.raises(ScoringError):
        RuleSet().replace(min_bid=9)
    with pytest.raises(ScoringError, match="Unknown"):
        RuleSet().replace(mini_bid=4)


def test_rule_sets_are_immutable():
    with pytest.raises(AttributeError):
        RuleSet().min_bid = 3


def test_describe_lists_every_scored_setting_in_words():
    described = dict(RuleSet.preset("kitty").describe())
    assert described["Deal"] == "Kitty"
    assert described["Minimum bid"] == "3"
    assert described["When a bid is set"] == "Bidding team loses the bid"
    scored = [setting.label for setting in SETTINGS.values() if setting.scored]
    assert list(described) == scored


def test_settings_that_change_no_score_are_not_offered():
    """Only the winning bid is recorded, so the bid ranking and the jokers never change a score."""
    unscored = {name for name, setting in SETTINGS.items() if not setting.scored}
    assert unscored == {"jokers", "low_beats_high"}
    kitty = RuleSet.preset("kitty")
    assert kitty.with_choices(min_bid=4).jokers == 2, "a director's choices keep the unscored settings"
    assert kitty.with_choices(deal="straight").jokers == 0, "a straight deal has no jokers"


# Ranking of RULES.md, written out: (level, kind rank) where no trump outranks high and low,
# and high and low are equal unless low beats high.
def ranking_key(rules, bid):
    kind_rank = {BidKind.HIGH: 0, BidKind.LOW: 1 if rules.low_beats_high else 0, BidKind.NO_TRUMP: 2}
    return (bid.level, kind_rank[bid.kind])


def test_ranking_examples():
    rules = RuleSet()
    assert rules.beats(Bid(4, BidKind.HIGH), Bid(3, BidKind.NO_TRUMP))
    assert rules.beats(Bid(3, BidKind.NO_TRUMP), Bid(3, BidKind.HIGH))
    assert rules.beats(Bid(3, BidKind.NO_TRUMP), Bid(3, BidKind.LOW))
    assert not rules.beats(Bid(3, BidKind.LOW), Bid(3, BidKind.HIGH))
    assert not rules.beats(Bid(3, BidKind.HIGH), Bid(3, BidKind.LOW))
    assert RuleSet(low_beats_high=True).beats(Bid(3, BidKind.LOW), Bid(3, BidKind.HIGH))
    assert not RuleSet(low_beats_high=True).beats(Bid(3, BidKind.HIGH), Bid(3, BidKind.LOW))
    assert rules.beats(Bid(1, BidKind.HIGH), None)


def test_a_bid_below_the_minimum_overcalls_nothing():
    kitty = RuleSet.preset("kitty")
    assert not kitty.beats(Bid(2, BidKind.NO_TRUMP), None)
    assert kitty.beats(Bid(3, BidKind.HIGH), None)


@given(rule_sets, bids)
def test_beats_is_irreflexive(rules, bid):
    assert not rules.beats(bid, bid)


@given(rule_sets, bids, bids)
def test_beats_agrees_with_the_ranking(rules, new, old):
    expected = rules.allows(new) and ranking_key(rules, new) > ranking_key(rules, old)
    assert rules.beats(new, old) is expected


@pytest.mark.parametrize("rules", [RuleSet(), RuleSet(low_beats_high=True)])
def test_beats_is_asymmetric_and_transitive(rules):
    for a, b in itertools.permutations(ALL_BIDS, 2):
        assert not (rules.beats(a, b) and rules.beats(b, a))
    for a, b, c in itertools.product(ALL_BIDS[::2], repeat=3):
        if rules.beats(a, b) and rules.beats(b, c):
            assert rules.beats(a, c)
