"""Loading a table's sheet (hands, penalties, rulings, signatures, history) and log entries from an archive
whose shape the schema has checked; what the schema cannot see is refused here, with its place in the file."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NoReturn, TypedDict, Unpack

from django.db import connection, models
from django.utils import timezone
from pydantic import BaseModel

from scoring import Pair, PenaltyKind, ScoringError
from tournament.errors import ServiceError
from tournament.models import (
    Event,
    Hand,
    HandSubmission,
    LogEntry,
    Penalty,
    Player,
    Round,
    Signature,
    Substitute,
    Table,
    Team,
    Tournament,
    new_table_secret,
)
from tournament.models.sheets import contract_of
from tournament.services.archive import schema
from tournament.services.recompute import Sheet, sheet_results, sheet_score

# What loading a tournament gives a table's sheet to find its records by: a team seated at the table (``seat``), a
# player by the archive's id, the players of each team (by its pk), the round's substitutes by (round number, team
# number), and the account's pk an archived author names.
SeatTeam = Callable[..., Team]
PlayerOf = Callable[[Any, str], Player]
Members = dict[int, set[int]]
Substitutes = dict[tuple[int, int], Substitute]
UserPk = Callable[[Any], int | None]


def refuse(path: str, message: str) -> NoReturn:
    raise ServiceError(f"{path}: {message}")


def model_values(part: BaseModel, model: type[models.Model], *, leave: tuple[str, ...] = ()) -> dict:
    """The values of a part of the archive that its model keeps by the same names: its record's own fields
    but those it links by, ``created_at`` (kept once the record is stored: see ``set_times``) and ``leave``."""
    names = {field.name for field in model._meta.concrete_fields if not field.is_relation}
    return part.model_dump(include=names - {"id", "created_at", *leave})


def set_times(model: type[models.Model], pk: int, **times: datetime | None) -> None:
    """Keep the archived times, which creating a record would replace with now."""
    present = {key: value for key, value in times.items() if value is not None}
    if present:
        model._default_manager.filter(pk=pk).update(**present)


def set_times_bulk(
    model: type[models.Model], records: Sequence[models.Model], times: list[datetime | None], name: str = "created_at"
) -> None:
    """``set_times`` for many stored records at once, each given its archived time or none."""
    values = [(record.pk, time) for record, time in zip(records, times, strict=True) if time is not None]
    for record, time in zip(records, times, strict=True):
        if time is not None:
            setattr(record, name, time)
    if values:
        times_store(model, name, values)


class LogPlace(TypedDict, total=False):
    """Where log entries of the archive belong besides their event: a tournament (its teams found by number),
    or a table's sheet."""

    tournament: Tournament | None
    teams: Callable[[int, str], Team] | None
    table: Table | None


def import_log(items: list[schema.LogData], path: str, *, event: Event, **place: Unpack[LogPlace]) -> None:
    """Store the log entries of the event or a tournament (one query)."""
    LogEntry.objects.bulk_create(log_entries(items, path, event=event, **place))


def log_entries(
    items: list[schema.LogData],
    path: str,
    *,
    event: Event,
    tournament: Tournament | None = None,
    teams: Callable[[int, str], Team] | None = None,
    table: Table | None = None,
) -> list[LogEntry]:
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
                **model_values(item, LogEntry, leave=("version", "actor", "actor_name")),
                event=event,
                tournament=tournament,
                round_number=table.round.number if table is not None else item.round,
                table=table,
                table_number=table.number if table is not None else None,
                version=item.version if table is not None else None,
                team=teams(item.team, f"{where}.team") if teams and item.team is not None and table is None else None,
                actor=actor,
                actor_name=actor_name,
                created_at=item.created_at or timezone.now(),
            )
        )
    return entries


def _check_hand(entry: schema.HandData, path: str) -> None:
    played = entry.level is not None
    if played != (entry.bidder != "") or played != (entry.kind != "") or played != (entry.books is not None):
        refuse(path, "a played hand has a bidder, a bid and books; a re-deal has none of them")
    if not played and (entry.suit or entry.direction):
        refuse(path, "a re-deal has no trump suit or direction")
    if entry.level is not None:
        try:
            contract_of(entry.level, entry.kind, entry.suit, entry.direction)
        except ScoringError as error:
            said = str(error).rstrip(".")
            name = error.field or ""
            refuse(f"{path}.{schema.ARCHIVE_NAMES.get(name, name)}", said[:1].lower() + said[1:])


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


