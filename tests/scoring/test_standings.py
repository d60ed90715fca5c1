import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import CRITERIA, ORDERS, Meeting, TeamRecord, order_label, rank

DEFAULT = ["rounds_won", "total_points", "point_difference", "head_to_head"]


def order(placed):
    return [(str(p.place), p.record.key) for p in placed]


def test_rounds_won_first_with_a_tie_counting_half():
    records = [
        TeamRecord(1, wins=1, ties=2, points_for=30),  # 2 rounds won
        TeamRecord(2, wins=2, losses=1, points_for=10),  # 2 rounds won
        TeamRecord(3, wins=2, ties=1, points_for=5),  # 2½
    ]
    assert order(rank(records, DEFAULT)) == [("1", 3), ("2", 1), ("3", 2)]


def test_total_points_then_difference_break_ties():
    records = [
        TeamRecord(1, wins=2, points_for=20, points_against=15),
        TeamRecord(2, wins=2, points_for=20, points_against=10),
        TeamRecord(3, wins=2, points_for=25, points_against=30),
    ]
    assert order(rank(records, DEFAULT)) == [("1", 3), ("2", 2), ("3", 1)]


def test_the_winner_of_their_meeting_ranks_higher():
    records = [TeamRecord(1, wins=2, points_for=20), TeamRecord(2, wins=2, points_for=20)]
    placed = rank(records, DEFAULT, [Meeting(1, 2, winner=2)])
    assert order(placed) == [("1", 2), ("2", 1)]


def test_teams_that_never_met_or_tied_their_meeting_share_the_place():
    records = [TeamRecord(k, wins=1, points_for=9) for k in (4, 5)] + [TeamRecord(6, wins=3)]
    assert order(rank(records, DEFAULT)) == [("1", 6), ("T-2", 4), ("T-2", 5)]
    assert order(rank(records, DEFAULT, [Meeting(4, 5, winner=None)])) == [("1", 6), ("T-2", 4), ("T-2", 5)]


def test_head_to_head_in_a_group_of_three_needs_every_meeting():
    records = [TeamRecord(k, wins=2, points_for=10) for k in (1, 2, 3)]
    partial = [Meeting(1, 2, winner=1), Meeting(2, 3, winner=2)]
    assert order(rank(records, DEFAULT, partial)) == [("T-1", 1), ("T-1", 2), ("T-1", 3)]
    complete = [*partial, Meeting(1, 3, winner=1)]
    assert order(rank(records, DEFAULT, complete)) == [("1", 1), ("2", 2), ("3", 3)]


def test_places_after_a_shared_place_skip_ahead():
    records = [TeamRecord(1, wins=3), TeamRecord(2, wins=2), TeamRecord(3, wins=2), TeamRecord(4, wins=1)]
    assert [str(p.place) for p in rank(records, DEFAULT)] == ["1", "T-2", "T-2", "4"]


def test_total_points_first():
    records = [TeamRecord(1, wins=3, points_for=12), TeamRecord(2, wins=1, points_for=30)]
    assert order(rank(records, ["total_points", "rounds_won"])) == [("1", 2), ("2", 1)]


def test_hands_won():
    records = [TeamRecord(1, wins=2, hands_won=5, points_for=30), TeamRecord(2, wins=2, hands_won=7, points_for=10)]
    assert order(rank(records, ["rounds_won", "hands_won", "total_points"])) == [("1", 2), ("2", 1)]


def test_fewest_points_against():
    records = [TeamRecord(1, wins=2, points_against=12), TeamRecord(2, wins=2, points_against=8)]
    assert order(rank(records, ["rounds_won", "fewest_against"])) == [("1", 2), ("2", 1)]


def test_an_unknown_criterion_is_refused():
    with pytest.raises(ValueError, match="coin_toss"):
        rank([TeamRecord(1)], ["coin_toss"])


records = st.builds(
    TeamRecord,
    key=st.integers(1, 10**6),
    wins=st.integers(0, 4),
    losses=st.integers(0, 4),
    ties=st.integers(0, 2),
    points_for=st.integers(0, 60),
    points_against=st.integers(0, 60),
)


@given(st.lists(records, max_size=30, unique_by=lambda r: r.key))
def test_every_team_is_placed_once_and_places_never_go_backwards(field):
    placed = rank(field, DEFAULT)
    assert sorted(p.record.key for p in placed) == sorted(r.key for r in field)
    assert [p.place for p in placed] == sorted(p.place for p in placed)
    for earlier, later in itertools.pairwise(placed):
        assert earlier.record.rounds_won >= later.record.rounds_won


def test_each_standings_order_is_named_by_its_criteria():
    assert all(name in CRITERIA for order in ORDERS for name in order)
    assert order_label(ORDERS[3]) == "Rounds won, fewest points against, total points, meeting"
