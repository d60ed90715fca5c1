"""Loading an archive into the database: all or nothing, every score recomputed by the engine."""

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from scoring import BidKind, BidOutOfTurnChoice, Direction, Pair, PenaltyKind, RuleSet, ScoringError, Seat, Suit
from tournament.errors import ServiceError
from tournament.models import (
    STANDINGS_ORDERS,
    Announcement,
    Event,
    Hand,
    LogEntry,
    Penalty,
    Player,
    PlayoffSeed,
    Round,
    Seating,
    Signature,
    Table,
    Team,
    TeamMember,
    Tournament,
    new_table_secret,
)
from tournament.services.archive.export import FORMAT, VERSION
from tournament.services.archive.reader import Reader
from tournament.services.log import Actor, actor_of, log_write
from tournament.services.playoffs import playoff_matches_create, playoff_resolve
from tournament.services.recompute import table_recompute

READS = (1, VERSION)


def _user_lookup():
    users = dict(get_user_model().objects.values_list("username", "pk"))
    return lambda name: users.get(name) if name else None


def _set_times(model, pk: int, **times) -> None:
    present = {key: value for key, value in times.items() if value is not None}
    if present:
        model.objects.filter(pk=pk).update(**present)


@transaction.atomic
def event_import(*, data: Any, fresh_links: bool = False, actor: Actor | None = None) -> Event:
    """Load an archive into a database that does not have its event; all or nothing.

    ``fresh_links`` gives every table a new private link instead of the archived one (the demo event,
    whose archive is public, is loaded that way).
    """
    read = Reader(data)
    root = read.mapping(data, "(file)")
    if root.get("format") != FORMAT:
        read.fail("format", f"expected {FORMAT!r}: this is not a Bid Whist event archive")
    if root.get("version") not in READS:
        read.fail("version", f"this app reads versions {', '.join(map(str, READS))}, not {root.get('version')!r}")
    ev = read.mapping(root.get("event"), "event")
    slug = read.field(ev, "slug", "event", str)
    if Event.objects.filter(slug=slug).exists():
        read.fail("event.slug", f"an event {slug!r} is already in this database")
    starts_on = read.field(ev, "starts_on", "event", "date")
    ends_on = read.field(ev, "ends_on", "event", "date")
    if ends_on < starts_on:
        read.fail("event.ends_on", "the event ends before it starts")
    event = Event.objects.create(
        name=read.field(ev, "name", "event", str),
        slug=slug,
        venue=read.field(ev, "venue", "event", str, required=False) or "",
        starts_on=starts_on,
        ends_on=ends_on,
    )
    _set_times(Event, event.pk, created_at=read.field(ev, "created_at", "event", "datetime", required=False))
    user_pk = _user_lookup()

    players: dict[int, Player] = {}
    seen_names = {}
    for index, entry in enumerate(read.items(root, "players", "")):
        path = f"players[{index}]"
        read.mapping(entry, path)
        player_id = read.field(entry, "id", path, int)
        if player_id in players:
            read.fail(f"{path}.id", f"player id {player_id} is used twice")
        name = read.field(entry, "name", path, str).strip()
        city = read.field(entry, "city", path, str, required=False) or ""
        if not name:
            read.fail(f"{path}.name", "a player needs a name")
        key = (name.casefold(), city.casefold())
        if key in seen_names:
            read.fail(path, f"the same player as {seen_names[key]}")
        seen_names[key] = path
        players[player_id] = Player.objects.create(
            event=event, name=name, city=city, phone=read.field(entry, "phone", path, str, required=False) or ""
        )

    def player(value, path):
        if value not in players:
            read.fail(path, f"no player with id {value!r}")
        return players[value]

    _import_log(read, root.get("log", []), "log", event=event)
    for t_index, entry in enumerate(read.items(root, "tournaments", "")):
        _import_tournament(read, event, entry, f"tournaments[{t_index}]", player, user_pk, fresh_links)
    event.refresh_from_db()
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.EVENT_IMPORTED,
        summary=f"Event {event.name} imported from an archive (version {root['version']})",
        event=event,
    )
    return event


def _import_log(read: Reader, items, path: str, *, event: Event, tournament=None, teams=None, table=None) -> None:
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
                created_at=read.field(item, "created_at", where, "datetime", required=False) or timezone.now(),
            )
        )
    LogEntry.objects.bulk_create(entries)


