"""Entering, changing and removing the deals of a sheet, and naming the first dealer."""

from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime

from django.db.models import Max
from django.utils import timezone

import scoring
from scoring import PenaltyKind, RedealReason, Seat
from tournament.errors import ServiceError
from tournament.models import Hand, LogEntry, Penalty, Table
from tournament.services.log import TABLE_LINK, Actor
from tournament.services.recompute import sheet_load, sheet_score
from tournament.services.sheets.entries import (
    ENTRY_ID,
    HandEntry,
    apply_entry,
    checked_entry,
    first_dealer_from,
    hand_record_fields,
    hand_snapshot,
    out_of_turn_mark,
    penalty_fields,
    redeal_checked,
    redeal_penalty_create,
)
from tournament.services.sheets.time import clock_deal_check, forfeit_check, time_called_check
from tournament.services.sheets.write import Change, ChangeContext, StaleSheet, may_change, sheet_write


def _mark_out_of_turn(table: Table, hand: Hand, entry: HandEntry, actor: Actor) -> None:
    """Store the mark as the hand's deal-out-of-turn penalty, or take it away."""
    marks = hand.penalties.filter(kind=PenaltyKind.DEAL_OUT_OF_TURN, before_bidding=False)
    if not entry.out_of_turn:
        marks.delete()
        return
    team = Seat(entry.dealer).pair
    if not marks.filter(team=team).exists():
        marks.delete()
        Penalty.objects.create(
            table=table, hand=hand, kind=PenaltyKind.DEAL_OUT_OF_TURN, team=team, created_by=actor.account
        )


def entry_mode_check(table: Table, actor: Actor) -> None:
    """In blind double entry each team enters every deal on its own phone; only staff enter one directly."""
    if table.round.tournament.double_entry and not actor.is_staff:
        raise ServiceError(
            "In this tournament each team enters every hand on its own phone, on its team page: "
            "a hand is recorded when both teams' entries agree."
        )


def entered_by(table: Table, actor: Actor) -> dict:
    """Who entered a deal and whether it still waits for the other team (when opponents accept each hand)."""
    if actor.is_staff:
        return {"entered_by": "", "accepted_at": timezone.now()}
    pair = table.sitting_pair
    if actor.team_id is not None:
        pair = table.seatings.get(team_id=actor.team_id).pair
    waits = table.round.tournament.accept_mode
    return {"entered_by": pair, "accepted_at": None if waits else timezone.now()}


def _staff_entries_check(actor: Actor, hand: Hand, *, with_penalties: bool = False) -> None:
    """The table link may not change a hand staff entered or corrected, nor remove a penalty staff applied."""
    if not may_change(actor, hand):
        raise ServiceError("Staff entered or corrected this hand: only the tournament scorekeeper can change it.")
    if with_penalties and any(not may_change(actor, penalty) for penalty in hand.penalties.all()):
        raise ServiceError("Staff applied a penalty on this hand: only the tournament scorekeeper can remove it.")


def _next_sequence(table: Table) -> int:
    return (table.hands.aggregate(highest=Max("sequence"))["highest"] or 0) + 1


def hand_preview(
    *, table: Table, entry: HandEntry, hand: Hand | None = None, actor: Actor | None = None
) -> scoring.RoundScore:
    """The sheet as it would be with this hand added (or ``hand`` changed), without saving anything.

    ``actor`` (default: the table link) is who would add it: after time was called only staff may."""
    if hand is None:
        forfeit_check(table)
        time_called_check(table, actor or TABLE_LINK)
    entry = checked_entry(table, entry)
    candidate = Hand(table=table, pk=hand.pk if hand else None)
    apply_entry(candidate, entry)
    sheet = sheet_load(table)
    marks = out_of_turn_mark(entry)
    if hand is None:
        return sheet_score(sheet, extra=candidate, extra_penalties=marks)
    return sheet_score(sheet, replace=candidate, extra_penalties=marks)


