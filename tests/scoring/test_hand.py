import csv
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import Bid, BidKind, RuleSet, ScoringError, apply_reneges, score_hand

TOURNAMENT = RuleSet.preset("tournament")
KITTY = RuleSet.preset("kitty")


WORKED_EXAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "rules-worked-examples.csv"


def worked_examples():
    """RULES.md's worked examples table and the rule sheet's own examples (seed 002), from fixtures/."""
    with WORKED_EXAMPLES.open(newline="", encoding="utf-8") as file:
        return [
            pytest.param(row, id=f"{row['source']}: {row['bid']} with {row['books']}") for row in csv.DictReader(file)
        ]


def test_every_worked_example_of_rules_md_is_in_the_data_file():
    assert sum(1 for row in csv.DictReader(WORKED_EXAMPLES.open(encoding="utf-8")) if row["source"] == "RULES.md") == 7


@pytest.mark.parametrize("example", worked_examples())
def test_worked_examples(example):
    score = score_hand(TOURNAMENT, Bid.parse(example["bid"]), int(example["books"]))
    assert (score.bidders, score.defenders) == (int(example["bidders"]), int(example["defenders"])), example["why"]
    assert score.made == (int(example["defenders"]) == 0)


def spec_tournament(bid, books):
    """RULES.md's tournament formula, written out independently of the rule set's fields."""
    m = 2 if bid.kind is BidKind.NO_TRUMP else 1
    if books >= 6 + bid.level:
        return (books - 6) * m, 0
    odd = 0
    if bid.kind is not BidKind.NO_TRUMP:
        odd = max(0, (13 - books) - (7 if bid.level == 1 else 6))
    return 0, bid.level * m + odd


def spec_kitty(bid, books):
    """RULES.md's kitty preset: set loses level x m, no defenders' points, Boston x 4."""
    m = 2 if bid.kind is BidKind.NO_TRUMP else 1
    if books >= 6 + bid.level:
        points = (books - 6) * m
        return (points * 4 if books == 13 else points), 0
    return -bid.level * m, 0


ALL_BIDS = [Bid(level, kind) for level in range(1, 8) for kind in BidKind]


@pytest.mark.parametrize("bid", ALL_BIDS, ids=str)
def test_every_bid_and_book_count_under_the_tournament_preset(bid):
    for books in range(14):
        score = score_hand(TOURNAMENT, bid, books)
        assert (score.bidders, score.defenders) == spec_tournament(bid, books), (str(bid), books)


@pytest.mark.parametrize("bid", ALL_BIDS, ids=str)
def test_every_bid_and_book_count_under_the_kitty_preset(bid):
    for books in range(14):
        if bid.level < KITTY.min_bid:
            with pytest.raises(ScoringError, match="minimum bid is 3"):
                score_hand(KITTY, bid, books)
        else:
            score = score_hand(KITTY, bid, books)
            assert (score.bidders, score.defenders) == spec_kitty(bid, books), (str(bid), books)


def test_boston_under_the_kitty_preset():
    score = score_hand(KITTY, Bid.parse("4 No"), 13)
    assert score.boston and score.bidders == 7 * 2 * 4


def test_boston_gives_no_bonus_under_tournament_rules():
    score = score_hand(TOURNAMENT, Bid.parse("7"), 13)
    assert score.boston and score.bidders == 7


def test_every_bid_setting_gives_defenders_odd_books_on_no_trump():
    rules = RuleSet(defenders_odd_books="every_bid")
    assert score_hand(rules, Bid.parse("3 No"), 4).defenders == 6 + 3
    assert score_hand(rules, Bid.parse("1"), 5).defenders == 1 + 2


def test_no_trump_multiplier_of_one():
    rules = RuleSet(no_trump_multiplier=1)
    assert score_hand(rules, Bid.parse("5 No"), 11).bidders == 5