@dataclass
class TableBuild:
    """A table of the archive as records not yet stored, with the times the archive keeps for them."""

    table: Table
    path: str
    playoff_match: str | None = None
    hands: list[Hand] = field(default_factory=list)
    penalties: list[Penalty] = field(default_factory=list)
    signatures: list[Signature] = field(default_factory=list)
    submissions: list[HandSubmission] = field(default_factory=list)
    changes: list[LogEntry] = field(default_factory=list)
    times: list[tuple[models.Model, str, datetime | None]] = field(default_factory=list)


def _penalty(
    table: Table, hand: Hand | None, entry: schema.PenaltyData, path: str, user_pk: UserPk, build: "TableBuild"
) -> None:
    if hand is None and entry.kind != PenaltyKind.DIRECTOR_RULING:
        refuse(f"{path}.kind", "only a director's ruling applies to the round as a whole")
    penalty = Penalty(table=table, hand=hand, created_by_id=user_pk(entry.created_by), **model_values(entry, Penalty))
    build.penalties.append(penalty)
    build.times.append((penalty, "created_at", entry.created_at))


def table_build(
    round_: Round,
    entry: schema.TableData,
    path: str,
    seat: SeatTeam,
    player: PlayerOf,
    members: Members,
    substitutes: Substitutes,
    user_pk: UserPk,
    as_copy: bool,
) -> "TableBuild":
    """Check a table of the archive and make its records, without a query; ``tables_store`` stores them.
    ``substitutes`` are the tournament's, by (round number, team number)."""
    if not as_copy:
        secret_check(entry.secret, path)
    if round_.status == Round.Status.DRAFT and (entry.hands or entry.rulings or entry.signatures or entry.locked_at):
        refuse(path, "a table of a draft round has no sheet yet: its round was never published")
    secret = new_table_secret() if as_copy else entry.secret
    table = Table(round=round_, secret=secret, **model_values(entry, Table, leave=("secret",)))
    tournament = round_.tournament
    changes = log_entries(entry.changes, f"{path}.changes", event=tournament.event, tournament=tournament, table=table)
    build = TableBuild(table, path, playoff_match=entry.playoff_match, changes=changes)
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
        hand = Hand(table=table, **model_values(hand_entry, Hand))
        build.hands.append(hand)
        build.times.append((hand, "created_at", hand_entry.created_at))
        for p_index, penalty in enumerate(hand_entry.penalties):
            _penalty(table, hand, penalty, f"{h_path}.penalties[{p_index}]", user_pk, build)
    for index, ruling in enumerate(entry.rulings):
        _penalty(table, None, ruling, f"{path}.rulings[{index}]", user_pk, build)
    _signatures(build, entry, teams, player, members, substitutes)
    _submissions(build, entry.submissions, f"{path}.submissions")
    return build


def tables_store(builds: list[TableBuild]) -> None:
    """Score every sheet of a tournament with the engine, then store the tables with their results, in a
    fixed number of queries whatever the number of tables (SQLite splits a bulk statement into batches)."""
    for build in builds:
        _score(build)
    Table.objects.bulk_create([build.table for build in builds])
    Hand.objects.bulk_create([hand for build in builds for hand in build.hands])
    Penalty.objects.bulk_create([penalty for build in builds for penalty in build.penalties])
    Signature.objects.bulk_create([signature for build in builds for signature in build.signatures])
    HandSubmission.objects.bulk_create([submission for build in builds for submission in build.submissions])
    LogEntry.objects.bulk_create([change for build in builds for change in build.changes])
    kept: dict[tuple[type[models.Model], str], list[tuple[int, datetime]]] = {}
    for build in builds:
        for record, name, value in build.times:
            if value is not None:
                kept.setdefault((type(record), name), []).append((record.pk, value))
    for (model, name), values in kept.items():
        times_store(model, name, values)


