"""Signing a completed sheet, and calling the director about it."""

from django.utils import timezone

from scoring import Pair
from tournament.errors import ServiceError
from tournament.models import LogEntry, Player, Round, Signature, Table
from tournament.services.log import TABLE_LINK, Actor, actor_of
from tournament.services.sheets.write import Change, sheet_write


def sheet_sign(
    *, table: Table, version: int, pair: str, player: Player, user=None, actor: Actor | None = None
) -> Signature:
    """A player confirms the completed sheet for their team; the second team's signature locks it."""
    actor = actor_of(actor, user, default=TABLE_LINK)

    def edit(table: Table, correction: bool) -> Change:
        if table.signed:
            raise ServiceError("Both teams have signed already; the sheet is locked.")
        if table.round.status != Round.Status.PUBLISHED:
            raise ServiceError("This round is not open for signing.")
        if not table.complete:
            raise ServiceError("The sheet can be signed once every hand of the round is entered.")
        if table.disputed_at is not None:
            raise ServiceError(
                "The director has been called about this sheet: it is signed once the dispute is settled."
            )
        if pair not in Pair.values():
            raise ServiceError("Choose the team you sign for.", field="pair")
        side = Pair(pair)
        team = table.seatings.select_related("team").get(pair=side).team
        if not team.memberships.filter(player=player).exists():
            raise ServiceError(f"{player.name} does not play for {side.label} at this table.", field="player")
        if table.signatures.filter(pair=side).exists():
            raise ServiceError(f"{side.label} have signed already.", field="pair")
        signature = Signature.objects.create(table=table, pair=side, player=player)
        summary = f"{player.name} signed for {side.label} ({table.ns_total}–{table.ew_total})"
        if table.signatures.count() == 2:
            table.locked_at = timezone.now()
            table.save(update_fields=["locked_at"])
            summary += "; both teams signed, the sheet is locked"
        return Change(LogEntry.Action.SIGNED, summary, result=signature, voids_signatures=False)

    return sheet_write(table, version=version, actor=actor, edit=edit, scored=False)


def sheet_dispute(*, table: Table, version: int, pair: str, note: str, user=None, actor: Actor | None = None) -> Table:
    """A team calls the director about the sheet; it cannot be signed until staff resolve it."""
    actor = actor_of(actor, user, default=TABLE_LINK)

    def edit(table: Table, correction: bool) -> Change:
        if table.round.status != Round.Status.PUBLISHED:
            raise ServiceError("This round is not open.")
        if table.signed:
            raise ServiceError("The sheet is signed and locked; ask the tournament scorekeeper.")
        if pair not in Pair.values():
            raise ServiceError("Choose the team calling the director.", field="pair")
        words = " ".join(note.split())
        if not words:
            raise ServiceError("Say in a few words what is disputed.", field="note")
        table.disputed_at = timezone.now()
        table.dispute_note = f"{Pair(pair).label}: {words}"[:300]
        table.save(update_fields=["disputed_at", "dispute_note"])
        return Change(LogEntry.Action.DISPUTED, f"Director called by {table.dispute_note}", result=table)

    return sheet_write(table, version=version, actor=actor, edit=edit, scored=False)


def sheet_dispute_resolve(*, table: Table, version: int, user=None, reason: str, actor: Actor | None = None) -> Table:
    """Staff settle a dispute (correcting the sheet first if needed); the teams may then sign."""
    actor = actor_of(actor, user, default=TABLE_LINK)

    def edit(table: Table, correction: bool) -> Change:
        if not actor.is_staff:
            raise ServiceError("Only the tournament director or scorekeeper can settle a dispute.")
        if table.disputed_at is None:
            raise ServiceError("This sheet is not disputed.")
        if not reason.strip():
            raise ServiceError("Say how the dispute was settled.", field="reason")
        table.disputed_at = None
        table.dispute_note = ""
        table.save(update_fields=["disputed_at", "dispute_note"])
        return Change(LogEntry.Action.DISPUTE_RESOLVED, "Dispute settled", result=table, voids_signatures=False)

    return sheet_write(table, version=version, actor=actor, edit=edit, reason=reason, scored=False)
