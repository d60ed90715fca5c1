"""Keeping a table's score sheet: hands, re-deals, penalties, signatures and corrections.

Every change goes through one transaction that locks the table, checks the version the person
was looking at, writes the change, rescores the whole sheet through the engine (refusing the change
if the rules do) and records it in the sheet's history.
"""

from dataclasses import asdict, dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

import scoring
from scoring import ScoringError
from tournament.errors import ServiceError
from tournament.models import Hand, Pair, Penalty, Player, Round, Seat, SheetChange, Signature, Table
from tournament.roles import is_scorekeeper
from tournament.services.playoffs import playoff_after_change
from tournament.services.recompute import sheet_load, sheet_score, table_recompute


class StaleSheet(ServiceError):
    """The sheet changed after the person loaded it; their change was not saved."""


@dataclass(frozen=True)
class HandEntry:
    """A played hand as the scorekeeper enters it."""

    dealer: str
    bidder: str
    level: int
    kind: str
    books: int
    suit: str = ""
    direction: str = ""


REDEAL_REASONS = {
    "misdeal": "Misdeal",
    "deal_out_of_turn": "Dealt out of turn, caught before the first bid",
    "bid_out_of_turn": "Bid out of turn, the wronged player chose a re-deal",
}


def _locked_table(table: Table, version: int) -> Table:
    locked = Table.objects.select_for_update().select_related("round__tournament__event").get(pk=table.pk)
    if version != locked.version:
        changes = list(locked.changes.filter(version__gt=version).order_by("version"))
        said = "; ".join(f"{change.summary} ({change.who})" for change in changes) or "it was changed"
        raise StaleSheet(
            f"This sheet changed since you opened it: {said}. Nothing of yours was saved: "
            "check the sheet as it is now and enter it again."
        )
    return locked


def _may_change(table: Table, user, reason: str) -> bool:
    """Whether the change is a staff correction; refuses what the table link may not do."""
    staff = user is not None and is_scorekeeper(user)
    if table.round.status == Round.Status.DRAFT:
        raise ServiceError("This round is not published yet.")
    if table.signed or table.round.status == Round.Status.CLOSED:
        if not staff:
            raise ServiceError("This sheet is signed and locked. Ask the tournament scorekeeper for any correction.")
        if not reason.strip():
            raise ServiceError("A correction to a signed sheet needs a reason.", field="reason")
        return True
    return False


def _record(
    table: Table,
    action: str,
    summary: str,
    *,
    user=None,
    reason: str = "",
    correction: bool = False,
    before=None,
    after=None,
) -> None:
    table.version += 1
    Table.objects.filter(pk=table.pk).update(version=table.version)
    SheetChange.objects.create(
        table=table,
        version=table.version,
        action=action,
        summary=summary[:300],
        reason=reason.strip(),
        correction=correction,
        before=before,
        after=after,
        user=user if user is not None and user.is_authenticated else None,
    )


def _clear_signatures(table: Table, user) -> None:
    """A change to a sheet not yet locked voids any signature already given: it must be signed again."""
    if table.signed:
        return
    signed = list(table.signatures.select_related("player"))
    if signed:
        table.signatures.all().delete()
        names = ", ".join(signature.player.name for signature in signed)
        _record(
            table, SheetChange.Action.SIGNATURES_CLEARED, f"Sheet changed after {names} signed: sign again", user=user
        )


def _decided(table: Table) -> str | None:
    """The winning side of a signed sheet, to tell whether a correction changes it."""
    return table.winner_pair if table.signed else None


def _rescore(table: Table) -> None:
    table_recompute(table)
    table.refresh_from_db(fields=["ns_total", "ew_total", "hands_played", "complete"])


def hand_snapshot(hand: Hand) -> dict:
    return {
        "hand_number": hand.hand_number,
        "dealer": hand.dealer,
        "bidder": hand.bidder,
        "level": hand.bid_level,
        "kind": hand.bid_kind,
        "suit": hand.trump_suit,
        "direction": hand.direction,
        "books": hand.books,
        "misdeal": hand.misdeal,
    }


