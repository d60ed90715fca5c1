"""Putting back what was just removed from a sheet: the last removal, from its entry in the history."""

from django.contrib.auth import get_user_model
from django.utils import timezone

from tournament.errors import ServiceError
from tournament.models import Hand, LogEntry, Penalty, Table
from tournament.services.sheets.write import Change, ChangeContext, sheet_write


def _penalty(table: Table, hand: Hand | None, fields: dict) -> Penalty:
    values = {name: fields[name] for name in Penalty.ENTRY_FIELDS}
    author = fields.get("created_by_id")
    if author is not None and not get_user_model().objects.filter(pk=author).exists():
        author = None
    return Penalty.objects.create(table=table, hand=hand, created_by_id=author, **values)


def removal_undo(*, table: Table, removal: LogEntry, context: ChangeContext) -> LogEntry:
    """Put back the hand (with its penalties) or the penalty that ``removal`` took away, as it was.

    Only the sheet's last change can be undone this way; signatures the removal voided stay void.
    """

    def edit(table: Table, correction: bool) -> Change:
        if removal.table_id != table.pk or removal.action not in (
            LogEntry.Action.HAND_REMOVED,
            LogEntry.Action.PENALTY_REMOVED,
        ):
            raise ServiceError("There is no removal to undo here.")
        before = removal.before or {}
        if removal.version != table.version or "restore" not in before:
            raise ServiceError("Only the last change to the sheet can be undone; correct the sheet instead.")
        kept = before["restore"]
        if removal.action == LogEntry.Action.HAND_REMOVED:
            fields = dict(kept["hand"])
            accepted = fields.pop("accepted")
            for later in table.hands.filter(sequence__gte=fields["sequence"]).order_by("-sequence"):
                later.sequence += 1
                later.save(update_fields=["sequence"])
            hand = Hand.objects.create(table=table, accepted_at=timezone.now() if accepted else None, **fields)
            for penalty in kept["penalties"]:
                _penalty(table, hand, penalty)
            what = removal.summary.removeprefix("Removed ")
        else:
            fields = dict(kept)
            sequence = fields.pop("hand_sequence")
            on = table.hands.filter(sequence=sequence).first() if sequence is not None else None
            if sequence is not None and on is None:
                raise ServiceError("The hand of that penalty is no longer on the sheet.")
            _penalty(table, on, fields)
            what = removal.summary.removeprefix("Removed: ")
        return Change(LogEntry.Action.REMOVAL_UNDONE, f"Put back: {what}", after=kept)

    return sheet_write(table, context=context, edit=edit)