def times_store(model: type[models.Model], name: str, values: Sequence[tuple[int, datetime]]) -> None:
    """Keep the archived times (``(pk, time)``) that creating the records replaced with now: one UPDATE
    (SQLite: of 499 rows each, its limit of values), where ``bulk_update`` would build a CASE for every row
    in Python."""
    table = connection.ops.quote_name(model._meta.db_table)
    stored = model._meta.get_field(name)
    assert isinstance(stored, models.DateTimeField) and stored.column, "an archived time is a column of its own"
    column = connection.ops.quote_name(stored.column)
    adapt = connection.ops.adapt_datetimefield_value
    cast = "::timestamptz" if connection.vendor == "postgresql" else ""
    size = (connection.features.max_query_params or 60_000) // 2
    with connection.cursor() as cursor:
        for start in range(0, len(values), size):
            batch = values[start : start + size]
            rows = ", ".join([f"(%s, %s{cast})"] * len(batch))
            cursor.execute(
                f"UPDATE {table} SET {column} = v.column2 FROM (VALUES {rows}) AS v WHERE {table}.id = v.column1",
                [part for pk, time in batch for part in (pk, adapt(time))],
            )


def _score(build: TableBuild) -> None:
    """The engine's results on the sheet's records (not stored yet); the sheet's lock checked against them."""
    for record, name, value in build.times:
        if value is not None:
            setattr(record, name, value)
    table, path = build.table, build.path
    sheet = Sheet(table=table, hands=sorted(build.hands, key=lambda hand: hand.sequence))
    untimed = timezone.now()
    in_order = sorted(enumerate(build.penalties), key=lambda item: (item[1].created_at or untimed, item[0]))
    for _, penalty in in_order:
        if penalty.hand is None:
            sheet.rulings.append(penalty)
        else:
            sheet.penalties.setdefault(id(penalty.hand), []).append(penalty)
    try:
        sheet_results(sheet, sheet_score(sheet), explain=False)
    except ServiceError as error:
        refuse(path, f"the rules refuse this sheet: {error.message}")
    signed = {signature.pair for signature in build.signatures}
    if table.locked_at is not None and not table.complete:
        refuse(f"{path}.locked_at", f"the sheet is locked after {table.hands_played} hands: the round is not complete")
    if table.forfeit and (table.locked_at is None or build.hands or signed):
        refuse(f"{path}.forfeit", "a forfeit is locked when declared, with no hand and no signature")
    if table.locked_at is not None and not table.forfeit and signed != {Pair.NORTH_SOUTH, Pair.EAST_WEST}:
        refuse(f"{path}.locked_at", "a locked sheet is signed by both teams")
    if table.locked_at is None and signed == {Pair.NORTH_SOUTH, Pair.EAST_WEST}:
        refuse(f"{path}.locked_at", "both teams signed, so the sheet is locked: locked_at is missing")


def _signatures(
    build: TableBuild,
    entry: schema.TableData,
    teams: dict[Pair, Team],
    player: PlayerOf,
    members: Members,
    substitutes: Substitutes,
) -> None:
    """Each team signs once, by one of its own two players or by the substitute it played the round with."""
    pairs = set()
    for index, signature in enumerate(entry.signatures):
        s_path = f"{build.path}.signatures[{index}]"
        if signature.pair in pairs:
            refuse(f"{s_path}.pair", "a team signs once")
        pairs.add(signature.pair)
        team = teams[signature.pair]
        if signature.substitute:
            if signature.player is not None:
                refuse(f"{s_path}.player", "the substitute signed: a signature names no player then")
            found = substitutes.get((build.table.round.number, team.number))
            if found is None:
                refuse(f"{s_path}.substitute", f"team #{team.number} has no substitute in this round")
            signed_by: dict[str, Player | Substitute] = {"substitute": found}
        else:
            if signature.player is None:
                refuse(f"{s_path}.player", "who signed: one of the team's players, or its substitute")
            signer = player(signature.player, f"{s_path}.player")
            if signer.pk not in members[team.pk]:
                refuse(f"{s_path}.player", f"{signer.name} is not a player of team #{team.number} ({signature.pair})")
            signed_by = {"player": signer}
        created = Signature(table=build.table, pair=signature.pair, device=signature.device, **signed_by)
        build.signatures.append(created)
        build.times.append((created, "signed_at", signature.signed_at))


def _submissions(build: TableBuild, items: list[schema.SubmissionData], path: str) -> None:
    """Blind double entries still waiting for the other team's (archive version 2 on)."""
    entered = set()
    for index, item in enumerate(items):
        if (item.pair, item.sequence) in entered:
            refuse(f"{path}[{index}]", f"{item.pair} entered deal {item.sequence} twice")
        entered.add((item.pair, item.sequence))
        created = HandSubmission(table=build.table, **model_values(item, HandSubmission))
        build.submissions.append(created)
        build.times.append((created, "created_at", item.created_at))
