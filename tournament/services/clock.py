"""The round clock (the rules, Time): the director starts, pauses, resumes and adds time to a round or to one
table; at time a table finishes the hand in play, and the sheet is complete with the hands played.

Each table keeps its own clock (the round's, plus what was added to it alone), so every page reads one table's
time from its own row. The round keeps the clock the projector shows.

Once every table of the round is signed (a forfeit is signed as declared), the round is complete: the service
that signed the last sheet stores it (``round_completion_store``), the clock stops there and every page that
shows it says the round is complete. A sheet opened again (a forfeit undone) or a playoff table opened in the
round makes it incomplete again: the round's clock then shows what is left of its time, as the tables' own
clocks, which never stopped, do.
"""

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from scoring import Clock, clock_text
from tournament.errors import ServiceError, engine_refusal
from tournament.models import LogEntry, PlayoffMatch, Round, Table
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write

T = TypeVar("T")


def _completed_at(round_: Round) -> datetime | None:
    """When the round's last sheet was signed, if every table of it is signed and (a playoff round) no match of
    its stage waits for its teams to open its table; else None."""
    if round_.status == Round.Status.DRAFT:
        return None
    tables = round_.tables.aggregate(
        count=Count("pk"), playing=Count("pk", filter=Q(locked_at__isnull=True)), last=Max("locked_at")
    )
    if not tables["count"] or tables["playing"]:
        return None
    if round_.kind == Round.Kind.PLAYOFF:
        stages = PlayoffMatch.objects.filter(table__round=round_).values("stage")
        waiting = PlayoffMatch.objects.filter(
            tournament_id=round_.tournament_id, stage__in=stages, not_needed=False, table__isnull=True
        )
        if waiting.exists():
            return None
    return tables["last"]


def round_completion_store(*, round: Round) -> Round:
    """Store whether the round is complete, and since when (its last signature), in the transaction of the service
    that signed, forfeited, reopened or opened one of its tables: the round's clock stops when its last sheet is
    signed. Signers at different tables take turns here only (PostgreSQL: ``FOR NO KEY UPDATE`` on the round,
    which the saves' ``FOR KEY SHARE`` does not wait for), so the last of two signing at once sees the other's
    signature."""
    round_ = Round.objects.select_for_update(no_key=True).get(pk=round.pk)
    completed_at = _completed_at(round_)
    if completed_at != round_.completed_at:
        Round.objects.filter(pk=round_.pk).update(completed_at=completed_at)
    round.completed_at = completed_at
    return round


def _clock_set(record: Round | Table, clock: Clock) -> None:
    record.clock_ends_at, record.clock_left_seconds = clock.ends_at, clock.left_seconds


def _engine(call: Callable[[], T]) -> T:
    """Run a clock's arithmetic; its refusal is the service's."""
    with engine_refusal():
        return call()


def _round_locked(round: Round) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament__event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise ServiceError(f"{round_.title} is not being played: its clock runs only while it is published.")
    if round_.complete:
        raise ServiceError(f"{round_.title} is complete: every sheet is signed, and its clock has stopped.")
    return round_


def _playing_tables(round_: Round) -> list[Table]:
    """The round's tables still playing (not complete, not signed), locked."""
    return list(round_.tables.select_for_update().filter(complete=False, locked_at__isnull=True).order_by("number"))


def _clock_changed(round_: Round, actor: Actor, summary: str, *, table: Table | None = None, minutes: int = 0) -> None:
    """The round's clock (or ``table``'s) changed: logged, and the pages that show it moved."""
    after = {"ends_at": round_.clock_ends_at, "left_seconds": round_.clock_left_seconds}
    if table is not None:
        after = {"ends_at": table.clock_ends_at, "left_seconds": table.clock_left_seconds}
    log_write(
        actor=actor,
        action=LogEntry.Action.CLOCK,
        summary=summary,
        tournament=round_.tournament,
        round_number=round_.number,
        table=table,
        after={key: value.isoformat() if isinstance(value, datetime) else value for key, value in after.items()}
        | ({"minutes": minutes} if minutes else {}),
    )
    changed(Changed.CLOCK, round_)


