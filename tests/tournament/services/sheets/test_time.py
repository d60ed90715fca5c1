"""Hands a phone entered before time was called at its table, reaching the server after the call: they count as
played before it, when the time the phone states can be true, and the sheet's history says so."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournament.services import test_clock
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round, Table
from tournament.services import clock, sheets
from tournament.services.sheets import ChangeContext
from tournament.services.sheets.time import clock_time

timed = test_clock.timed
time_up = test_clock.time_up


@pytest.fixture
def playing(timed, staff):
    """Table 1 of a round published an hour ago whose clock runs."""
    Round.objects.filter(pk=timed.pk).update(published_at=timezone.now() - timedelta(hours=1))
    clock.round_clock_start(round=timed, actor=staff)
    return Table.objects.get(round=timed, number=1)


def ago(seconds: int):
    return timezone.now() - timedelta(seconds=seconds)


def added(table) -> list[str]:
    entries = table.changes.filter(action=LogEntry.Action.HAND_ADDED).order_by("pk")
    return list(entries.values_list("summary", flat=True))


def test_hands_entered_before_time_was_up_count_though_they_arrive_after_it(playing, sheet):
    time_up(playing, seconds_ago=60)
    entered = ago(120)
    sheet.hand(playing, "N", "N", 3, "high", 9, entered_at=entered)
    sheet.hand(playing, "E", "E", 4, "low", 10, entered_at=ago(90))
    playing.refresh_from_db()
    assert playing.time_called_at is None and playing.next_hand_number == 3, "both played before time: play on"
    assert added(playing)[0] == (
        f"Hand 1: 3 Uptown ♥ by North, 9 books; entered on the phone at {clock_time(entered)}, "
        f"before time was up at {clock_time(playing.clock_ends_at)}"
    )
    assert "before time was up at" in added(playing)[1]
    entry = playing.changes.filter(action=LogEntry.Action.HAND_ADDED).first()
    assert entry.after["before_the_call"] == playing.clock_ends_at.isoformat()

    sheet.hand(playing, "S", "S", 2, "high", 7, entered_at=ago(30))
    playing.refresh_from_db()
    assert playing.complete and playing.time_called_after == 3, "the hand in play at time is the last"
    assert abs((playing.time_called_at - ago(30)).total_seconds()) < 5, "time is called when the phone entered it"
    assert "before time" not in added(playing)[-1]


def test_the_first_hand_arriving_after_time_still_calls_time_without_a_stated_time(playing, sheet):
    time_up(playing, seconds_ago=60)
    sheet.hand(playing, "N", "N", 3, "high", 9)
    with pytest.raises(ServiceError, match="Time was called after hand 1"):
        sheet.hand(playing, "E", "E", 4, "low", 10)


def test_a_hand_entered_before_time_was_called_counts_though_the_call_reached_the_sheet_first(playing, staff, sheet):
    sheet.hand(playing, "N", "N", 3, "high", 9)
    seen = sheet.version(playing)
    sheets.table_time_call(table=playing, context=ChangeContext(version=seen, actor=staff))
    entry = sheets.HandEntry("E", "E", 4, "low", 10)
    hand = sheets.hand_record(table=playing, entry=entry, entered_at=ago(60), context=ChangeContext(version=seen))
    playing.refresh_from_db()
    assert hand.hand_number == 2 and playing.complete and playing.time_called_after == 2
    assert "entered on the phone at" in added(playing)[-1] and "before time was called at" in added(playing)[-1]

    late = sheets.HandEntry("S", "S", 2, "high", 7)
    with pytest.raises(ServiceError, match="Time was called after hand 2"):
        sheets.hand_record(
            table=playing, entry=late, entered_at=timezone.now(), context=ChangeContext(version=sheet.version(playing))
        )
    with pytest.raises(sheets.StaleSheet):  # without a stated time, the call is a change to the sheet as seen
        sheets.hand_record(table=playing, entry=late, context=ChangeContext(version=seen))


@pytest.mark.parametrize(
    "stated",
    [timedelta(hours=1), timedelta(hours=-2), None],
    ids=["in the future", "before the round was published", "not said"],
)
def test_a_stated_time_that_cannot_be_true_adds_no_hand_after_the_call(playing, staff, sheet, stated):
    sheet.hand(playing, "N", "N", 3, "high", 9)
    sheets.table_time_call(table=playing, context=ChangeContext(version=sheet.version(playing), actor=staff))
    entry = sheets.HandEntry("E", "E", 4, "low", 10)
    at = None if stated is None else timezone.now() + stated
    with pytest.raises(ServiceError, match="Time was called after hand 1"):
        sheets.hand_record(
            table=playing, entry=entry, entered_at=at, context=ChangeContext(version=sheet.version(playing))
        )
    assert playing.hands.count() == 1


def test_a_stated_time_adds_no_hand_beyond_the_rounds_nor_to_a_signed_sheet(playing, staff, sheet):
    for dealer in "NESW":
        sheet.hand(playing, dealer, dealer, 3, "high", 9)
    fifth = sheets.HandEntry("N", "N", 3, "high", 9)
    with pytest.raises(ServiceError, match="The round is over: all 4 hands are recorded"):
        sheets.hand_record(
            table=playing, entry=fifth, entered_at=ago(60), context=ChangeContext(version=sheet.version(playing))
        )
    sheet.sign_both(playing)
    with pytest.raises(ServiceError, match="signed and locked"):
        sheets.hand_record(
            table=playing, entry=fifth, entered_at=ago(60), context=ChangeContext(version=sheet.version(playing))
        )
    assert playing.hands.count() == 4


def test_the_round_limit_holds_after_a_call_too(playing, staff, sheet):
    for dealer in "NES":
        sheet.hand(playing, dealer, dealer, 3, "high", 9)
    seen = sheet.version(playing)
    sheets.table_time_call(table=playing, context=ChangeContext(version=seen, actor=staff))
    sheet.hand(playing, "W", "W", 3, "high", 9, entered_at=ago(60))
    playing.refresh_from_db()
    assert playing.time_called_after == 4
    with pytest.raises(ServiceError, match="The round is over: all 4 hands are recorded"):
        sheet.hand(playing, "N", "N", 3, "high", 9, entered_at=ago(50))
