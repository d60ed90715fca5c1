import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.rating import RatedMeeting, Rating, composite, rate, rate_history, rate_round


def test_glickmans_worked_example():
    """The example of Glickman's Glicko-2 paper: 1500 ± 200 beats 1400, loses to 1550 and 1700."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.rounds == 3


def test_a_newcomer_starts_at_1500_with_a_wide_uncertainty():
    assert (Rating().rating, Rating().deviation, Rating().low, Rating().high) == (1500, 350, 800, 2200)


def test_the_composite_opponent_is_the_average_pair():
    pair = composite([Rating(1400, 100), Rating(1600, 200)])
    assert pair.rating == 1500
    assert pair.deviation == pytest.approx(25000**0.5)


def test_a_won_round_raises_both_winners_and_lowers_both_losers():
    after = rate_round({}, [RatedMeeting(("a", "b"), ("c", "d"), 1)])
    assert after["a"] == after["b"]
    assert after["a"].rating > 1500 > after["c"].rating
    assert after["a"].deviation < 350


def test_a_tie_between_equals_changes_no_rating():
    after = rate_round({}, [RatedMeeting(("a", "b"), ("c", "d"), 0.5)])
    assert all(r.rating == pytest.approx(1500) for r in after.values())


def test_bad_results_are_refused():
    with pytest.raises(ScoringError, match="won"):
        rate(Rating(), [(Rating(), 2)])
    with pytest.raises(ScoringError, match="both sides"):
        rate_round({}, [RatedMeeting(("a", "b"), ("b", "c"), 1)])


def test_no_rounds_no_ratings():
    assert rate_history([]) == {}


results = st.sampled_from([0, 0.5, 1])
round_ = st.lists(
    st.tuples(st.permutations(range(8)).map(lambda p: (tuple(p[:2]), tuple(p[2:4]))), results), min_size=1, max_size=3
)


@given(st.lists(round_, max_size=6))
def test_a_recompute_gives_the_same_numbers(history):
    rounds = [[RatedMeeting(first, second, score) for (first, second), score in meetings] for meetings in history]
    assert rate_history(rounds) == rate_history(rounds)


@given(st.lists(results, min_size=1, max_size=12))
def test_the_uncertainty_shrinks_as_a_person_plays(scores):
    rating = Rating()
    for score in scores:
        after = rate(rating, [(Rating(1500, 200), score)])
        assert after.deviation < rating.deviation
        rating = after


@given(st.floats(1000, 2000), st.floats(50, 350), st.floats(1000, 2000), st.floats(50, 350))
def test_winning_never_lowers_and_losing_never_raises_a_rating(mine, my_rd, theirs, their_rd):
    player, opponent = Rating(mine, my_rd), Rating(theirs, their_rd)
    assert rate(player, [(opponent, 1)]).rating >= mine
    assert rate(player, [(opponent, 0)]).rating <= mine
    assert rate(player, [(opponent, 1)]).rating > rate(player, [(opponent, 0.5)]).rating