def table_first_dealer_set(
    *,
    table: Table,
    seat: str,
    context: ChangeContext,
) -> Table:
    """Name the seat dealt the first diamond: the first dealer of the round."""

    def edit(table: Table, correction: bool) -> Change:
        if seat not in Seat.values():
            raise ServiceError("Choose the seat dealt the first diamond.", field="seat")
        before = table.first_dealer
        table.first_dealer = seat
        table.save(update_fields=["first_dealer"])
        return Change(
            LogEntry.Action.FIRST_DEALER,
            f"First dealer: {Seat(seat).label}",
            before={"first_dealer": before},
            after={"first_dealer": seat},
            result=table,
        )

    return sheet_write(table, context=context, edit=edit)


def _call_unseen(entered_at: datetime | None) -> Callable[[LogEntry], bool]:
    """Time called at the table after the phone entered this deal (``entered_at``): a change the phone could not
    have seen, which does not make its entry stale (``clock_deal_check`` decides whether it came before the call)."""

    def unseen(change: LogEntry) -> bool:
        return (
            entered_at is not None and change.action == LogEntry.Action.TIME_CALLED and change.created_at > entered_at
        )

    return unseen


def hand_record(
    *,
    table: Table,
    entry: HandEntry,
    entry_id: str = "",
    entered_at: datetime | None = None,
    context: ChangeContext,
) -> Hand:
    """Enter the next played hand; the engine scores it and the whole sheet.

    ``entry_id`` is the phone's own id for the entry: a phone that sends it again (its answer was lost when
    the network dropped) gets the hand already recorded, and the sheet keeps it once. ``entered_at`` is when
    the phone says it entered the hand, on the server's clock: a hand entered before time was called counts as
    played before the call when it arrives after it (``clock_deal_check``), and its history entry says so.
    """
    actor = context.actor
    if entry_id and not ENTRY_ID.fullmatch(entry_id):
        raise ServiceError("The entry's id is not one this app gives: enter the hand again.", field="entry_id")
    if recorded := _recorded(table, entry_id, entry):
        return recorded

    def edit(table: Table, correction: bool) -> Change:
        entry_mode_check(table, actor)
        before_the_call = clock_deal_check(table, actor, entered_at)
        checked = checked_entry(table, entry)
        first_dealer_from(table, checked.dealer)
        hand = Hand(
            table=table,
            sequence=_next_sequence(table),
            by_staff=actor.is_staff,
            entry_id=entry_id,
            **entered_by(table, actor),
        )
        apply_entry(hand, checked)
        hand.save()
        if checked.out_of_turn:
            _mark_out_of_turn(table, hand, checked, actor)
        if table.round.tournament.double_entry:
            table.submissions.filter(sequence=hand.sequence).delete()
        said = f"; {before_the_call.words}" if before_the_call else ""
        return Change(
            LogEntry.Action.HAND_ADDED,
            lambda: f"Hand {hand.hand_number}: {hand.bid_text} by {Seat(hand.bidder).label}, {hand.books} books{said}",
            after=lambda: (
                hand_snapshot(hand, out_of_turn=checked.out_of_turn)
                | ({"entry_id": entry_id} if entry_id else {})
                | (before_the_call.fields() if before_the_call else {})
            ),
            result=hand,
        )

    try:
        return sheet_write(table, context=context, edit=edit, unseen=_call_unseen(entered_at))
    except StaleSheet:
        if recorded := _recorded(table, entry_id, entry):
            return recorded
        raise


class EntryClash(ServiceError):
    """An entry id the sheet already holds, sent again with different content: neither is dropped silently."""


def _recorded(table: Table, entry_id: str, entry: HandEntry) -> Hand | None:
    """The hand an entry with this id already put on the sheet, if any; refused if what was sent differs
    from what that entry recorded (the hand may have been corrected since: the entry as first recorded counts)."""
    if not entry_id:
        return None
    hands = Hand.objects.filter(table_id=table.pk, entry_id=entry_id)
    # Nearly every entry is new: a bare probe answers that, and only a resent entry's hand is read.
    if not hands.exists():
        return None
    hand = hands.get()
    recorded = (
        LogEntry.objects.filter(table_id=table.pk, action=LogEntry.Action.HAND_ADDED, after__entry_id=entry_id)
        .values_list("after", flat=True)
        .first()
    ) or hand_snapshot(hand)
    sent = checked_entry(table, entry)
    if any(recorded.get(name) != value for name, value in asdict(sent).items()):
        raise EntryClash(
            f"This entry was already saved as hand {hand.hand_number} ({hand.bid_text} by "
            f"{Seat(hand.bidder).label}, {hand.books} books), and what was sent now differs. Nothing was changed: "
            "check the sheet, then correct that hand or send this one as a new hand."
        )
    return hand


