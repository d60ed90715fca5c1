"""Signing a completed sheet with the team's code, accepting the other team's hands, and disputes."""

from collections.abc import Callable
from typing import TypeVar

from django.utils import timezone

from scoring import Pair
from tournament.errors import ServiceError
from tournament.models import Hand, LogEntry, Player, Round, Signature, Substitute, Table, Team, team_code_typed
from tournament.services.log import Actor
from tournament.services.sheets.write import Change, ChangeContext, sheet_write
from tournament.services.throttle import table_key, throttle_check, throttle_fail
from tournament.typed import text_checked

T = TypeVar("T")


class WrongCode(ServiceError):
    """A team code that is not the team's; counted, so that guessing codes at a table is slowed down."""


def _team_at(table: Table, side: Pair) -> Team:
    return table.seatings.select_related("team").get(pair=side).team


def code_check(table: Table, side: Pair, code: str, actor: Actor) -> Team:
    """The team at ``side``, if ``code`` is its code (staff need none); a withdrawn team vouches for nothing."""
    team = _team_at(table, side)
    if team.withdrawn:
        raise ServiceError(f"Team #{team.number} has withdrawn: ask the tournament director.", field="code")
    if actor.is_staff:
        return team
    typed = team_code_typed(code)
    if not typed:
        raise ServiceError(f"Type {side.label}'s team code, from the slip they were given.", field="code")
    if typed != team.code:
        other = _team_at(table, side.other)
        if typed == other.code:
            raise WrongCode(f"That is {side.other.label}'s code: each team vouches with its own.", field="code")
        raise WrongCode(f"That is not {side.label}'s code (team #{team.number}).", field="code")
    return team


def with_codes_counted(table: Table, actor: Actor, write: Callable[[], T]) -> T:
    """Run a write that checks a team code; wrong codes at one table are counted for the address typing
    them, which alone is paused."""
    key = table_key(table, actor.address)
    if not actor.is_staff:
        throttle_check(key)
    try:
        return write()
    except WrongCode:
        throttle_fail(key)
        raise


def waiting_hands(table: Table) -> list[str]:
    """What still waits for the teams before the sheet can be signed, in words (empty when nothing does)."""
    tournament = table.round.tournament
    if tournament.accept_mode:
        pending = table.hands.filter(accepted_at__isnull=True).order_by("sequence")
        return [f"hand {hand.hand_number} is not accepted by the other team yet" for hand in pending]
    if tournament.double_entry and table.submissions.exists():
        return ["a deal waits for both teams' entries to agree"]
    return []


def _signer(
    table: Table, side: Pair, team: Team, player: Player | None, substitute: Substitute | None
) -> tuple[Player | Substitute, str]:
    """Who signs for the team: one of the two who sat for it this round. A player replaced by the round's
    substitute does not; the substitute does (the rules, Absent teams and substitutes). Returns the player or
    the substitute, and the name the history gives."""
    playing = Substitute.objects.filter(round_id=table.round_id, team=team).select_related("replaces").first()
    if substitute is not None:
        if playing is None or playing.pk != substitute.pk:
            raise ServiceError(f"{substitute.name} is not {side.label}'s substitute at this table.", field="player")
        return playing, f"{playing.name} (substitute for {playing.replaces.name})"
    if player is None:
        raise ServiceError("Choose your name: the player who signs for the team.", field="player")
    if not team.memberships.filter(player=player).exists():
        raise ServiceError(f"{player.name} does not play for {side.label} at this table.", field="player")
    if playing is not None and playing.replaces_id == player.pk:
        raise ServiceError(
            f"{playing.name} plays this round for {player.name}: the substitute signs for the team.", field="player"
        )
    return player, player.name


