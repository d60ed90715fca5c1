"""Loading a table's sheet (hands, penalties, rulings, signatures, history) and log entries from an archive."""

from django.utils import timezone

from scoring import BidKind, BidOutOfTurnChoice, Direction, Pair, PenaltyKind, RedealReason, Seat, Suit
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
from tournament.services.archive.reader import Reader
from tournament.services.recompute import table_recompute
from tournament.services.sheets.hands import ENTRY_ID

PAIR_OR_NONE = ["", *Pair.values()]


def set_times(model, pk: int, **times) -> None:
    """Keep the archived times, which creating a record would replace with now."""
    present = {key: value for key, value in times.items() if value is not None}
    if present:
        model.objects.filter(pk=pk).update(**present)


def import_log(read: Reader, items, path: str, *, event: Event, tournament=None, teams=None, table=None) -> None:
    """Log entries of the event, a tournament or a table; version 1 archives name a ``user`` instead."""
    if not isinstance(items, list):
        read.fail(path, "expected a list")
    entries = []
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        read.mapping(item, where)
        if "actor" in item:
            actor = read.field(item, "actor", where, str, choices=LogEntry.Actor.values)
            actor_name = read.field(item, "actor_name", where, str, required=False) or ""
        else:
            actor_name = read.field(item, "user", where, str, required=False) or ""
            actor = LogEntry.Actor.STAFF if actor_name else LogEntry.Actor.TABLE
        team_number = None if table is not None else read.field(item, "team", where, int, required=False)
        entries.append(
            LogEntry(
                event=event,
                tournament=tournament,
                round_number=table.round.number
                if table is not None
                else read.field(item, "round", where, int, required=False, low=1, high=100),
                table=table,
                table_number=table.number if table is not None else None,
                version=read.field(item, "version", where, int, low=0, high=10**6) if table is not None else None,
                team=teams(team_number, f"{where}.team") if team_number is not None else None,
                action=read.field(item, "action", where, str, choices=LogEntry.Action.values),
                summary=read.field(item, "summary", where, str)[:300],
                reason=read.field(item, "reason", where, str, required=False) or "",
                before=item.get("before"),
                after=item.get("after"),
                correction=read.field(item, "correction", where, bool, required=False) or False,
                actor=actor,
                actor_name=actor_name,
                device=(read.field(item, "device", where, str, required=False) or "")[:100],
                created_at=read.field(item, "created_at", where, "datetime", required=False) or timezone.now(),
            )
        )
    LogEntry.objects.bulk_create(entries)


def _import_penalty(read: Reader, table: Table, hand: Hand | None, entry, path: str, user_pk) -> None:
    read.mapping(entry, path)
    kind = read.field(entry, "kind", path, str, choices=PenaltyKind.values())
    if hand is None and kind != PenaltyKind.DIRECTOR_RULING:
        read.fail(f"{path}.kind", "only a director's ruling applies to the round as a whole")
    penalty = Penalty.objects.create(
        table=table,
        hand=hand,
        kind=kind,
        team=read.field(entry, "team", path, str, choices=Pair.values()),
        count=read.field(entry, "count", path, int, low=1, high=13),
        choice=read.field(entry, "choice", path, str, choices=["", *BidOutOfTurnChoice.values()]),
        before_bidding=read.field(entry, "before_bidding", path, bool),
        points=read.field(entry, "points", path, int, low=-1000, high=1000),
        reason=read.field(entry, "reason", path, str, required=False) or "",
        created_by_id=user_pk(read.field(entry, "created_by", path, str, required=False)),
    )
    set_times(Penalty, penalty.pk, created_at=read.field(entry, "created_at", path, "datetime", required=False))