@pytest.mark.parametrize("books", [-1, 14, 6.5, "7", None])
def test_books_outside_the_deal_are_refused(books):
    with pytest.raises(ScoringError):
        score_hand(TOURNAMENT, Bid.parse("3"), books)


def test_a_bid_below_the_minimum_is_refused():
    with pytest.raises(ScoringError, match="minimum bid is 2; 1 Downtown is too low"):
        score_hand(RuleSet(min_bid=2), Bid.parse("1 Special"), 8)


# Reneges (RULES.md, Penalties): 3 books move to the other team; fewer than 3 means all 13.
def test_a_defenders_renege_gives_the_bidders_three_books():
    assert apply_reneges(TOURNAMENT, 8, defenders=1) == 11


def test_a_bidders_renege_gives_the_defenders_three_books():
    assert apply_reneges(TOURNAMENT, 9, bidders=1) == 6


def test_a_team_with_fewer_than_three_books_leaves_the_other_all_thirteen():
    assert apply_reneges(TOURNAMENT, 2, bidders=1) == 0
    assert apply_reneges(TOURNAMENT, 11, defenders=1) == 13


def test_each_renege_moves_three_more_and_both_teams_offset():
    assert apply_reneges(TOURNAMENT, 5, defenders=2) == 11
    assert apply_reneges(TOURNAMENT, 7, bidders=1, defenders=1) == 7
    assert apply_reneges(TOURNAMENT, 7, bidders=1, defenders=2) == 10


def test_renege_books_come_from_the_rule_set():
    assert apply_reneges(RuleSet(renege_books=2), 7, defenders=1) == 9


def test_a_kitty_bidding_team_always_holds_the_kitty_book():
    with pytest.raises(ScoringError, match="1 to 13"):
        apply_reneges(KITTY, 0)
    assert apply_reneges(KITTY, 2, bidders=1) == 0


def test_renege_counts_must_be_counts():
    with pytest.raises(ScoringError):
        apply_reneges(TOURNAMENT, 7, bidders=-1)


def test_renege_then_score_sets_a_bid():
    books = apply_reneges(TOURNAMENT, 9, bidders=1)
    score = score_hand(TOURNAMENT, Bid.parse("3"), books)
    assert (score.bidders, score.defenders) == (0, 3 + 1)


bids = st.builds(Bid, st.integers(1, 7), st.sampled_from(BidKind))
books = st.integers(0, 13)


@given(bids, books)
def test_no_score_is_negative_under_tournament_rules(bid, books):
    score = score_hand(TOURNAMENT, bid, books)
    assert score.bidders >= 0 and score.defenders >= 0


@given(st.sampled_from([TOURNAMENT, KITTY]), bids, books)
def test_without_penalties_at_most_one_side_scores(rules, bid, books):
    if rules.allows(bid):
        score = score_hand(rules, bid, books)
        assert score.bidders == 0 or score.defenders == 0


@given(bids, books)
def test_a_made_bid_scores_books_over_six_times_the_multiplier(bid, books):
    score = score_hand(TOURNAMENT, bid, books)
    if books >= bid.books_needed:
        assert score.made
        assert score.bidders == (books - 6) * (2 if bid.kind is BidKind.NO_TRUMP else 1)


@given(bids, books, books)
def test_a_made_bid_scores_more_for_the_bidders_than_a_set(bid, made_books, set_books):
    if made_books >= bid.books_needed > set_books:
        for rules in (TOURNAMENT, RuleSet(set_scoring="bidders_lose")):
            assert score_hand(rules, bid, made_books).bidders > score_hand(rules, bid, set_books).bidders


@given(bids, books, st.integers(0, 4), st.integers(0, 4))
def test_reneges_keep_books_within_the_deal(bid, books, by_bidders, by_defenders):
    after = apply_reneges(TOURNAMENT, books, bidders=by_bidders, defenders=by_defenders)
    assert 0 <= after <= 13
    if by_bidders == by_defenders:
        assert after == books