def redeal_record(
    *,
    table: Table,
    dealer: str,
    reason: str,
    team: str = "",
    context: ChangeContext,
) -> Hand:
    """Record a deal that does not count; the same hand number is dealt again.

    ``reason`` is why the cards are dealt again (a ``RedealReason``); a correction's reason is the context's
    (the sheet's re-deal form names it ``note``).
    """
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        why = redeal_checked(dealer, reason, team)
        if why is not RedealReason.DEAL_OUT_OF_TURN:
            first_dealer_from(table, dealer)
        entry_mode_check(table, actor)
        clock_deal_check(table, actor)
        hand = Hand.objects.create(
            table=table,
            sequence=_next_sequence(table),
            dealer=dealer,
            misdeal=why is RedealReason.MISDEAL,
            by_staff=actor.is_staff,
            **entered_by(table, actor),
        )
        redeal_penalty_create(hand, why, team, author=actor.account)
        return Change(
            LogEntry.Action.REDEAL_ADDED,
            lambda: f"Re-deal of hand {hand.hand_number} ({why.label.lower()})",
            after=lambda: {**hand_snapshot(hand), "reason": reason, "team": team},
            result=hand,
        )

    return sheet_write(table, context=context, edit=edit, reason_field="note")


def hand_update(
    *,
    hand: Hand,
    entry: HandEntry,
    context: ChangeContext,
) -> Hand:
    """Change a played hand; everything after it is rescored."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change | None:
        stored = Hand.objects.get(pk=hand.pk, table=table)
        if not stored.level:
            raise ServiceError("A re-deal has no bid to change: remove it instead.")
        _staff_entries_check(actor, stored)
        before = hand_snapshot(stored)
        checked = checked_entry(table, entry)
        apply_entry(stored, checked)
        after = {**hand_snapshot(stored), "out_of_turn": checked.out_of_turn}
        if before == after:
            return None
        _mark_out_of_turn(table, stored, checked, actor)
        entry_mode_check(table, actor)
        stored.by_staff = stored.by_staff or actor.is_staff
        for name, value in entered_by(table, actor).items():
            setattr(stored, name, value)
        stored.save()
        changed = ", ".join(f"{key} {before[key]} → {after[key]}" for key in after if before[key] != after[key])
        return Change(
            LogEntry.Action.HAND_CHANGED,
            f"Hand {stored.hand_number} changed: {changed}",
            before=before,
            after=after,
            result=stored,
        )

    changed = sheet_write(hand.table, context=context, edit=edit)
    return changed or hand


def hand_remove(
    *,
    hand: Hand,
    context: ChangeContext,
) -> LogEntry:
    """Remove a hand or re-deal entered by mistake, with its penalties; later deals move up.

    Returns the removal's entry in the sheet's history, from which ``removal_undo`` puts it back.
    """
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        entry_mode_check(table, actor)
        stored = Hand.objects.get(pk=hand.pk, table=table)
        _staff_entries_check(actor, stored, with_penalties=True)
        before = hand_snapshot(stored)
        label = f"hand {stored.hand_number}" if stored.counts else f"re-deal of hand {stored.hand_number}"
        penalties = [penalty.description for penalty in stored.penalties.all()]
        kept = {"hand": hand_record_fields(stored), "penalties": [penalty_fields(p) for p in stored.penalties.all()]}
        sequence = stored.sequence
        stored.delete()
        for moved in table.hands.filter(sequence__gt=sequence).order_by("sequence"):
            moved.sequence -= 1
            moved.save(update_fields=["sequence"])
        try:
            sheet_score(sheet_load(table))
        except ServiceError as error:
            raise ServiceError(
                f"Removing {label} moves the later hands up, and then: {error.message} Edit or remove the later "
                "hands first."
            ) from None
        return Change(
            LogEntry.Action.HAND_REMOVED,
            f"Removed {label}" + (f" with {'; '.join(penalties)}" if penalties else ""),
            before={**before, "penalties": penalties, "restore": kept},
        )

    return sheet_write(hand.table, context=context, edit=edit)