def _save(round_: Round, tables: list[Table]) -> None:
    round_.save(update_fields=["clock_started_at", "clock_ends_at", "clock_left_seconds"])
    Table.objects.bulk_update(tables, ["clock_ends_at", "clock_left_seconds", "clock_held"])


@transaction.atomic
def round_clock_start(*, round: Round, actor: Actor | None = None) -> Round:
    """Start the round's clock at the tournament's ``round_minutes``, for every table of the round; a playoff
    round's only when the director turned on the clock for the playoff (``playoff_clock``)."""
    actor = actor_of(actor)
    round_ = _round_locked(round)
    if round_.kind == Round.Kind.PLAYOFF and not round_.tournament.rules.playoff_clock:
        raise ServiceError(
            "The playoff plays without the clock: a match plays to its end. To time the playoff, turn on "
            "“Clock in the playoff” in the tournament's rules."
        )
    if round_.clock.started:
        raise ServiceError(f"The clock of {round_.title.lower()} is already started.")
    now = timezone.now()
    minutes = round_.tournament.rules.round_minutes
    clock = _engine(lambda: Clock.start(now, minutes))
    round_.clock_started_at = now
    _clock_set(round_, clock)
    tables = _playing_tables(round_)
    for table in tables:
        _clock_set(table, clock)
    _save(round_, tables)
    _clock_changed(round_, actor, f"Round {round_.number}: clock started, {minutes} minutes")
    return round_


def _stepped(record: Round | Table, now: datetime, pause: bool) -> str:
    """The log's words for a clock just paused (or resumed)."""
    if pause:
        return f"clock paused with {clock_text(record.clock_left_seconds)} left"
    return f"clock resumed, {clock_text(record.clock.remaining(now))} left"


def _round_clock_pause_or_resume(round: Round, actor: Actor | None, pause: bool) -> Round:
    """Pause (or resume) the round's clock and the tables' it stops (or restarts): a table at time stays at time,
    a table paused on its own stays paused."""
    actor = actor_of(actor)
    round_ = _round_locked(round)
    now = timezone.now()
    step = Clock.pause if pause else Clock.resume
    _clock_set(round_, _engine(lambda: step(round_.clock, now)))
    if pause:
        tables = [table for table in _playing_tables(round_) if table.clock.running and not table.clock.is_up(now)]
    else:
        tables = [table for table in _playing_tables(round_) if table.clock.paused and not table.clock_held]
    for table in tables:
        _clock_set(table, step(table.clock, now))
    _save(round_, tables)
    _clock_changed(round_, actor, f"Round {round_.number}: {_stepped(round_, now, pause)}")
    return round_


@transaction.atomic
def round_clock_pause(*, round: Round, actor: Actor | None = None) -> Round:
    """Pause the round's clock and every table's still running; a table at time stays at time."""
    return _round_clock_pause_or_resume(round, actor, pause=True)


@transaction.atomic
def round_clock_resume(*, round: Round, actor: Actor | None = None) -> Round:
    """Resume the round's clock and every table's it paused (a table paused on its own stays paused)."""
    return _round_clock_pause_or_resume(round, actor, pause=False)


@transaction.atomic
def round_clock_add(*, round: Round, minutes: int, actor: Actor | None = None) -> Round:
    """Add minutes to the round's clock and to every table still playing."""
    actor = actor_of(actor)
    round_ = _round_locked(round)
    now = timezone.now()
    _clock_set(round_, _engine(lambda: round_.clock.plus(minutes, now)))
    tables = [table for table in _playing_tables(round_) if table.clock.started and table.time_called_at is None]
    for table in tables:
        _clock_set(table, table.clock.plus(minutes, now))
    _save(round_, tables)
    _clock_changed(
        round_, actor, f"Round {round_.number}: {minutes} minute{'s' if minutes != 1 else ''} added", minutes=minutes
    )
    return round_