def _checked_entry(table: Table, entry: HandEntry) -> HandEntry:
    """Field by field checks, each message for the field it concerns."""
    rules = table.round.tournament.rules
    for field, value in (("dealer", entry.dealer), ("bidder", entry.bidder)):
        if value not in Seat.values:
            raise ServiceError("Choose a seat.", field=field)
    if entry.kind not in Hand.Kind.values:
        raise ServiceError("Choose high, Special (low) or no trump.", field="kind")
    try:
        rules.check_bid(scoring.Bid(entry.level, entry.kind))
    except ScoringError as error:
        raise ServiceError(str(error), field="level") from None
    try:
        scoring.apply_reneges(rules, entry.books)
    except ScoringError as error:
        raise ServiceError(str(error), field="books") from None
    if entry.kind == Hand.Kind.NO_TRUMP:
        if entry.suit:
            raise ServiceError("A no-trump bid has no trump suit.", field="suit")
        if entry.direction and entry.direction not in Hand.Direction.values:
            raise ServiceError("No trump is played up or down.", field="direction")
        return HandEntry(**{**asdict(entry), "direction": entry.direction or Hand.Direction.UP})
    if entry.suit not in Hand.Suit.values:
        raise ServiceError("Choose the trump suit (the suit of the first card played if none was named).", field="suit")
    if entry.direction:
        raise ServiceError("Only a no-trump bid is played up or down.", field="direction")
    return entry


def _apply_entry(hand: Hand, entry: HandEntry) -> None:
    hand.dealer = entry.dealer
    hand.bidder = entry.bidder
    hand.bid_level = entry.level
    hand.bid_kind = entry.kind
    hand.trump_suit = entry.suit
    hand.direction = entry.direction
    hand.books = entry.books
    hand.misdeal = False


def _dealer_refusal(table: Table, error: ServiceError, adding: bool) -> ServiceError:
    """Place the engine's refusal of a whole sheet beside the dealer, unless the round is simply over."""
    if adding and table.complete:
        return ServiceError(str(error))
    return ServiceError(error.message, field="dealer")


def hand_preview(*, table: Table, entry: HandEntry, hand: Hand | None = None) -> scoring.RoundScore:
    """The sheet as it would be with this hand added (or ``hand`` changed), without saving anything."""
    entry = _checked_entry(table, entry)
    sheet = sheet_load(table)
    candidate = Hand(table=table, pk=hand.pk if hand else None)
    _apply_entry(candidate, entry)
    try:
        if hand is None:
            return sheet_score(sheet, extra=candidate).result
        return sheet_score(sheet, replace=candidate).result
    except ServiceError as error:
        raise _dealer_refusal(table, error, adding=hand is None) from None


def _next_sequence(table: Table) -> int:
    return (table.hands.aggregate(highest=Max("sequence"))["highest"] or 0) + 1


@transaction.atomic
def table_first_dealer_set(
    *, table: Table, version: int, seat: str, user=None, reason: str = "", confirm_knock_on: bool = False
) -> Table:
    """Name the seat dealt the first diamond: the first dealer of the round."""
    table = _locked_table(table, version)
    correction = _may_change(table, user, reason)
    if seat not in Seat.values:
        raise ServiceError("Choose the seat dealt the first diamond.", field="seat")
    before = table.first_dealer
    table.first_dealer = seat
    table.save(update_fields=["first_dealer"])
    _rescore(table)
    _record(
        table,
        SheetChange.Action.FIRST_DEALER,
        f"First dealer: {Seat(seat).label}",
        user=user,
        reason=reason,
        correction=correction,
        before={"first_dealer": before},
        after={"first_dealer": seat},
    )
    return table


@transaction.atomic
def hand_record(
    *, table: Table, version: int, entry: HandEntry, user=None, reason: str = "", confirm_knock_on: bool = False
) -> Hand:
    """Enter the next played hand; the engine scores it and the whole sheet."""
    table = _locked_table(table, version)
    correction = _may_change(table, user, reason)
    winner_before = _decided(table)
    entry = _checked_entry(table, entry)
    if not table.first_dealer:
        table.first_dealer = entry.dealer
        table.save(update_fields=["first_dealer"])
    hand = Hand(table=table, sequence=_next_sequence(table))
    _apply_entry(hand, entry)
    hand.save()
    try:
        _rescore(table)
    except ServiceError as error:
        raise _dealer_refusal(table, error, adding=True) from None
    hand.refresh_from_db()
    _clear_signatures(table, user)
    _record(
        table,
        SheetChange.Action.HAND_ADDED,
        f"Hand {hand.hand_number}: {hand.bid_text} by {Seat(hand.bidder).label}, {hand.books} books",
        user=user,
        reason=reason,
        correction=correction,
        after=hand_snapshot(hand),
    )
    playoff_after_change(table, winner_before=winner_before, user=user, confirm_knock_on=confirm_knock_on)
    return hand


