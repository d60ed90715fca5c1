"""The one write path of a score sheet: every change to a sheet goes through ``sheet_write``.

It locks the table and checks the version the person was looking at, decides whether the change is a
staff correction (refusing what the table link may not do), makes the change, rescores the whole sheet
through the engine (refusing the change if the rules do), voids signatures a change invalidates, stores whether
the round is complete when the sheet is signed or opened again, writes the history, says what the change moves
on the public pages (``services.changes``) and carries a playoff result on through the bracket. A new kind of
change is an ``edit``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection, models, transaction

from tournament.errors import ServiceError
from tournament.models import Event, Hand, LogEntry, Penalty, Round, Table, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.clock import round_completion_store
from tournament.services.log import TABLE_LINK, Actor, log_write
from tournament.services.playoffs import playoff_after_change
from tournament.services.recompute import TABLE_RESULTS, table_recompute
from tournament.typed import REASON_LIMIT, text_checked


class StaleSheet(ServiceError):
    """The sheet changed after the person loaded it; their change was not saved. ``changes`` names what
    changed and who changed it, for a page that says it in its own words."""

    about_the_form = False

    def __init__(self, message: str, *, changes: str):
        super().__init__(message)
        self.changes = changes


@dataclass
class Change:
    """What an edit did, for the sheet's history; ``result`` is what the service returns.

    ``summary`` and ``after`` may be functions: they are called once the sheet is rescored and the records
    it holds are up to date, for what only scoring decides (a hand's number, an exposed card's warning).
    """

    action: str
    summary: str | Callable[[], str]
    before: dict | None = None
    after: dict | Callable[[], dict] | None = None
    result: Any = None
    voids_signatures: bool = True
    records: tuple = ()

    def held_records(self) -> tuple:
        """The records the change holds: ``records``, else a record returned as ``result``."""
        return self.records or ((self.result,) if isinstance(self.result, models.Model) else ())

    def settle(self, *, reload: bool = True) -> None:
        """Bring the records the change holds up to date (reloading them unless scoring already did)."""
        for record in self.held_records() if reload else ():
            if record.pk is not None:
                record.refresh_from_db()
        if callable(self.summary):
            self.summary = self.summary()
        if callable(self.after):
            self.after = self.after()

    @property
    def said(self) -> str:
        """The summary, worked out (``settle``)."""
        assert isinstance(self.summary, str), "a change is said once settled"
        return self.summary


@dataclass(frozen=True)
class ChangeContext:
    """What a change to a sheet carries besides the change itself: the version the person was looking at, who
    makes it, the correction's reason, a confirmed knock-on in the bracket and the director's ruling.

    The view builds it once and the services pass it whole to ``sheet_write``.
    """

    version: int
    actor: Actor = TABLE_LINK
    reason: str = ""
    confirm_knock_on: bool = False
    director_ruling: bool = False


def _round_held(round_id: int) -> None:
    """On PostgreSQL, hold the table's round, tournament and event against change until this transaction ends
    (``FOR KEY SHARE``, which Django's ``select_for_update`` cannot ask for): saves at other tables share it and
    go on at once, while a service that locks one of them for update (publishing or unpublishing the round, its
    clock, a draw) waits for the saves under way, and a save for it, reading the round as that service left it.
    SQLite needs nothing: its writers take turns (``BEGIN IMMEDIATE``)."""
    if connection.vendor != "postgresql":
        return
    round_, tournament, event = (model._meta.db_table for model in (Round, Tournament, Event))
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT 1 FROM "{round_}" r JOIN "{tournament}" t ON t.id = r.tournament_id '
            f'JOIN "{event}" e ON e.id = t.event_id WHERE r.id = %s FOR KEY SHARE',
            [round_id],
        )


def locked_table(table: Table, version: int, unseen: Callable[[LogEntry], bool] | None = None) -> Table:
    """The table, locked for this transaction, if nobody changed it since ``version`` was read, apart from
    changes the person could not have seen (``unseen``: another team's blind entry). Only the table's own row
    is locked for update: locking its round and tournament too made every save of a tournament wait for the
    one before it to commit (PostgreSQL)."""
    _round_held(table.round_id)
    locked = Table.objects.select_for_update(of=("self",)).select_related("round__tournament__event").get(pk=table.pk)
    if version != locked.version:
        changes = list(LogEntry.objects.filter(table=locked, version__gt=version).order_by("version", "pk"))
        if unseen is not None and changes and all(unseen(change) for change in changes):
            return locked
        said = "; ".join(f"{change.summary} ({change.who})" for change in changes) or "it was changed"
        raise StaleSheet(
            f"This sheet changed since you opened it: {said}. Nothing of yours was saved: "
            "check the sheet as it is now and enter it again.",
            changes=said,
        )
    return locked


def correction_check(table: Table, actor: Actor, reason: str, reason_field: str = "reason") -> bool:
    """Whether a change to the sheet is a staff correction; refuses what the table link may not do.

    ``reason_field`` names the entry holding the correction's reason, for the refusal when it is missing.
    """
    if table.round.status == Round.Status.DRAFT:
        raise ServiceError("This round is not published yet.")
    if table.signed or table.round.status == Round.Status.CLOSED:
        if not actor.is_staff:
            raise ServiceError("This sheet is signed and locked. Ask the tournament scorekeeper for any correction.")
        if not reason.strip():
            raise ServiceError("A correction to a signed sheet needs a reason.", field=reason_field)
        return True
    return False


def _history(
    table: Table, actor: Actor, change: Change, *, reason: str = "", correction: bool = False, results: bool = False
) -> LogEntry:
    """Move the sheet's version on (storing the table's new ``results`` in the same UPDATE) and log the change."""
    table.version += 1
    stored = ["version", *(TABLE_RESULTS if results else ())]
    Table.objects.filter(pk=table.pk).update(**{name: getattr(table, name) for name in stored})
    return log_write(
        actor=actor,
        action=change.action,
        summary=change.said,
        table=table,
        before=change.before,
        after=change.after,
        reason=reason,
        correction=correction,
    )


def _void_signatures(table: Table, actor: Actor) -> None:
    """A change to a sheet not yet locked voids any signature already given: it must be signed again."""
    if table.signed:
        return
    signed = list(table.signatures.select_related("player", "substitute"))
    if signed:
        table.signatures.all().delete()
        names = ", ".join(signature.signer_name for signature in signed)
        # With the table's results as the change left them: the log's entry may store the standings again.
        _history(
            table,
            actor,
            Change(LogEntry.Action.SIGNATURES_CLEARED, f"Sheet changed after {names} signed: sign again"),
            results=True,
        )


def _result_reversal_check(table: Table, actor: Actor, director_ruling: bool) -> None:
    """A signed sheet with the result the wrong way round stands unless the director rules it (the rules)."""
    if not actor.is_director:
        raise ServiceError(
            f"This correction changes who won table {table.number}. A signed result is changed only by the "
            "tournament director's ruling: ask the director."
        )
    if not director_ruling:
        raise ServiceError(
            f"This correction changes who won table {table.number}: confirm that it is your ruling.",
            field="director_ruling",
        )


def may_change(actor: Actor, record: Hand | Penalty) -> bool:
    """What staff entered (a hand, a penalty or a ruling) only staff may change or remove."""
    return actor.is_staff or not record.by_staff


@transaction.atomic
def sheet_write(
    table: Table,
    *,
    edit: Callable[[Table, bool], Change | None],
    context: ChangeContext,
    reason_field: str = "reason",
    scored: bool = True,
    unseen: Callable[[LogEntry], bool] | None = None,
) -> Any:
    """Make one change to a sheet and return what the edit returned as its ``result`` (else the history entry).

    ``edit(table, correction)`` receives the locked table and whether this is a staff correction; it makes
    the change and describes it, or returns None when nothing changed. A ``scored`` change (hands,
    penalties, the first dealer) may be a correction and rescores the sheet; signing and disputes are not.
    ``context`` says who makes the change, from which version and why; its ``reason`` is the correction's
    reason, passed to the service as ``reason_field``. A correction that changes who won a signed sheet stands
    only as a director's ruling (``director_ruling``). Changes since the version for which ``unseen`` is true do
    not make the person's view stale.
    """
    actor = context.actor
    reason = text_checked(context.reason, what="The reason", limit=REASON_LIMIT, field=reason_field)
    table = locked_table(table, context.version, unseen)
    correction = correction_check(table, actor, reason, reason_field) if scored else False
    signed_before = table.signed
    winner_before = table.winner_pair if signed_before else None
    was_complete = table.complete
    change = edit(table, correction)
    if change is None:
        return None
    if table.signed != signed_before:
        # Signed (or a forfeit declared), or opened again: the round may now be complete, or no longer.
        round_completion_store(round=table.round)
    if scored:
        table_recompute(table, results_to=change.held_records(), table_results=False)
    change.settle(reload=not scored)
    if correction and table.winner_pair != winner_before:
        _result_reversal_check(table, actor, context.director_ruling)
        change.summary = f"{change.said}; the director's ruling changes the result"
    if change.voids_signatures and was_complete:
        # Only a complete sheet is signed: an incomplete one has no signature to void.
        _void_signatures(table, actor)
    entry = _history(table, actor, change, reason=reason, correction=correction, results=scored)
    changed(Changed.SHEET, table, signed_before=signed_before)
    playoff_after_change(table, winner_before=winner_before, actor=actor, confirm_knock_on=context.confirm_knock_on)
    return entry if change.result is None else change.result


@transaction.atomic
def sheet_rescore(*, table: Table, actor: Actor) -> dict[str, list[str]]:
    """Score a stored sheet again from its entries (after a change to the engine, or a repair) and return the stored
    values that differed, by record; when any did, the sheet's version moves and the rescoring is logged and said."""
    table = Table.objects.select_for_update(of=("self",)).select_related("round__tournament__event").get(pk=table.pk)
    differences = table_recompute(table)
    if differences:
        summary = f"Stored scores rescored: {sum(map(len, differences.values()))} value(s) differed"
        _history(table, actor, Change(LogEntry.Action.RESCORED, summary, after=differences))
        changed(Changed.SHEET, table)
    return differences