def _import_tournament(read: Reader, event: Event, entry, path: str, player, user_pk, fresh_links: bool) -> None:
    read.mapping(entry, path)
    slug = read.field(entry, "slug", path, str)
    if Tournament.objects.filter(slug=slug).exists():
        read.fail(f"{path}.slug", f"a tournament {slug!r} is already in this database")
    try:
        rules = RuleSet.from_dict(read.mapping(entry.get("rules"), f"{path}.rules"))
    except ScoringError as error:
        read.fail(f"{path}.rules", str(error))
    tournament = Tournament.objects.create(
        event=event,
        name=read.field(entry, "name", path, str),
        slug=slug,
        rules_data=rules.to_dict(),
        qualifying_rounds=read.field(entry, "qualifying_rounds", path, int, low=1, high=20),
        status=read.field(entry, "status", path, str, choices=Tournament.Status.values),
        paper_size=read.field(entry, "paper_size", path, str, choices=Tournament.PaperSize.values),
        standings_order=read.field(entry, "standings_order", path, str, choices=[key for key, _ in STANDINGS_ORDERS]),
        avoid_same_city_rounds=read.field(entry, "avoid_same_city_rounds", path, int, low=0, high=20),
    )
    _set_times(Tournament, tournament.pk, created_at=read.field(entry, "created_at", path, "datetime", required=False))

    teams: dict[int, Team] = {}
    placed: dict[int, str] = {}
    for index, team_entry in enumerate(read.items(entry, "teams", path)):
        team_path = f"{path}.teams[{index}]"
        read.mapping(team_entry, team_path)
        number = read.field(team_entry, "number", team_path, int, low=1, high=10**6)
        if number in teams:
            read.fail(f"{team_path}.number", f"team number {number} is used twice")
        member_ids = read.items(team_entry, "players", team_path)
        if len(member_ids) != 2:
            read.fail(f"{team_path}.players", "a team is two players")
        members = [player(pid, f"{team_path}.players[{i}]") for i, pid in enumerate(member_ids)]
        if members[0].pk == members[1].pk:
            read.fail(f"{team_path}.players", "a team is two different players")
        for i, member in enumerate(members):
            if member.pk in placed:
                read.fail(f"{team_path}.players[{i}]", f"this player is already on {placed[member.pk]}")
            placed[member.pk] = team_path
        team = Team.objects.create(
            tournament=tournament,
            number=number,
            name=read.field(team_entry, "name", team_path, str, required=False) or "",
            city=read.field(team_entry, "city", team_path, str, required=False) or "",
            fee_paid=read.field(team_entry, "fee_paid", team_path, bool),
            side_pot=read.field(team_entry, "side_pot", team_path, bool),
            checked_in=read.field(team_entry, "checked_in", team_path, bool),
            withdrawn=read.field(team_entry, "withdrawn", team_path, bool),
        )
        _set_times(
            Team, team.pk, created_at=read.field(team_entry, "created_at", team_path, "datetime", required=False)
        )
        TeamMember.objects.bulk_create(
            TeamMember(tournament=tournament, team=team, player=member, position=position)
            for position, member in enumerate(members, start=1)
        )
        teams[number] = team

    def team(number, where):
        if number not in teams:
            read.fail(where, f"no team number {number!r} in this tournament")
        return teams[number]

    for index, item in enumerate(read.items(entry, "announcements", path)):
        a_path = f"{path}.announcements[{index}]"
        read.mapping(item, a_path)
        announcement = Announcement.objects.create(
            tournament=tournament,
            text=read.field(item, "text", a_path, str),
            expires_at=read.field(item, "expires_at", a_path, "datetime", required=False),
        )
        _set_times(
            Announcement, announcement.pk, created_at=read.field(item, "created_at", a_path, "datetime", required=False)
        )

    _import_log(read, entry.get("log", []), f"{path}.log", event=event, tournament=tournament, teams=team)
    playoff = read.mapping(entry.get("playoff"), f"{path}.playoff")
    seeds = set()
    for index, seed_entry in enumerate(read.items(playoff, "seeds", f"{path}.playoff")):
        s_path = f"{path}.playoff.seeds[{index}]"
        read.mapping(seed_entry, s_path)
        seed = read.field(seed_entry, "seed", s_path, int, low=1, high=1024)
        if seed in seeds:
            read.fail(f"{s_path}.seed", f"seed {seed} appears twice")
        seeds.add(seed)
        PlayoffSeed.objects.create(
            tournament=tournament, seed=seed, team=team(seed_entry.get("team"), f"{s_path}.team")
        )
    if seeds and seeds != set(range(1, len(seeds) + 1)):
        read.fail(f"{path}.playoff.seeds", "the seeds must be numbered 1 to N")
    tournament.playoff_third_place = read.field(playoff, "third_place", f"{path}.playoff", bool)
    tournament.playoff_double = read.field(playoff, "double", f"{path}.playoff", bool)
    tournament.playoff_published_at = read.field(playoff, "published_at", f"{path}.playoff", "datetime", required=False)
    tournament.save(update_fields=["playoff_third_place", "playoff_double", "playoff_published_at"])
    playoff_tables: dict[str, Table] = {}

    numbers = set()
    for index, round_entry in enumerate(read.items(entry, "rounds", path)):
        r_path = f"{path}.rounds[{index}]"
        read.mapping(round_entry, r_path)
        number = read.field(round_entry, "number", r_path, int, low=1, high=100)
        if number in numbers:
            read.fail(f"{r_path}.number", f"round {number} appears twice")
        numbers.add(number)
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            kind=read.field(round_entry, "kind", r_path, str, choices=Round.Kind.values),
            status=read.field(round_entry, "status", r_path, str, choices=Round.Status.values),
            method=read.field(round_entry, "method", r_path, str, choices=Round.Method.values),
            seed=read.field(round_entry, "seed", r_path, int, required=False),
            published_at=read.field(round_entry, "published_at", r_path, "datetime", required=False),
        )
        _set_times(
            Round, round_.pk, created_at=read.field(round_entry, "created_at", r_path, "datetime", required=False)
        )
        in_round: dict[int, str] = {}

        def seat(team_number, where, table=None, pair="", round_=round_, in_round=in_round):
            found = team(team_number, where)
            if found.pk in in_round:
                read.fail(where, f"team {team_number} already plays in this round at {in_round[found.pk]}")
            in_round[found.pk] = where
            Seating.objects.create(round=round_, team=found, table=table, pair=pair)

        for b_index, bye in enumerate(read.items(round_entry, "byes", r_path)):
            seat(bye, f"{r_path}.byes[{b_index}]")
        table_numbers = set()
        for t_index, table_entry in enumerate(read.items(round_entry, "tables", r_path)):
            t_path = f"{r_path}.tables[{t_index}]"
            table_number = read.field(read.mapping(table_entry, t_path), "number", t_path, int, low=1, high=10000)
            if table_number in table_numbers:
                read.fail(f"{t_path}.number", f"table {table_number} appears twice")
            table_numbers.add(table_number)
            table = _import_table(read, round_, table_entry, t_path, seat, player, user_pk, fresh_links)
            code = read.field(table_entry, "playoff_match", t_path, str, required=False)
            if code:
                playoff_tables[code] = table
    if tournament.playoff_published_at is not None:
        _import_bracket(read, tournament, playoff_tables, path)