@transaction.atomic
def redeal_record(
    *, table: Table, version: int, dealer: str, reason: str, team: str = "", user=None, note: str = ""
) -> Hand:
    """Record a deal that does not count; the same hand number is dealt again."""
    table = _locked_table(table, version)
    correction = _may_change(table, user, note)
    if dealer not in Seat.values:
        raise ServiceError("Choose the seat that dealt.", field="dealer")
    if reason not in REDEAL_REASONS:
        raise ServiceError("Choose why the cards are dealt again.", field="reason")
    if reason != "misdeal" and team not in Pair.values:
        raise ServiceError("Choose the team that was out of turn.", field="team")
    if table.complete:
        raise ServiceError(f"The round is over: all {table.round.tournament.rules.hands_per_round} hands are recorded.")
    if not table.first_dealer:
        table.first_dealer = dealer
        table.save(update_fields=["first_dealer"])
    hand = Hand.objects.create(table=table, sequence=_next_sequence(table), dealer=dealer, misdeal=reason == "misdeal")
    if reason == "deal_out_of_turn":
        Penalty.objects.create(
            table=table,
            hand=hand,
            kind=Penalty.Kind.DEAL_OUT_OF_TURN,
            team=team,
            before_bidding=True,
            created_by=_user(user),
        )
    elif reason == "bid_out_of_turn":
        Penalty.objects.create(
            table=table,
            hand=hand,
            kind=Penalty.Kind.BID_OUT_OF_TURN,
            team=team,
            choice=Penalty.Choice.REDEAL,
            created_by=_user(user),
        )
    _rescore(table)
    hand.refresh_from_db()
    _clear_signatures(table, user)
    _record(
        table,
        SheetChange.Action.REDEAL_ADDED,
        f"Re-deal of hand {hand.hand_number} ({REDEAL_REASONS[reason].lower()})",
        user=user,
        reason=note,
        correction=correction,
        after={**hand_snapshot(hand), "reason": reason, "team": team},
    )
    return hand


def _user(user):
    return user if user is not None and user.is_authenticated else None


@transaction.atomic
def hand_update(
    *, hand: Hand, version: int, entry: HandEntry, user=None, reason: str = "", confirm_knock_on: bool = False
) -> Hand:
    """Change a played hand; everything after it is rescored."""
    table = _locked_table(hand.table, version)
    correction = _may_change(table, user, reason)
    winner_before = _decided(table)
    hand = Hand.objects.get(pk=hand.pk, table=table)
    if not hand.bid_level:
        raise ServiceError("A re-deal has no bid to change: remove it instead.")
    entry = _checked_entry(table, entry)
    before = hand_snapshot(hand)
    _apply_entry(hand, entry)
    hand.save()
    try:
        _rescore(table)
    except ServiceError as error:
        raise ServiceError(error.message, field="dealer") from None
    hand.refresh_from_db()
    after = hand_snapshot(hand)
    if before == after:
        return hand
    _clear_signatures(table, user)
    changed = ", ".join(f"{key} {before[key]} → {after[key]}" for key in after if before[key] != after[key])
    _record(
        table,
        SheetChange.Action.HAND_CHANGED,
        f"Hand {hand.hand_number} changed: {changed}",
        user=user,
        reason=reason,
        correction=correction,
        before=before,
        after=after,
    )
    playoff_after_change(table, winner_before=winner_before, user=user, confirm_knock_on=confirm_knock_on)
    return hand


