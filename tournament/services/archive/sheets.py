"""Loading a table's sheet (hands, penalties, rulings, signatures, history) and log entries from an archive
whose shape the schema has checked; what the schema cannot see is refused here, with its place in the file."""

from django.utils import timezone

from scoring import BidKind, Pair, PenaltyKind
from tournament.errors import ServiceError
from tournament.models import (
    Event,
    Hand,
    HandSubmission,
    LogEntry,
    Penalty,
    Round,
    Signature,
    Table,
    new_table_secret,
)
from tournament.services.archive import schema
from tournament.services.recompute import table_recompute


def refuse(path: str, message: str):
    raise ServiceError(f"{path}: {message}")


def set_times(model, pk: int, **times) -> None:
    """Keep the archived times, which creating a record would replace with now."""
    present = {key: value for key, value in times.items() if value is not None}
    if present:
        model.objects.filter(pk=pk).update(**present)


def set_times_bulk(model, records: list, times: list, field: str = "created_at") -> None:
    """``set_times`` for many records at once (one query), each given its archived time or none."""
    kept = [record for record, time in zip(records, times, strict=True) if time is not None]
    for record, time in zip(records, times, strict=True):
        if time is not None:
            setattr(record, field, time)
    if kept:
        model.objects.bulk_update(kept, [field])


def import_log(
    items: list[schema.LogData], path: str, *, event: Event, tournament=None, teams=None, table=None
) -> None:
    """Log entries of the event, a tournament or a table; version 1 archives name a ``user`` instead."""
    entries = []
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        if item.actor is not None:
            actor, actor_name = item.actor, item.actor_name
        else:
            actor_name = item.user or ""
            actor = LogEntry.Actor.STAFF if actor_name else LogEntry.Actor.TABLE
        if table is not None and item.version is None:
            refuse(f"{where}.version", "a change to a sheet carries the sheet's version")
        entries.append(
            LogEntry(
                event=event,
                tournament=tournament,
                round_number=table.round.number if table is not None else item.round,
                table=table,
                table_number=table.number if table is not None else None,
                version=item.version if table is not None else None,
                team=teams(item.team, f"{where}.team") if item.team is not None and table is None else None,
                action=item.action,
                summary=item.summary,
                reason=item.reason,
                before=item.before,
                after=item.after,
                correction=item.correction,
                actor=actor,
                actor_name=actor_name,
                device=item.device,
                created_at=item.created_at or timezone.now(),
            )
        )
    LogEntry.objects.bulk_create(entries)


def _import_penalty(table: Table, hand: Hand | None, entry: schema.PenaltyData, path: str, user_pk) -> None:
    if hand is None and entry.kind != PenaltyKind.DIRECTOR_RULING:
        refuse(f"{path}.kind", "only a director's ruling applies to the round as a whole")
    penalty = Penalty.objects.create(
        table=table,
        hand=hand,
        kind=entry.kind,
        team=entry.team,
        count=entry.count,
        choice=entry.choice,
        before_bidding=entry.before_bidding,
        points=entry.points,
        reason=entry.reason,
        created_by_id=user_pk(entry.created_by),
    )
    set_times(Penalty, penalty.pk, created_at=entry.created_at)


def _check_hand(entry: schema.HandData, path: str) -> None:
    played = entry.bid_level is not None
    if played != (entry.bidder != "") or played != (entry.bid_kind != "") or played != (entry.books is not None):
        refuse(path, "a played hand has a bidder, a bid and books; a re-deal has none of them")
    if not played and (entry.trump_suit or entry.direction):
        refuse(path, "a re-deal has no trump suit or direction")
    if entry.bid_kind == BidKind.NO_TRUMP and entry.trump_suit:
        refuse(f"{path}.trump_suit", "a no-trump bid has no trump suit")
    if played and entry.bid_kind != BidKind.NO_TRUMP and entry.direction:
        refuse(f"{path}.direction", "only a no-trump bid names a direction")


# A table's private link as the app makes it: 16 URL-safe characters, 96 random bits.
SECRET_LENGTH = len(new_table_secret())
SECRET_DISTINCT = 8


def secret_check(secret: str, path: str) -> None:
    """An archived private link must be as hard to guess as the ones the app makes: 16 characters of
    the URL-safe alphabet, not a short or repetitive one typed by hand (which anyone could open)."""
    if len(secret) < SECRET_LENGTH or len(set(secret)) < SECRET_DISTINCT:
        refuse(
            f"{path}.secret",
            f"a table's private link is {SECRET_LENGTH} random characters (A-Z a-z 0-9 - _), as the app makes "
            "them; this one is too easy to guess",
        )