def _table_locked(table: Table) -> tuple[Round, Table]:
    round_ = _round_locked(table.round)
    table_ = Table.objects.select_for_update().get(pk=table.pk)
    table_.round = round_
    if table_.signed or table_.complete:
        raise ServiceError(f"Table {table_.number} has finished its round: its clock has nothing left to run.")
    if not table_.clock.started:
        raise ServiceError(f"The clock of {round_.title.lower()} has not started.")
    return round_, table_


@transaction.atomic
def table_clock_start(*, table: Table, actor: Actor | None = None) -> Table:
    """Start the clock of a table seated after the round's clock started (a playoff match opens once both its
    teams are known), at the tournament's ``round_minutes`` from now."""
    actor = actor_of(actor)
    round_ = _round_locked(table.round)
    table_ = Table.objects.select_for_update().get(pk=table.pk)
    table_.round = round_
    if not round_.clock.started:
        raise ServiceError(f"The clock of {round_.title.lower()} has not started: start the round's clock.")
    if table_.signed or table_.complete:
        raise ServiceError(f"Table {table_.number} has finished its round: its clock has nothing left to run.")
    if table_.clock.started:
        raise ServiceError(f"Table {table_.number}'s clock is already started.")
    if round_.clock.paused:
        raise ServiceError("The round's clock is paused: resume it, then start this table's.")
    minutes = round_.tournament.rules.round_minutes
    _clock_set(table_, _engine(lambda: Clock.start(timezone.now(), minutes)))
    _table_save(table_)
    _clock_changed(round_, actor, f"Table {table_.number}: clock started, {minutes} minutes", table=table_)
    return table_


def _table_save(table: Table) -> None:
    table.save(update_fields=["clock_ends_at", "clock_left_seconds", "clock_held"])


def _table_clock_pause_or_resume(table: Table, actor: Actor | None, pause: bool) -> Table:
    """Pause one table's clock on its own (or resume it), while the round's clock runs."""
    actor = actor_of(actor)
    round_, table_ = _table_locked(table)
    if not pause and not table_.clock_held:
        raise ServiceError(f"Table {table_.number}'s clock was not paused on its own: there is nothing to resume.")
    if round_.clock.paused:
        then = "every table's clock is stopped already" if pause else "resume the round, and this table goes on with it"
        raise ServiceError(f"The round's clock is paused: {then}.")
    now = timezone.now()
    step = Clock.pause if pause else Clock.resume
    _clock_set(table_, _engine(lambda: step(table_.clock, now)))
    table_.clock_held = pause
    _table_save(table_)
    _clock_changed(round_, actor, f"Table {table_.number}: {_stepped(table_, now, pause)}", table=table_)
    return table_


@transaction.atomic
def table_clock_pause(*, table: Table, actor: Actor | None = None) -> Table:
    """Pause one table's clock (a long ruling); the round's clock runs on for the others."""
    return _table_clock_pause_or_resume(table, actor, pause=True)


@transaction.atomic
def table_clock_resume(*, table: Table, actor: Actor | None = None) -> Table:
    """Resume a table's clock paused on its own."""
    return _table_clock_pause_or_resume(table, actor, pause=False)


@transaction.atomic
def table_clock_add(*, table: Table, minutes: int, actor: Actor | None = None) -> Table:
    """Add minutes to one table's clock (a late re-seat, a long ruling)."""
    actor = actor_of(actor)
    round_, table_ = _table_locked(table)
    if table_.time_called_at is not None:
        raise ServiceError(f"Time was called at table {table_.number}: lift the call before adding time.")
    now = timezone.now()
    _clock_set(table_, _engine(lambda: table_.clock.plus(minutes, now)))
    _table_save(table_)
    summary = f"Table {table_.number}: {minutes} minute{'s' if minutes != 1 else ''} added"
    _clock_changed(round_, actor, summary, table=table_, minutes=minutes)
    return table_
