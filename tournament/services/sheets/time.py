"""Time at a table (the rules, Time): the hand in play when time is up is the last, and the sheet is complete
with the hands played ("time called after hand 3"), then signed as usual."""

from dataclasses import dataclass
from datetime import datetime

from django.utils import dateformat, timezone

from scoring import clock_text
from tournament.errors import ServiceError
from tournament.models import LogEntry, Table
from tournament.services.log import Actor
from tournament.services.sheets.write import Change, ChangeContext, sheet_write


def time_called_check(table: Table, actor: Actor) -> None:
    """After time was called only staff add a deal (a hand the director allows); but a playoff match level at
    the call is not over, and plays on one hand at a time while level (the rules, Time)."""
    if table.time_called_at is None or actor.is_staff or table.plays_on_after_time:
        return
    raise ServiceError(
        f"Time was called after hand {table.hands_played}: finish this hand, no new hand. Sign the sheet; "
        "a hand the director allows is entered by staff."
    )


def forfeit_check(table: Table) -> None:
    """No deal is played at a forfeited table (the director undoes the forfeit if the teams played after all)."""
    if table.forfeit:
        raise ServiceError(f"Table {table.number} is a forfeit: undo the forfeit before entering a hand.")


def clock_time(moment: datetime) -> str:
    """A moment as the table's clock shows it: "2:05:00 PM"."""
    return dateformat.format(timezone.localtime(moment), "g:i:s A")


@dataclass(frozen=True)
class BeforeTheCall:
    """A deal that reached the server after time was called (or up) at its table, though the phone entered it
    before: it counts as played before the call, and the sheet's history says so."""

    entered_at: datetime
    call_at: datetime
    called: bool

    @property
    def words(self) -> str:
        call = f"before time was {'called' if self.called else 'up'} at {clock_time(self.call_at)}"
        return f"entered on the phone at {clock_time(self.entered_at)}, {call}"

    def fields(self) -> dict:
        return {"entered_at": self.entered_at.isoformat(), "before_the_call": self.call_at.isoformat()}


def stated_time(table: Table, entered_at: datetime | None, now: datetime) -> datetime | None:
    """When the phone says it entered a deal (its own clock read against the server's), if that can be true:
    not after now and not before the round was published. Otherwise (or unsaid) the deal counts as entered when it
    arrived."""
    published = table.round.published_at
    if entered_at is None or published is None or not published <= entered_at <= now:
        return None
    return entered_at


def clock_deal_check(table: Table, actor: Actor, entered_at: datetime | None = None) -> BeforeTheCall | None:
    """Before a new deal goes on the sheet (the rules, Time): after time was called only staff add one; the
    first deal entered once the table's time is up is the hand that was in play, and time is called with it (a
    playoff table has a clock only when the director turned it on for the playoff).

    A deal reaches the server when the phone is online; ``entered_at`` is when the phone says it was entered
    (``stated_time``). One entered before time was called (or before the table's time was up) counts as played
    before it however late it arrives: returned, for the history. Nothing else changes: the round's limit of hands,
    the rotation and a signed sheet still refuse what they refuse."""
    forfeit_check(table)
    now = timezone.now()
    stated = stated_time(table, entered_at, now)
    called = table.time_called_at
    if called is not None:
        if stated is not None and stated < called:
            return BeforeTheCall(stated, called, called=True)
        time_called_check(table, actor)
        return None
    if table.clock.is_up(now):
        ends = table.clock.ends_at
        if stated is not None and ends is not None and stated < ends:
            return BeforeTheCall(stated, ends, called=False)
        table.time_called_at = stated or now
        table.save(update_fields=["time_called_at"])
    return None


def table_time_call(*, table: Table, context: ChangeContext) -> Table:
    """Time called at a table between hands: the round is over with the hands played, then signed as usual (a
    playoff match level at the call plays on one hand at a time while level).

    The table link may call it once the table's time is up; staff at any time (before the first hand is
    complete it is a 0–0 tie, with the director's rulings).
    """
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        if table.time_called_at is not None:
            raise ServiceError(f"Time was already called at table {table.number}.")
        if table.complete:
            raise ServiceError(f"Table {table.number} has played all its hands: there is no time to call.")
        now = timezone.now()
        if not actor.is_staff and not table.clock.is_up(now):
            left = clock_text(table.clock.remaining(now))
            raise ServiceError(
                "Time is not up yet" + (f": {left} left." if left else ": this round has no clock running.")
            )
        table.time_called_at = now
        table.save(update_fields=["time_called_at"])
        return Change(
            LogEntry.Action.TIME_CALLED,
            lambda: f"Time called after hand {table.hands_played}",
            after=lambda: {"time_called_after": table.hands_played},
            result=table,
        )

    return sheet_write(table, context=context, edit=edit)


def table_time_call_lift(*, table: Table, context: ChangeContext) -> Table:
    """Staff take back time called (called by mistake, or a hand the director allows): the sheet is open for
    its next hand again. On a signed sheet it is a correction and needs a reason."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        if not actor.is_staff:
            raise ServiceError("Only staff can take back time called.")
        if table.time_called_at is None:
            raise ServiceError(f"Time was not called at table {table.number}.")
        before = {"time_called_after": table.hands_played}
        table.time_called_at = None
        table.save(update_fields=["time_called_at"])
        return Change(LogEntry.Action.TIME_CALLED, "Time called taken back", before=before, result=table)

    return sheet_write(table, context=context, edit=edit)