def import_table(read: Reader, round_: Round, entry: dict, path: str, seat, player, user_pk, as_copy: bool) -> Table:
    secret = read.field(entry, "secret", path, str)
    if as_copy:
        secret = new_table_secret()
    elif not secret or Table.objects.filter(secret=secret).exists():
        read.fail(f"{path}.secret", "this table's private link is missing or already used in this database")
    table = Table.objects.create(
        round=round_,
        number=entry["number"],
        sitting_pair=read.field(entry, "sitting_pair", path, str, choices=Pair.values()),
        secret=secret,
        version=read.field(entry, "version", path, int, low=0, high=10**6),
        first_dealer=read.field(entry, "first_dealer", path, str, choices=["", *Seat.values()]),
        locked_at=read.field(entry, "locked_at", path, "datetime", required=False),
        disputed_at=read.field(entry, "disputed_at", path, "datetime", required=False),
        dispute_note=read.field(entry, "dispute_note", path, str, required=False) or "",
    )
    seat(read.field(entry, "north_south", path, int), f"{path}.north_south", table, Pair.NORTH_SOUTH)
    seat(read.field(entry, "east_west", path, int), f"{path}.east_west", table, Pair.EAST_WEST)
    sequences = set()
    entry_ids = set()
    for h_path, hand_entry in read.entries(entry, "hands", path):
        sequence = read.field(hand_entry, "sequence", h_path, int, low=1, high=100)
        if sequence in sequences:
            read.fail(f"{h_path}.sequence", f"hand sequence {sequence} appears twice")
        sequences.add(sequence)
        level = read.field(hand_entry, "bid_level", h_path, int, required=False, low=1, high=7)
        fields = {
            "bidder": read.field(hand_entry, "bidder", h_path, str, choices=["", *Seat.values()]),
            "bid_kind": read.field(hand_entry, "bid_kind", h_path, str, choices=["", *BidKind.values()]),
            "books": read.field(hand_entry, "books", h_path, int, required=False, low=0, high=13),
            "by_staff": read.field(hand_entry, "by_staff", h_path, bool, required=False) or False,
            "entered_by": read.field(
                hand_entry, "entered_by", h_path, str, required=False, choices=["", *Pair.values()]
            )
            or "",
            "entry_id": read.field(hand_entry, "entry_id", h_path, str, required=False) or "",
            "accepted_at": read.field(hand_entry, "accepted_at", h_path, "datetime", required=False),
        }
        if fields["entry_id"] and not ENTRY_ID.fullmatch(fields["entry_id"]):
            read.fail(f"{h_path}.entry_id", "expected up to 40 letters, digits, - or _")
        if fields["entry_id"] and fields["entry_id"] in entry_ids:
            read.fail(f"{h_path}.entry_id", f"entry {fields['entry_id']!r} appears twice at this table")
        entry_ids.add(fields["entry_id"])
        if (
            (level is None) != (fields["bidder"] == "")
            or (level is None) != (fields["bid_kind"] == "")
            or (level is None) != (fields["books"] is None)
        ):
            read.fail(h_path, "a played hand has a bidder, a bid and books; a re-deal has none of them")
        hand = Hand.objects.create(
            table=table,
            sequence=sequence,
            dealer=read.field(hand_entry, "dealer", h_path, str, choices=Seat.values()),
            misdeal=read.field(hand_entry, "misdeal", h_path, bool),
            bid_level=level,
            trump_suit=read.field(hand_entry, "trump_suit", h_path, str, choices=["", *Suit.values()]),
            direction=read.field(hand_entry, "direction", h_path, str, choices=["", *Direction.values()]),
            **fields,
        )
        set_times(Hand, hand.pk, created_at=read.field(hand_entry, "created_at", h_path, "datetime", required=False))
        for p_index, penalty in enumerate(read.items(hand_entry, "penalties", h_path)):
            _import_penalty(read, table, hand, penalty, f"{h_path}.penalties[{p_index}]", user_pk)
    for index, ruling in enumerate(read.items(entry, "rulings", path)):
        _import_penalty(read, table, None, ruling, f"{path}.rulings[{index}]", user_pk)
    pairs = set()
    for s_path, signature in read.entries(entry, "signatures", path):
        pair = read.field(signature, "pair", s_path, str, choices=Pair.values())
        if pair in pairs:
            read.fail(f"{s_path}.pair", "a team signs once")
        pairs.add(pair)
        created = Signature.objects.create(
            table=table,
            pair=pair,
            player=player(signature.get("player"), f"{s_path}.player"),
            device=(read.field(signature, "device", s_path, str, required=False) or "")[:100],
        )
        set_times(
            Signature, created.pk, signed_at=read.field(signature, "signed_at", s_path, "datetime", required=False)
        )
    _import_submissions(read, table, entry.get("submissions", []), f"{path}.submissions")
    import_log(
        read,
        read.items(entry, "changes", path),
        f"{path}.changes",
        event=round_.tournament.event,
        tournament=round_.tournament,
        table=table,
    )
    try:
        table_recompute(table)
    except ServiceError as error:
        read.fail(path, f"the rules refuse this sheet: {error.message}")
    table.refresh_from_db()
    return table


def _import_submissions(read: Reader, table: Table, items, path: str) -> None:
    """Blind double entries still waiting for the other team's (archive version 2)."""
    if not isinstance(items, list):
        read.fail(path, "expected a list")
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        read.mapping(item, where)
        created = HandSubmission.objects.create(
            table=table,
            pair=read.field(item, "pair", where, str, choices=Pair.values()),
            sequence=read.field(item, "sequence", where, int, low=1, high=100),
            dealer=read.field(item, "dealer", where, str, choices=Seat.values()),
            redeal_reason=read.field(item, "redeal_reason", where, str, choices=["", *RedealReason.values()]),
            redeal_team=read.field(item, "redeal_team", where, str, choices=["", *Pair.values()]),
            bidder=read.field(item, "bidder", where, str, choices=["", *Seat.values()]),
            bid_level=read.field(item, "bid_level", where, int, required=False, low=1, high=7),
            bid_kind=read.field(item, "bid_kind", where, str, choices=["", *BidKind.values()]),
            trump_suit=read.field(item, "trump_suit", where, str, choices=["", *Suit.values()]),
            direction=read.field(item, "direction", where, str, choices=["", *Direction.values()]),
            books=read.field(item, "books", where, int, required=False, low=0, high=13),
            device=(read.field(item, "device", where, str, required=False) or "")[:100],
        )
        set_times(
            HandSubmission, created.pk, created_at=read.field(item, "created_at", where, "datetime", required=False)
        )