def import_table(round_: Round, entry: schema.TableData, path: str, seat, player, user_pk, as_copy: bool) -> Table:
    if not as_copy:
        secret_check(entry.secret, path)
    secret = new_table_secret() if as_copy else entry.secret
    if not as_copy and Table.objects.filter(secret=secret).exists():
        refuse(f"{path}.secret", "this table's private link is already used in this database")
    if round_.status == Round.Status.DRAFT and (entry.hands or entry.rulings or entry.signatures or entry.locked_at):
        refuse(path, "a table of a draft round has no sheet yet: its round was never published")
    table = Table.objects.create(
        round=round_,
        number=entry.number,
        sitting_pair=entry.sitting_pair,
        secret=secret,
        version=entry.version,
        first_dealer=entry.first_dealer,
        locked_at=entry.locked_at,
        disputed_at=entry.disputed_at,
        dispute_note=entry.dispute_note,
    )
    teams = {
        Pair.NORTH_SOUTH: seat(entry.north_south, f"{path}.north_south", table, Pair.NORTH_SOUTH),
        Pair.EAST_WEST: seat(entry.east_west, f"{path}.east_west", table, Pair.EAST_WEST),
    }
    sequences, entry_ids = set(), set()
    for index, hand_entry in enumerate(entry.hands):
        h_path = f"{path}.hands[{index}]"
        if hand_entry.sequence in sequences:
            refuse(f"{h_path}.sequence", f"hand sequence {hand_entry.sequence} appears twice")
        sequences.add(hand_entry.sequence)
        if hand_entry.entry_id and hand_entry.entry_id in entry_ids:
            refuse(f"{h_path}.entry_id", f"entry {hand_entry.entry_id!r} appears twice at this table")
        entry_ids.add(hand_entry.entry_id)
        _check_hand(hand_entry, h_path)
        hand = Hand.objects.create(
            table=table,
            sequence=hand_entry.sequence,
            dealer=hand_entry.dealer,
            misdeal=hand_entry.misdeal,
            bidder=hand_entry.bidder,
            bid_level=hand_entry.bid_level,
            bid_kind=hand_entry.bid_kind,
            trump_suit=hand_entry.trump_suit,
            direction=hand_entry.direction,
            books=hand_entry.books,
            by_staff=hand_entry.by_staff,
            entered_by=hand_entry.entered_by,
            entry_id=hand_entry.entry_id,
            accepted_at=hand_entry.accepted_at,
        )
        set_times(Hand, hand.pk, created_at=hand_entry.created_at)
        for p_index, penalty in enumerate(hand_entry.penalties):
            _import_penalty(table, hand, penalty, f"{h_path}.penalties[{p_index}]", user_pk)
    for index, ruling in enumerate(entry.rulings):
        _import_penalty(table, None, ruling, f"{path}.rulings[{index}]", user_pk)
    _import_signatures(table, entry, path, teams, player)
    _import_submissions(table, entry.submissions, f"{path}.submissions")
    import_log(
        entry.changes, f"{path}.changes", event=round_.tournament.event, tournament=round_.tournament, table=table
    )
    try:
        table_recompute(table)
    except ServiceError as error:
        refuse(path, f"the rules refuse this sheet: {error.message}")
    table.refresh_from_db()
    signed = set(table.signatures.values_list("pair", flat=True))
    if table.locked_at is not None and not table.complete:
        refuse(f"{path}.locked_at", f"the sheet is locked after {table.hands_played} hands: the round is not complete")
    if table.locked_at is not None and signed != {Pair.NORTH_SOUTH, Pair.EAST_WEST}:
        refuse(f"{path}.locked_at", "a locked sheet is signed by both teams")
    if table.locked_at is None and signed == {Pair.NORTH_SOUTH, Pair.EAST_WEST}:
        refuse(f"{path}.locked_at", "both teams signed, so the sheet is locked: locked_at is missing")
    return table


def _import_signatures(table: Table, entry: schema.TableData, path: str, teams: dict, player) -> None:
    """Each team signs once, by one of its own two players."""
    pairs = set()
    for index, signature in enumerate(entry.signatures):
        s_path = f"{path}.signatures[{index}]"
        if signature.pair in pairs:
            refuse(f"{s_path}.pair", "a team signs once")
        pairs.add(signature.pair)
        signer = player(signature.player, f"{s_path}.player")
        team = teams[signature.pair]
        if signer.pk not in {member.player_id for member in team.memberships.all()}:
            refuse(f"{s_path}.player", f"{signer.name} is not a player of team #{team.number} ({signature.pair})")
        created = Signature.objects.create(table=table, pair=signature.pair, player=signer, device=signature.device)
        set_times(Signature, created.pk, signed_at=signature.signed_at)


def _import_submissions(table: Table, items: list[schema.SubmissionData], path: str) -> None:
    """Blind double entries still waiting for the other team's (archive version 2 on)."""
    entered = set()
    for index, item in enumerate(items):
        if (item.pair, item.sequence) in entered:
            refuse(f"{path}[{index}]", f"{item.pair} entered deal {item.sequence} twice")
        entered.add((item.pair, item.sequence))
        created = HandSubmission.objects.create(
            table=table,
            pair=item.pair,
            sequence=item.sequence,
            dealer=item.dealer,
            redeal_reason=item.redeal_reason,
            redeal_team=item.redeal_team,
            bidder=item.bidder,
            bid_level=item.bid_level,
            bid_kind=item.bid_kind,
            trump_suit=item.trump_suit,
            direction=item.direction,
            books=item.books,
            device=item.device,
        )
        set_times(HandSubmission, created.pk, created_at=item.created_at)