def _import_bracket(read: Reader, tournament: Tournament, tables: dict, path: str) -> None:
    """Rebuild the published bracket from its seeds and options, link its tables, and resolve it."""
    seeds = tournament.playoff_seeds.count()
    if seeds < 2:
        read.fail(f"{path}.playoff.seeds", "a published bracket needs at least two seeds")
    try:
        playoff_matches_create(tournament, seeds, tables)
    except ServiceError as error:
        read.fail(f"{path}.rounds", error.message)
    playoff_resolve(tournament)


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
    _set_times(Penalty, penalty.pk, created_at=read.field(entry, "created_at", path, "datetime", required=False))


def _import_table(
    read: Reader, round_: Round, entry: dict, path: str, seat, player, user_pk, fresh_links: bool
) -> Table:
    secret = read.field(entry, "secret", path, str)
    if fresh_links:
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
    for index, hand_entry in enumerate(read.items(entry, "hands", path)):
        h_path = f"{path}.hands[{index}]"
        read.mapping(hand_entry, h_path)
        sequence = read.field(hand_entry, "sequence", h_path, int, low=1, high=100)
        if sequence in sequences:
            read.fail(f"{h_path}.sequence", f"hand sequence {sequence} appears twice")
        sequences.add(sequence)
        level = read.field(hand_entry, "bid_level", h_path, int, required=False, low=1, high=7)
        fields = {
            "bidder": read.field(hand_entry, "bidder", h_path, str, choices=["", *Seat.values()]),
            "bid_kind": read.field(hand_entry, "bid_kind", h_path, str, choices=["", *BidKind.values()]),
            "books": read.field(hand_entry, "books", h_path, int, required=False, low=0, high=13),
        }
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
        _set_times(Hand, hand.pk, created_at=read.field(hand_entry, "created_at", h_path, "datetime", required=False))
        for p_index, penalty in enumerate(read.items(hand_entry, "penalties", h_path)):
            _import_penalty(read, table, hand, penalty, f"{h_path}.penalties[{p_index}]", user_pk)
    for index, ruling in enumerate(read.items(entry, "rulings", path)):
        _import_penalty(read, table, None, ruling, f"{path}.rulings[{index}]", user_pk)
    pairs = set()
    for index, signature in enumerate(read.items(entry, "signatures", path)):
        s_path = f"{path}.signatures[{index}]"
        read.mapping(signature, s_path)
        pair = read.field(signature, "pair", s_path, str, choices=Pair.values())
        if pair in pairs:
            read.fail(f"{s_path}.pair", "a team signs once")
        pairs.add(pair)
        created = Signature.objects.create(
            table=table, pair=pair, player=player(signature.get("player"), f"{s_path}.player")
        )
        _set_times(
            Signature, created.pk, signed_at=read.field(signature, "signed_at", s_path, "datetime", required=False)
        )
    _import_log(
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
