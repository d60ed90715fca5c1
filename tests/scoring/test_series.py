import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.series import (
    Finish,
    SeriesPoints,
    finish_from_place,
    points_text,
    series_standings,
    tournament_points,
)

DEFAULT = SeriesPoints()


def test_the_default_table_is_the_rules_table():
    assert SeriesPoints.from_dict({}) == DEFAULT
    assert DEFAULT.to_dict() == {"champion": 6, "runner_up": 3, "semifinalist": 1, "qualifying_win": 0.5}


def test_a_champion_with_three_qualifying_wins_gets_6_and_a_half_per_win_not_6_plus_1():
    assert tournament_points(DEFAULT, finish=Finish.CHAMPION, qualifying_wins=3) == Fraction(15, 2)


def test_runner_up_and_both_beaten_semifinalists():
    assert tournament_points(DEFAULT, finish=Finish.RUNNER_UP, qualifying_wins=2) == 4
    # Without a third-place match both share third; with one, they are third and fourth: 1 point each.
    assert finish_from_place(3) == finish_from_place(4) == Finish.SEMIFINALIST
    assert tournament_points(DEFAULT, finish=Finish.SEMIFINALIST, qualifying_wins=0) == 1


def test_out_of_the_playoff_or_without_one_only_qualifying_wins_count():
    assert finish_from_place(5) == finish_from_place(None) == Finish.NONE
    assert tournament_points(DEFAULT, finish=Finish.NONE, qualifying_wins=3) == Fraction(3, 2)


def test_a_custom_table_and_bad_settings():
    table = SeriesPoints.from_dict({"champion": 10, "runner_up": 5.5})
    assert tournament_points(table, finish=Finish.RUNNER_UP, qualifying_wins=1) == 6
    with pytest.raises(ScoringError, match="0 to"):
        SeriesPoints.from_dict({"champion": -1})
    with pytest.raises(ScoringError, match="not a number"):
        SeriesPoints.from_dict({"champion": "lots"})
    with pytest.raises(ScoringError, match="Unknown"):
        SeriesPoints.from_dict({"fourth": 1})
    with pytest.raises(ScoringError, match="at least the runner-up"):
        SeriesPoints.from_dict({"champion": 2})
    with pytest.raises(ScoringError, match="halves"):
        SeriesPoints.from_dict({"qualifying_win": 0.3})


def test_points_are_written_with_halves():
    assert [points_text(Fraction(n, 2)) for n in (0, 1, 13, 12)] == ["0", "½", "6½", "6"]
    assert [points_text(Fraction(n, 4)) for n in (1, 3, 9, 11)] == ["¼", "¾", "2¼", "2¾"]
    assert points_text(Fraction(1, 3)) == str(1 / 3)


def test_equal_totals_share_the_place_and_the_next_place_is_skipped():
    placed = series_standings({"ann": Fraction(7), "bob": Fraction(7), "cy": Fraction(3, 2), "di": Fraction(8)})
    assert [(str(p.place), p.key) for p in placed] == [("1", "di"), ("T-2", "ann"), ("T-2", "bob"), ("4", "cy")]


@given(st.sampled_from(list(Finish)), st.integers(0, 20), st.integers(0, 20))
def test_more_qualifying_wins_never_earn_fewer_points(finish, wins, more):
    assert tournament_points(DEFAULT, finish=finish, qualifying_wins=wins + more) >= tournament_points(
        DEFAULT, finish=finish, qualifying_wins=wins
    )


@given(st.integers(0, 20))
def test_a_better_finish_never_earns_fewer_points(wins):
    points = [tournament_points(DEFAULT, finish=f, qualifying_wins=wins) for f in Finish]
    assert points == sorted(points, reverse=True)


@given(st.dictionaries(st.integers(0, 50), st.integers(0, 40).map(lambda n: Fraction(n, 2)), max_size=30))
def test_standings_are_ordered_and_places_shared_exactly_by_equal_totals(totals):
    placed = series_standings(totals)
    assert sorted(p.key for p in placed) == sorted(totals)
    for earlier, later in itertools.pairwise(placed):
        assert earlier.points >= later.points
        assert (earlier.place == later.place) == (earlier.points == later.points)
    for index, entry in enumerate(placed):
        assert entry.place.number == 1 + sum(1 for p in placed if p.points > entry.points)
        assert entry.place.shared == (sum(1 for p in placed if p.points == entry.points) > 1)
        assert index + 1 >= entry.place.number
