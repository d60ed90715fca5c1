"""Time at a table (the rules, Time): the hand in play when time is up is the last, and the sheet is complete
with the hands played ("time called after hand 3"), then signed as usual."""

from django.utils import timezone

from scoring import clock_text
from tournament.errors import ServiceError
from tournament.models import LogEntry, Table
from tournament.services.log import TABLE_LINK, Actor, actor_of
from tournament.services.sheets.write import Change, sheet_write


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


def clock_deal_check(table: Table, actor: Actor) -> None:
    """Before a new deal goes on the sheet (the rules, Time): after time was called only staff add one; the
    first deal entered once the table's time is up is the hand that was in play, and time is called with it (a
    playoff table has a clock only when the director turned it on for the playoff)."""
    forfeit_check(table)
    if table.time_called_at is not None:
        time_called_check(table, actor)
        return
    now = timezone.now()
    if table.clock.is_up(now):
        table.time_called_at = now
        table.save(update_fields=["time_called_at"])


def table_time_call(*, table: Table, version: int, user=None, actor: Actor | None = None) -> Table:
    """Time called at a table between hands: the round is over with the hands played, then signed as usual (a
    playoff match level at the call plays on one hand at a time while level).

    The table link may call it once the table's time is up; staff at any time (before the first hand is
    complete it is a 0–0 tie, with the director's rulings).
    """
    actor = actor_of(actor, user, default=TABLE_LINK)

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

    return sheet_write(table, version=version, actor=actor, edit=edit)


def table_time_call_lift(*, table: Table, version: int, reason: str = "", user=None, actor: Actor | None = None):
    """Staff take back time called (called by mistake, or a hand the director allows): the sheet is open for
    its next hand again. On a signed sheet it is a correction and needs a reason."""
    actor = actor_of(actor, user, default=TABLE_LINK)

    def edit(table: Table, correction: bool) -> Change:
        if not actor.is_staff:
            raise ServiceError("Only staff can take back time called.")
        if table.time_called_at is None:
            raise ServiceError(f"Time was not called at table {table.number}.")
        before = {"time_called_after": table.hands_played}
        table.time_called_at = None
        table.save(update_fields=["time_called_at"])
        return Change(LogEntry.Action.TIME_CALLED, "Time called taken back", before=before, result=table)

    return sheet_write(table, version=version, actor=actor, edit=edit, reason=reason)