@transaction.atomic
def hand_remove(*, hand: Hand, version: int, user=None, reason: str = "", confirm_knock_on: bool = False) -> None:
    """Remove a hand or re-deal entered by mistake, with its penalties; later deals move up."""
    table = _locked_table(hand.table, version)
    correction = _may_change(table, user, reason)
    winner_before = _decided(table)
    hand = Hand.objects.get(pk=hand.pk, table=table)
    before = hand_snapshot(hand)
    label = f"hand {hand.hand_number}" if hand.counts else f"re-deal of hand {hand.hand_number}"
    penalties = [penalty.description for penalty in hand.penalties.all()]
    sequence = hand.sequence
    hand.delete()
    later = list(table.hands.filter(sequence__gt=sequence).order_by("sequence"))
    for moved in later:
        moved.sequence -= 1
        moved.save(update_fields=["sequence"])
    _rescore(table)
    _clear_signatures(table, user)
    _record(
        table,
        SheetChange.Action.HAND_REMOVED,
        f"Removed {label}" + (f" with {'; '.join(penalties)}" if penalties else ""),
        user=user,
        reason=reason,
        correction=correction,
        before={**before, "penalties": penalties},
    )
    playoff_after_change(table, winner_before=winner_before, user=user, confirm_knock_on=confirm_knock_on)


@transaction.atomic
def penalty_add(
    *,
    table: Table,
    version: int,
    kind: str,
    team: str,
    hand: Hand | None = None,
    count: int = 1,
    choice: str = "",
    points: int = 0,
    reason: str = "",
    user=None,
    confirm_knock_on: bool = False,
) -> Penalty:
    """Record a penalty from the rule sheet; its points come from the tournament's rule set."""
    table = _locked_table(table, version)
    correction = _may_change(table, user, reason)
    winner_before = _decided(table)
    if kind not in Penalty.Kind.values:
        raise ServiceError("Choose the offence.", field="kind")
    if team not in Pair.values:
        raise ServiceError("Choose the team.", field="team")
    if kind == Penalty.Kind.DIRECTOR_RULING:
        if user is None or not is_scorekeeper(user):
            raise ServiceError("Only the tournament director or scorekeeper can make a ruling.", field="kind")
        if not reason.strip():
            raise ServiceError("A ruling needs its reason in writing.", field="reason")
    elif hand is None:
        raise ServiceError("Choose the hand it happened in.", field="hand")
    if kind == Penalty.Kind.BID_OUT_OF_TURN and choice == Penalty.Choice.REDEAL:
        raise ServiceError("A re-deal after a bid out of turn is recorded as a re-deal.", field="choice")
    if kind != Penalty.Kind.BID_OUT_OF_TURN:
        choice = ""
    if kind != Penalty.Kind.RENEGE:
        count = 1
    if kind != Penalty.Kind.DIRECTOR_RULING:
        points = 0
    if hand is not None and hand.table_id != table.pk:
        raise ServiceError("That hand is not on this sheet.", field="hand")
    try:
        scoring.Penalty(kind=kind, team=team, count=count, choice=choice or None, points=points, before_bidding=False)
    except ScoringError as error:
        raise ServiceError(str(error), field="choice" if kind == Penalty.Kind.BID_OUT_OF_TURN else "points") from None
    penalty = Penalty.objects.create(
        table=table,
        hand=hand,
        kind=kind,
        team=team,
        count=count,
        choice=choice,
        points=points,
        reason=reason.strip(),
        created_by=_user(user),
    )
    _rescore(table)
    penalty.refresh_from_db()
    _clear_signatures(table, user)
    where = f"hand {hand.hand_number}" if hand else "the round"
    _record(
        table,
        SheetChange.Action.PENALTY_ADDED,
        f"{penalty.description} ({where})",
        user=user,
        reason=reason,
        correction=correction,
        after=_penalty_snapshot(penalty),
    )
    playoff_after_change(table, winner_before=winner_before, user=user, confirm_knock_on=confirm_knock_on)
    return penalty


def _penalty_snapshot(penalty: Penalty) -> dict:
    return {
        "kind": penalty.kind,
        "team": penalty.team,
        "count": penalty.count,
        "choice": penalty.choice,
        "points": penalty.points,
        "hand": penalty.hand.hand_number if penalty.hand_id else None,
    }


