from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import (
    Bid,
    Clock,
    ClockLevel,
    Deal,
    Pair,
    RuleSet,
    ScoringError,
    Seat,
    clock_text,
    projected_finish,
    score_round,
)

NOON = datetime(2026, 5, 2, 12, 0, tzinfo=UTC)
NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def at(minutes: float) -> datetime:
    return NOON + timedelta(minutes=minutes)


def test_a_started_clock_counts_down_from_the_rounds_minutes():
    clock = Clock.start(NOON, 20)
    assert clock.remaining(NOON) == 20 * 60
    assert clock.remaining(at(7.5)) == 12 * 60 + 30
    assert clock_text(clock.remaining(at(7.5))) == "12:30"
    assert not clock.is_up(at(19.99)) and clock.is_up(at(20)) and clock.remaining(at(25)) == 0


def test_a_part_second_left_still_shows_a_second():
    clock = Clock.start(NOON, 1)
    assert clock.remaining(NOON + timedelta(seconds=59.2)) == 1


def test_pause_keeps_what_is_left_and_resume_carries_it_on():
    paused = Clock.start(NOON, 20).pause(at(5))
    assert paused.paused and paused.remaining(at(50)) == 15 * 60
    resumed = paused.resume(at(50))
    assert resumed.remaining(at(50)) == 15 * 60 and resumed.ends_at == at(65)


def test_the_clock_refuses_what_makes_no_sense():
    with pytest.raises(ScoringError, match="no round clock"):
        Clock.start(NOON, 0)
    with pytest.raises(ScoringError, match="not running"):
        Clock().pause(NOON)
    with pytest.raises(ScoringError, match="not paused"):
        Clock.start(NOON, 20).resume(NOON)
    with pytest.raises(ScoringError, match="Time is up"):
        Clock.start(NOON, 20).pause(at(21))
    with pytest.raises(ScoringError, match="has not started"):
        Clock().plus(3, NOON)
    for minutes in (0, -3, 61, True, "3"):
        with pytest.raises(ScoringError, match="Add 1 to 60 minutes"):
            Clock.start(NOON, 20).plus(minutes, NOON)


def test_added_minutes_go_on_the_deadline_or_on_what_a_paused_clock_has_left():
    assert Clock.start(NOON, 20).plus(3, at(10)).remaining(at(10)) == 13 * 60
    assert Clock.start(NOON, 20).pause(at(10)).plus(3, at(30)).remaining(at(40)) == 13 * 60
    # A table at time given 3 minutes plays 3 minutes from now, not from its old deadline.
    assert Clock.start(NOON, 20).plus(3, at(22)).remaining(at(22)) == 3 * 60


@pytest.mark.parametrize(
    ("minute", "level"),
    [
        (0, ClockLevel.NONE),
        (9.99, ClockLevel.NONE),
        (10, ClockLevel.WARNING),
        (15, ClockLevel.LAST),
        (20, ClockLevel.UP),
    ],
)
def test_warnings_at_ten_and_five_minutes_left(minute, level):
    clock = Clock.start(NOON, 20)
    assert clock.level(at(minute), warn_minutes=10, last_warn_minutes=5) is level


def test_a_paused_clock_says_so():
    assert Clock.start(NOON, 20).pause(at(1)).level(at(2), warn_minutes=10, last_warn_minutes=5) is ClockLevel.PAUSED


def test_clock_text_reads_hours_when_there_are_any():
    assert clock_text(3725) == "1:02:05" and clock_text(5) == "0:05" and clock_text(None) == ""


@given(st.integers(1, 240), st.integers(0, 300 * 60))
def test_remaining_never_rises_and_never_goes_below_zero(minutes, seconds):
    clock = Clock.start(NOON, minutes)
    now = NOON + timedelta(seconds=seconds)
    later = now + timedelta(seconds=1)
    assert 0 <= clock.remaining(later) <= clock.remaining(now) <= minutes * 60


def deals(count: int) -> list[Deal]:
    rows = [(N, E, "3", 9), (E, S, "4 No", 9), (S, W, "2 Special", 5), (W, N, "5", 12)]
    return [Deal(dealer=d, bidder=b, bid=Bid.parse(bid), books=books) for d, b, bid, books in rows[:count]]


def test_time_called_after_hand_three_completes_the_round_with_the_hands_played():
    result = score_round(RuleSet(), deals(3), time_called=True)
    assert result.complete and result.hands_played == 3 and result.next_hand_number is None
    assert result.totals == {NS: 4, EW: 11} and result.winner is EW


def test_time_called_before_the_first_hand_is_a_nil_nil_tie():
    result = score_round(RuleSet(), [], time_called=True)
    assert result.complete and result.tied and result.totals == {NS: 0, EW: 0}


def test_a_playoff_match_level_at_time_plays_on():
    level = [
        Deal(dealer=N, bidder=E, bid=Bid.parse("1"), books=7),
        Deal(dealer=E, bidder=N, bid=Bid.parse("1"), books=7),
    ]
    assert not score_round(RuleSet(), level, time_called=True, tiebreak=True).complete
    assert score_round(RuleSet(), level[:1], time_called=True, tiebreak=True).complete


def test_the_projection_reads_the_pace_of_the_hands_saved():
    projection = projected_finish(
        started_at=NOON, ends_at=at(20), hand_saved_at=[at(6.5)], hands_per_round=4, now=at(7)
    )
    # 6.5 minutes a hand: three more end at 26, six minutes over.
    assert projection.words == "hand 2 of 4, likely 6 minutes over"
    early = projected_finish(
        started_at=NOON, ends_at=at(20), hand_saved_at=[at(4), at(8)], hands_per_round=4, now=at(9)
    )
    assert early.minutes_over < 0 and early.words == "hand 3 of 4, likely on time"


def test_no_projection_before_the_first_hand_and_a_slow_table_finishes_no_sooner_than_now():
    assert projected_finish(started_at=NOON, ends_at=at(20), hand_saved_at=[], hands_per_round=4, now=at(3)).words == (
        "hand 1 of 4"
    )
    stuck = projected_finish(started_at=NOON, ends_at=at(20), hand_saved_at=[at(1)], hands_per_round=4, now=at(30))
    assert stuck.minutes_over == 10
