from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.statistics import HandLine, Statistics, awards, combine, tally


def test_a_teams_bids_bostons_points_and_reneges_counted_by_hand():
    lines = [
        HandLine("A", 4, 4, "high", True),
        HandLine("B", 0),
        HandLine("A", -5, 5, "nt", False),
        HandLine("B", 0),
        HandLine("A", 0),
        HandLine("B", 3, 3, "nt", True),
        HandLine("A", 7, 7, "low", True, boston=True),
        HandLine("B", 0),
    ]
    stats = tally(lines, {"B": 2})
    a, b = stats["A"], stats["B"]
    assert (a.hands, a.points, a.bids_made, a.bids_set, a.bostons, a.reneges) == (4, 6, 2, 1, 1, 0)
    assert a.by_bid() == [(4, "high", 1, 0), (5, "nt", 0, 1), (7, "low", 1, 0)]
    assert a.success == Fraction(2, 3) and a.points_per_hand == Fraction(3, 2)
    assert (b.no_trump_made, b.reneges, b.success) == (1, 2, Fraction(1))


def test_awards_go_to_the_leaders_and_are_shared_when_level():
    stats = {
        "A": Statistics(made={(4, "high"): 4, (3, "nt"): 2}, set={(5, "high"): 1}, bostons=2),
        "B": Statistics(made={(3, "nt"): 2}, bostons=2),
        "C": Statistics(made={(4, "low"): 5}),
    }
    found = {award.title: award for award in awards(stats, minimum_bids=5)}
    assert found["Most Bostons"].winners == ("A", "B")
    assert found["Best bid success (at least 5 bids)"].winners == ("C",)
    assert found["Best bid success (at least 5 bids)"].value == "5 of 5 made (100%)"
    assert found["Most no-trump bids made"].winners == ("A", "B")


def test_no_award_nobody_earned():
    assert awards({"A": Statistics(made={(4, "high"): 1})}) == []


line = st.builds(
    HandLine,
    key=st.sampled_from("ABC"),
    points=st.integers(-14, 14),
    level=st.one_of(st.none(), st.integers(1, 7)),
    kind=st.sampled_from(["high", "low", "nt"]),
    made=st.booleans(),
    boston=st.booleans(),
)


@given(st.lists(line, max_size=40))
def test_every_hand_and_bid_is_counted_once(lines):
    stats = tally(lines)
    assert sum(s.hands for s in stats.values()) == len(lines)
    assert sum(s.bids for s in stats.values()) == sum(1 for x in lines if x.level is not None)
    assert sum(s.points for s in stats.values()) == sum(x.points for x in lines)


@given(st.lists(line, max_size=40))
def test_a_persons_statistics_are_the_sum_of_their_teams(lines):
    stats = tally(lines)
    person = combine([("p", s) for s in stats.values()])
    if stats:
        assert person["p"].bids_made == sum(s.bids_made for s in stats.values())
        assert person["p"].hands == len(lines)
