import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import Bid, BidKind, ScoringError

SPELLINGS = {
    "4": Bid(4, BidKind.HIGH),
    "4 card": Bid(4, BidKind.HIGH),
    "4 high": Bid(4, BidKind.HIGH),
    "4 up": Bid(4, BidKind.HIGH),
    "4 uptown": Bid(4, BidKind.HIGH),
    "1 Card": Bid(1, BidKind.HIGH),
    "2 Special": Bid(2, BidKind.LOW),
    "2 low": Bid(2, BidKind.LOW),
    "2 down": Bid(2, BidKind.LOW),
    "2 downtown": Bid(2, BidKind.LOW),
    "3 No": Bid(3, BidKind.NO_TRUMP),
    "3 NT": Bid(3, BidKind.NO_TRUMP),
    "3 no trump": Bid(3, BidKind.NO_TRUMP),
    "  7   NO   TRUMP ": Bid(7, BidKind.NO_TRUMP),
    "5special": Bid(5, BidKind.LOW),
    "6 UpTown": Bid(6, BidKind.HIGH),
}


@pytest.mark.parametrize(("text", "bid"), SPELLINGS.items())
def test_every_spelling_of_the_rules_parses(text, bid):
    assert Bid.parse(text) == bid


@pytest.mark.parametrize("text", ["8", "0", "", "   ", "4 sideways", "four", "-1", "4 No Trump up", "44"])
def test_anything_else_is_refused_with_a_message(text):
    with pytest.raises(ScoringError, match=r"not a bid|is not"):
        Bid.parse(text)


def test_a_bid_is_written_as_players_call_it():
    assert str(Bid(4, BidKind.HIGH)) == "4 Uptown"
    assert str(Bid(4, BidKind.LOW)) == "4 Downtown"
    assert str(Bid(4, BidKind.NO_TRUMP)) == "4 No Trump"


def test_kind_accepts_its_string_value():
    assert Bid(2, "nt") == Bid(2, BidKind.NO_TRUMP)
    assert BidKind("low") is BidKind.LOW and BidKind.HIGH == "high"


@pytest.mark.parametrize(("level", "kind"), [(0, "high"), (8, "low"), (3, "sideways"), (True, "high")])
def test_impossible_bids_cannot_be_built(level, kind):
    with pytest.raises(ScoringError):
        Bid(level, kind)


def test_bids_are_immutable():
    bid = Bid(3, BidKind.HIGH)
    with pytest.raises(AttributeError):
        bid.level = 4


@given(st.integers(1, 7), st.sampled_from(BidKind))
def test_parse_reads_back_what_str_writes(level, kind):
    bid = Bid(level, kind)
    assert Bid.parse(str(bid)) == bid
