"""The round clock as pages show it: the server's remaining time, its warning, and each table's projected
finish for the live view."""

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from scoring import ClockLevel, Projection, RuleSet, clock_text, projected_finish
from tournament.models import Hand, Round, Table

UP_WORDS = "Time: finish this hand; no new hand"
ROUND_COMPLETE = "Complete: every sheet is signed"


@dataclass(frozen=True)
class ClockView:
    """One clock (the round's, or a table's) at the moment the page was rendered.

    The page carries ``ends_ms`` (the server's deadline, in milliseconds since 1970) for the script that ticks
    it; without the script the rendered ``text`` stands. A table done playing (``done`` says how), or a round
    complete (every sheet signed), shows that instead of a clock: the clock has stopped.
    """

    remaining: int
    ends_at: datetime | None
    level: ClockLevel
    warn_minutes: int
    last_warn_minutes: int
    now_ms: int
    time_called_after: int | None = None
    plays_on: bool = False
    done: str = ""

    @property
    def text(self) -> str:
        return clock_text(self.remaining)

    @property
    def running(self) -> bool:
        return self.ends_at is not None

    @property
    def paused(self) -> bool:
        return self.level is ClockLevel.PAUSED

    @property
    def up(self) -> bool:
        return self.level is ClockLevel.UP

    @property
    def ends_ms(self) -> int | str:
        return int(self.ends_at.timestamp() * 1000) if self.ends_at is not None else ""

    @property
    def words(self) -> str:
        if self.plays_on:
            return f"Time called after hand {self.time_called_after}: the match is level, one more hand"
        if self.time_called_after is not None:
            return f"Time called after hand {self.time_called_after}"
        if self.up:
            return UP_WORDS
        if self.paused:
            return "Paused"
        return "left"


def table_done(table: Table) -> str:
    """How a table's play ended, shown where its clock stood (and that its round is complete, once every sheet of
    it is signed): "" while it still plays."""
    if table.round.complete:
        return f"{'Forfeit' if table.forfeit else 'Signed'}: the round is complete"
    if table.forfeit:
        return "Forfeit"
    if table.signed:
        return "Signed"
    if table.complete and table.time_called_after is not None:
        return f"Time called after hand {table.time_called_after}"
    if table.complete:
        return "All hands played"
    return ""


def clock_view(record: Round | Table, rules: RuleSet, now: datetime | None = None) -> ClockView | None:
    """The clock of a round or table as a page shows it; None when it has not started. Once the round is complete
    (``Round.completed_at``, stored by the service that signed its last sheet) it has stopped: every page says
    so instead of counting."""
    clock = record.clock
    if not clock.started:
        return None
    now = now or timezone.now()
    level = clock.level(now, warn_minutes=rules.warn_minutes, last_warn_minutes=rules.last_warn_minutes)
    called = record.time_called_after if isinstance(record, Table) else None
    return ClockView(
        remaining=clock.remaining(now) or 0,
        ends_at=clock.ends_at,
        level=level,
        warn_minutes=rules.warn_minutes,
        last_warn_minutes=rules.last_warn_minutes,
        now_ms=int(now.timestamp() * 1000),
        time_called_after=called,
        plays_on=isinstance(record, Table) and record.plays_on_after_time,
        done=table_done(record) if isinstance(record, Table) else ROUND_COMPLETE if record.complete else "",
    )


def clock_state(clock: ClockView | None) -> tuple:
    """What a page draws of ``clock`` that moves with time alone, for a private page's ETag
    (``pagecache.private``): its level, and the minute it runs in. The script counts the seconds from the deadline
    the page carries (and the server's time it measures); without the script, a reload in a later minute draws the
    page afresh."""
    if clock is None:
        return ()
    counting = clock.running and not clock.done and not clock.up and clock.time_called_after is None
    return (clock.level, clock.done, clock.remaining // 60 if counting else None)


def server_now_ms() -> int:
    """The server's time, for the script that corrects a phone's own clock."""
    return int(timezone.now().timestamp() * 1000)


def round_projections(round_: Round, tables: list[Table], rules: RuleSet) -> list[tuple[Table, Projection]]:
    """The tables still playing against a running clock, each with its projected finish from the times its
    hands were saved, the likeliest to run over first (one query)."""
    if round_.clock_started_at is None:
        return []
    playing = {
        table.pk: (table, ends_at)
        for table in tables
        if (ends_at := table.clock_ends_at) and not table.complete and not table.signed
    }
    saved: dict[int, list[datetime]] = {pk: [] for pk in playing}
    for table_id, created_at in Hand.objects.filter(table_id__in=playing, counts=True).values_list(
        "table_id", "created_at"
    ):
        saved[table_id].append(created_at)
    now = timezone.now()
    started_at = round_.clock_started_at
    projections = [
        (
            table,
            projected_finish(
                started_at=started_at,
                ends_at=ends_at,
                hand_saved_at=saved[table.pk],
                hands_per_round=rules.hands_per_round,
                now=now,
            ),
        )
        for table, ends_at in playing.values()
    ]

    def overtime_first(pair: tuple[Table, Projection]) -> tuple[bool, int, int]:
        over = pair[1].minutes_over
        return (over is None, -(over or 0), pair[0].number)

    return sorted(projections, key=overtime_first)
