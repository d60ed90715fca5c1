"""Penalties from the rule sheet and the director's rulings, added to a sheet and undone."""

from typing import cast

import scoring
from scoring import BidOutOfTurnChoice, Pair, PenaltyKind
from scoring.penalties import Inputs
from tournament.errors import ServiceError, engine_refusal
from tournament.models import Hand, LogEntry, Penalty, Table
from tournament.services.sheets.entries import penalty_fields
from tournament.services.sheets.write import Change, ChangeContext, may_change, sheet_write


def _penalty_snapshot(penalty: Penalty) -> dict:
    entered = {name: getattr(penalty, name) for name in ("kind", "team", "count", "choice", "points")}
    return entered | {"hand": penalty.hand.hand_number if penalty.hand else None}


def _rule(kind: str, team: str, count: int, choice: str, points: int) -> scoring.Penalty:
    """The penalty as the engine reads it; entries that do not belong to the offence are ignored."""
    inputs = PenaltyKind(kind).inputs if kind in PenaltyKind.values() else Inputs()
    with engine_refusal():
        # The engine reads the entries' words itself, refusing what is none of its values.
        return scoring.Penalty(
            kind=cast(PenaltyKind, kind),
            team=cast(Pair, team),
            count=count if inputs.count else 1,
            choice=cast(BidOutOfTurnChoice, choice or None) if inputs.choice else None,
            points=points if inputs.points else 0,
        )


def penalty_add(
    *,
    table: Table,
    kind: str,
    team: str,
    hand: Hand | None = None,
    count: int = 1,
    choice: str = "",
    points: int = 0,
    context: ChangeContext,
) -> Penalty:
    """Record a penalty from the rule sheet; its points come from the tournament's rule set."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        rule = _rule(kind, team, count, choice, points)
        if rule.kind.inputs.staff_only:
            if not actor.is_staff:
                raise ServiceError("Only the tournament director or scorekeeper can make a ruling.", field="kind")
            if not context.reason.strip():
                raise ServiceError("A ruling needs its reason in writing.", field="reason")
        elif hand is None:
            raise ServiceError("Choose the hand it happened in.", field="hand")
        if rule.causes_redeal:
            raise ServiceError("A re-deal after a bid out of turn is recorded as a re-deal.", field="choice")
        if hand is not None and hand.table_id != table.pk:
            raise ServiceError("That hand is not on this sheet.", field="hand")
        penalty = Penalty.objects.create(
            table=table,
            hand=hand,
            kind=rule.kind,
            team=rule.team,
            count=rule.count,
            choice=rule.choice or "",
            points=rule.points,
            reason=context.reason.strip(),
            created_by=actor.account,
        )
        where = f"hand {hand.hand_number}" if hand else "the round"
        return Change(
            LogEntry.Action.PENALTY_ADDED,
            lambda: f"{penalty.description} ({where})",
            after=lambda: _penalty_snapshot(penalty),
            result=penalty,
        )

    return sheet_write(table, context=context, edit=edit)


def penalty_remove(
    *,
    penalty: Penalty,
    context: ChangeContext,
) -> LogEntry:
    """Undo a penalty; the sheet is rescored without it. Returns the removal's entry (see removal_undo)."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        stored = Penalty.objects.select_related("hand").get(pk=penalty.pk, table=table)
        if PenaltyKind(stored.kind).inputs.staff_only and not actor.is_staff:
            raise ServiceError("Only the tournament director or scorekeeper can undo a ruling.")
        if not may_change(actor, stored):
            raise ServiceError("Staff applied this penalty: only the tournament scorekeeper or director can undo it.")
        if not stored.removable:
            raise ServiceError("This penalty is why the cards were dealt again: remove the re-deal instead.")
        before = {
            **_penalty_snapshot(stored),
            "restore": {"hand_sequence": stored.hand.sequence if stored.hand else None, **penalty_fields(stored)},
        }
        description = stored.description
        stored.delete()
        return Change(LogEntry.Action.PENALTY_REMOVED, f"Removed: {description}", before=before)

    return sheet_write(penalty.table, context=context, edit=edit)