def sheet_sign(
    *,
    table: Table,
    pair: str,
    player: Player | None = None,
    substitute: Substitute | None = None,
    code: str = "",
    context: ChangeContext,
) -> Signature:
    """Whoever sat for a team this round (its ``player``, or the round's ``substitute`` in a player's place)
    confirms the completed sheet with the team's code; the second team locks it."""
    actor = context.actor

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
        waiting = waiting_hands(table)
        if waiting:
            raise ServiceError(f"The sheet cannot be signed yet: {'; '.join(waiting)}.")
        if pair not in Pair.values():
            raise ServiceError("Choose the team you sign for.", field="pair")
        side = Pair(pair)
        team = code_check(table, side, code, actor)
        signer, who = _signer(table, side, team, player, substitute)
        if table.signatures.filter(pair=side).exists():
            raise ServiceError(f"{side.label} have signed already.", field="pair")
        by = {"substitute": signer} if isinstance(signer, Substitute) else {"player": signer}
        signature = Signature.objects.create(table=table, pair=side, device=actor.device[:100], **by)
        how = "for the team, as staff" if actor.is_staff else "with the team's code"
        summary = f"{who} signed for {side.label}, team #{team.number}, {how} ({table.ns_total}–{table.ew_total})"
        if table.signatures.count() == 2:
            table.locked_at = timezone.now()
            table.save(update_fields=["locked_at"])
            summary += "; both teams signed, the sheet is locked"
        return Change(LogEntry.Action.SIGNED, summary, result=signature, voids_signatures=False)

    return with_codes_counted(table, actor, lambda: sheet_write(table, context=context, edit=edit, scored=False))


def hand_accept(*, table: Table, hand: Hand, code: str = "", context: ChangeContext) -> Hand:
    """The team that did not enter a hand accepts it with its code (tournaments whose opponents accept)."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        if not table.round.tournament.accept_mode:
            raise ServiceError("In this tournament the teams sign the whole sheet; hands are not accepted one by one.")
        stored = Hand.objects.get(pk=hand.pk, table=table)
        if stored.accepted_at is not None:
            raise ServiceError(f"Hand {stored.hand_number} is accepted already.")
        side = Pair(stored.entered_by).other if stored.entered_by else Pair(table.sitting_pair).other
        team = code_check(table, side, code, actor)
        stored.accepted_at = timezone.now()
        stored.save(update_fields=["accepted_at"])
        return Change(
            LogEntry.Action.HAND_ACCEPTED,
            f"{side.label} (team #{team.number}) accepted hand {stored.hand_number}",
            result=stored,
            voids_signatures=False,
        )

    return with_codes_counted(table, actor, lambda: sheet_write(table, context=context, edit=edit, scored=False))


def sheet_dispute(*, table: Table, pair: str, note: str, context: ChangeContext) -> Table:
    """A team calls the director about the sheet; it cannot be signed until staff resolve it."""

    def edit(table: Table, correction: bool) -> Change:
        if table.round.status != Round.Status.PUBLISHED:
            raise ServiceError("This round is not open.")
        if table.signed:
            raise ServiceError("The sheet is signed and locked; ask the tournament scorekeeper.")
        if pair not in Pair.values():
            raise ServiceError("Choose the team calling the director.", field="pair")
        words = text_checked(note, what="What is disputed", limit=250, field="note")
        if not words:
            raise ServiceError("Say in a few words what is disputed.", field="note")
        table.disputed_at = timezone.now()
        table.dispute_note = f"{Pair(pair).label}: {words}"[:300]
        table.save(update_fields=["disputed_at", "dispute_note"])
        return Change(LogEntry.Action.DISPUTED, f"Director called by {table.dispute_note}", result=table)

    return sheet_write(table, context=context, edit=edit, scored=False)


def sheet_dispute_resolve(*, table: Table, context: ChangeContext) -> Table:
    """Staff settle a dispute (correcting the sheet first if needed); the teams may then sign."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        if not actor.is_staff:
            raise ServiceError("Only the tournament director or scorekeeper can settle a dispute.")
        if table.disputed_at is None:
            raise ServiceError("This sheet is not disputed.")
        if not context.reason.strip():
            raise ServiceError("Say how the dispute was settled.", field="reason")
        table.disputed_at = None
        table.dispute_note = ""
        table.save(update_fields=["disputed_at", "dispute_note"])
        return Change(LogEntry.Action.DISPUTE_RESOLVED, "Dispute settled", result=table, voids_signatures=False)

    return sheet_write(table, context=context, edit=edit, scored=False)