@transaction.atomic
def penalty_remove(
    *, penalty: Penalty, version: int, user=None, reason: str = "", confirm_knock_on: bool = False
) -> None:
    """Undo a penalty; the sheet is rescored without it."""
    table = _locked_table(penalty.table, version)
    correction = _may_change(table, user, reason)
    winner_before = _decided(table)
    penalty = Penalty.objects.select_related("hand").get(pk=penalty.pk, table=table)
    if penalty.kind == Penalty.Kind.DIRECTOR_RULING and (user is None or not is_scorekeeper(user)):
        raise ServiceError("Only the tournament director or scorekeeper can undo a ruling.")
    if (
        penalty.hand_id
        and not penalty.hand.counts
        and penalty.kind
        in (
            Penalty.Kind.DEAL_OUT_OF_TURN,
            Penalty.Kind.BID_OUT_OF_TURN,
        )
    ):
        raise ServiceError("This penalty is why the cards were dealt again: remove the re-deal instead.")
    before = _penalty_snapshot(penalty)
    description = penalty.description
    penalty.delete()
    _rescore(table)
    _clear_signatures(table, user)
    _record(
        table,
        SheetChange.Action.PENALTY_REMOVED,
        f"Removed: {description}",
        user=user,
        reason=reason,
        correction=correction,
        before=before,
    )
    playoff_after_change(table, winner_before=winner_before, user=user, confirm_knock_on=confirm_knock_on)


@transaction.atomic
def sheet_sign(*, table: Table, version: int, pair: str, player: Player, user=None) -> Signature:
    """A player confirms the completed sheet for their team; the second team's signature locks it."""
    table = _locked_table(table, version)
    if table.signed:
        raise ServiceError("Both teams have signed already; the sheet is locked.")
    if table.round.status != Round.Status.PUBLISHED:
        raise ServiceError("This round is not open for signing.")
    if not table.complete:
        raise ServiceError("The sheet can be signed once every hand of the round is entered.")
    if table.disputed_at is not None:
        raise ServiceError("The director has been called about this sheet: it is signed once the dispute is settled.")
    if pair not in Pair.values:
        raise ServiceError("Choose the team you sign for.", field="pair")
    team = table.seatings.select_related("team").get(pair=pair).team
    if not team.memberships.filter(player=player).exists():
        raise ServiceError(f"{player.name} does not play for {Pair(pair).label} at this table.", field="player")
    if table.signatures.filter(pair=pair).exists():
        raise ServiceError(f"{Pair(pair).label} have signed already.", field="pair")
    signature = Signature.objects.create(table=table, pair=pair, player=player)
    summary = f"{player.name} signed for {Pair(pair).label} ({table.ns_total}–{table.ew_total})"
    if table.signatures.count() == 2:
        table.locked_at = timezone.now()
        table.save(update_fields=["locked_at"])
        summary += "; both teams signed, the sheet is locked"
    _record(table, SheetChange.Action.SIGNED, summary, user=user)
    playoff_after_change(table, winner_before=None, user=user, confirm_knock_on=False)
    return signature


@transaction.atomic
def sheet_dispute(*, table: Table, version: int, pair: str, note: str, user=None) -> Table:
    """A team calls the director about the sheet; it cannot be signed until staff resolve it."""
    table = _locked_table(table, version)
    if table.round.status != Round.Status.PUBLISHED:
        raise ServiceError("This round is not open.")
    if table.signed:
        raise ServiceError("The sheet is signed and locked; ask the tournament scorekeeper.")
    if pair not in Pair.values:
        raise ServiceError("Choose the team calling the director.", field="pair")
    note = " ".join(note.split())
    if not note:
        raise ServiceError("Say in a few words what is disputed.", field="note")
    table.disputed_at = timezone.now()
    table.dispute_note = f"{Pair(pair).label}: {note}"[:300]
    table.save(update_fields=["disputed_at", "dispute_note"])
    _clear_signatures(table, user)
    _record(table, SheetChange.Action.DISPUTED, f"Director called by {table.dispute_note}", user=user)
    return table


@transaction.atomic
def sheet_dispute_resolve(*, table: Table, version: int, user, reason: str) -> Table:
    """Staff settle a dispute (correcting the sheet first if needed); the teams may then sign."""
    table = _locked_table(table, version)
    if user is None or not is_scorekeeper(user):
        raise ServiceError("Only the tournament director or scorekeeper can settle a dispute.")
    if table.disputed_at is None:
        raise ServiceError("This sheet is not disputed.")
    if not reason.strip():
        raise ServiceError("Say how the dispute was settled.", field="reason")
    table.disputed_at = None
    table.dispute_note = ""
    table.save(update_fields=["disputed_at", "dispute_note"])
    _record(table, SheetChange.Action.DISPUTE_RESOLVED, "Dispute settled", user=user, reason=reason)
    return table
