"""The event archive: the whole event as one JSON document that imports back without loss.

Only what people entered is written; every score is recomputed from it by the engine on import.
The format is documented in docs/archive.md.
"""

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_date, parse_datetime

from scoring import RuleSet, ScoringError
from tournament.errors import ServiceError
from tournament.models import (
    STANDINGS_ORDERS,
    Announcement,
    Event,
    Hand,
    Pair,
    Penalty,
    Player,
    PlayoffSeed,
    Round,
    Seat,
    Seating,
    SheetChange,
    Signature,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournament.services.playoffs import playoff_matches_create, playoff_resolve
from tournament.services.recompute import table_recompute

FORMAT = "bidwhist-event-archive"
VERSION = 1


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _penalty(penalty: Penalty, users: dict) -> dict:
    return {
        "kind": penalty.kind,
        "team": penalty.team,
        "count": penalty.count,
        "choice": penalty.choice,
        "before_bidding": penalty.before_bidding,
        "points": penalty.points,
        "reason": penalty.reason,
        "created_by": users.get(penalty.created_by_id),
        "created_at": _time(penalty.created_at),
    }


def event_export(event: Event) -> dict[str, Any]:
    """Everything of one event as plain data."""
    users = dict(get_user_model().objects.values_list("pk", "username"))
    players = sorted(event.players.all(), key=lambda p: (p.name, p.city, p.phone, p.pk))
    player_ids = {player.pk: index for index, player in enumerate(players, start=1)}
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "event": {
            "name": event.name,
            "slug": event.slug,
            "venue": event.venue,
            "starts_on": event.starts_on.isoformat(),
            "ends_on": event.ends_on.isoformat(),
            "created_at": _time(event.created_at),
        },
        "players": [{"id": player_ids[p.pk], "name": p.name, "city": p.city, "phone": p.phone} for p in players],
        "tournaments": [],
    }
    for tournament in event.tournaments.order_by("created_at", "pk"):
        teams = list(tournament.teams.prefetch_related("memberships").order_by("number"))
        team_numbers = {team.pk: team.number for team in teams}
        playoff_codes = dict(tournament.playoff_matches.filter(table__isnull=False).values_list("table_id", "code"))
        rounds = []
        for round_ in tournament.rounds.order_by("number"):
            seatings = list(round_.seatings.all())
            by_table: dict[int, dict[str, int]] = {}
            for seating in seatings:
                if seating.table_id:
                    by_table.setdefault(seating.table_id, {})[seating.pair] = team_numbers[seating.team_id]
            tables = []
            for table in round_.tables.order_by("number"):
                hands = []
                for hand in table.hands.order_by("sequence").prefetch_related("penalties"):
                    hands.append(
                        {
                            "sequence": hand.sequence,
                            "dealer": hand.dealer,
                            "misdeal": hand.misdeal,
                            "bidder": hand.bidder,
                            "bid_level": hand.bid_level,
                            "bid_kind": hand.bid_kind,
                            "trump_suit": hand.trump_suit,
                            "direction": hand.direction,
                            "books": hand.books,
                            "created_at": _time(hand.created_at),
                            "penalties": [
                                _penalty(p, users)
                                for p in sorted(hand.penalties.all(), key=lambda p: (p.created_at, p.pk))
                            ],
                        }
                    )
                tables.append(
                    {
                        "number": table.number,
                        "north_south": by_table.get(table.pk, {}).get(Pair.NORTH_SOUTH),
                        "east_west": by_table.get(table.pk, {}).get(Pair.EAST_WEST),
                        "sitting_pair": table.sitting_pair,
                        "secret": table.secret,
                        "version": table.version,
                        "first_dealer": table.first_dealer,
                        "locked_at": _time(table.locked_at),
                        "disputed_at": _time(table.disputed_at),
                        "dispute_note": table.dispute_note,
                        "playoff_match": playoff_codes.get(table.pk),
                        "hands": hands,
                        "rulings": [
                            _penalty(p, users)
                            for p in table.penalties.filter(hand__isnull=True).order_by("created_at", "pk")
                        ],
                        "signatures": [
                            {"pair": s.pair, "player": player_ids[s.player_id], "signed_at": _time(s.signed_at)}
                            for s in table.signatures.order_by("pair")
                        ],
                        "changes": [
                            {
                                "version": c.version,
                                "action": c.action,
                                "summary": c.summary,
                                "reason": c.reason,
                                "before": c.before,
                                "after": c.after,
                                "correction": c.correction,
                                "user": users.get(c.user_id),
                                "created_at": _time(c.created_at),
                            }
                            for c in table.changes.order_by("version", "pk")
                        ],
                    }
                )
            rounds.append(
                {
                    "number": round_.number,
                    "kind": round_.kind,
                    "status": round_.status,
                    "method": round_.method,
                    "seed": round_.seed,
                    "created_at": _time(round_.created_at),
                    "published_at": _time(round_.published_at),
                    "byes": sorted(team_numbers[s.team_id] for s in seatings if s.table_id is None),
                    "tables": tables,
                }
            )
        data["tournaments"].append(
            {
                "name": tournament.name,
                "slug": tournament.slug,
                "rules": tournament.rules.to_dict(),
                "qualifying_rounds": tournament.qualifying_rounds,
                "status": tournament.status,
                "paper_size": tournament.paper_size,
                "standings_order": tournament.standings_order,
                "avoid_same_city_rounds": tournament.avoid_same_city_rounds,
                "created_at": _time(tournament.created_at),
                "playoff": {
                    "third_place": tournament.playoff_third_place,
                    "double": tournament.playoff_double,
                    "published_at": _time(tournament.playoff_published_at),
                    "seeds": [
                        {"seed": s.seed, "team": team_numbers[s.team_id]}
                        for s in tournament.playoff_seeds.order_by("seed")
                    ],
                },
                "teams": [
                    {
                        "number": team.number,
                        "name": team.name,
                        "city": team.city,
                        "players": [
                            player_ids[m.player_id] for m in sorted(team.memberships.all(), key=lambda m: m.position)
                        ],
                        "fee_paid": team.fee_paid,
                        "side_pot": team.side_pot,
                        "checked_in": team.checked_in,
                        "withdrawn": team.withdrawn,
                        "created_at": _time(team.created_at),
                    }
                    for team in teams
                ],
                "announcements": [
                    {"text": a.text, "created_at": _time(a.created_at), "expires_at": _time(a.expires_at)}
                    for a in tournament.announcements.order_by("created_at", "pk")
                ],
                "rounds": rounds,
            }
        )
    return data


class _Reader:
    """Reads the archive, refusing the first problem with its path in the file."""

    def __init__(self, data):
        self.data = data

    def fail(self, path: str, message: str):
        raise ServiceError(f"{path}: {message}")

    def mapping(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            self.fail(path, "expected an object")
        return value

    def items(self, parent: dict, key: str, path: str) -> list:
        value = parent.get(key)
        if not isinstance(value, list):
            self.fail(f"{path}.{key}", "expected a list")
        return value

    def field(self, parent: dict, key: str, path: str, kind, *, required=True, choices=None, low=None, high=None):
        where = f"{path}.{key}" if path else key
        if key not in parent:
            if required:
                self.fail(where, "missing")
            return None
        value = parent[key]
        if value is None and not required:
            return None
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(where, f"expected a whole number, not {value!r}")
        if kind is bool and not isinstance(value, bool):
            self.fail(where, f"expected true or false, not {value!r}")
        if kind is str and not isinstance(value, str):
            self.fail(where, f"expected text, not {value!r}")
        if kind == "date":
            if not isinstance(value, str) or parse_date(value) is None:
                self.fail(where, f"expected a date like 2026-07-10, not {value!r}")
            return parse_date(value)
        if kind == "datetime":
            parsed = parse_datetime(value) if isinstance(value, str) else None
            if parsed is None:
                self.fail(where, f"expected a date and time, not {value!r}")
            return parsed
        if choices is not None and value not in choices:
            self.fail(where, f"{value!r} is not one of {', '.join(map(str, choices))}")
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(where, f"{value} is outside {low} to {high}")
        return value


def _user_lookup():
    users = dict(get_user_model().objects.values_list("username", "pk"))
    return lambda name: users.get(name) if name else None


def _set_times(model, pk: int, **times) -> None:
    present = {key: value for key, value in times.items() if value is not None}
    if present:
        model.objects.filter(pk=pk).update(**present)


@transaction.atomic
def event_import(*, data: Any) -> Event:
    """Load an archive into a database that does not have its event; all or nothing."""
    read = _Reader(data)
    root = read.mapping(data, "(file)")
    if root.get("format") != FORMAT:
        read.fail("format", f"expected {FORMAT!r}: this is not a Bid Whist event archive")
    if root.get("version") != VERSION:
        read.fail("version", f"this app reads version {VERSION}, not {root.get('version')!r}")
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

    for t_index, entry in enumerate(read.items(root, "tournaments", "")):
        _import_tournament(read, event, entry, f"tournaments[{t_index}]", player, user_pk)
    event.refresh_from_db()
    return event


def _import_tournament(read: _Reader, event: Event, entry, path: str, player, user_pk) -> None:
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
            table = _import_table(read, round_, table_entry, t_path, seat, player, user_pk)
            code = read.field(table_entry, "playoff_match", t_path, str, required=False)
            if code:
                playoff_tables[code] = table
    if tournament.playoff_published_at is not None:
        _import_bracket(read, tournament, playoff_tables, path)


def _import_bracket(read: _Reader, tournament: Tournament, tables: dict, path: str) -> None:
    """Rebuild the published bracket from its seeds and options, link its tables, and resolve it."""
    seeds = tournament.playoff_seeds.count()
    if seeds < 2:
        read.fail(f"{path}.playoff.seeds", "a published bracket needs at least two seeds")
    try:
        playoff_matches_create(tournament, seeds, tables)
    except ServiceError as error:
        read.fail(f"{path}.rounds", error.message)
    playoff_resolve(tournament)


def _import_penalty(read: _Reader, table: Table, hand: Hand | None, entry, path: str, user_pk) -> None:
    read.mapping(entry, path)
    kind = read.field(entry, "kind", path, str, choices=Penalty.Kind.values)
    if hand is None and kind != Penalty.Kind.DIRECTOR_RULING:
        read.fail(f"{path}.kind", "only a director's ruling applies to the round as a whole")
    penalty = Penalty.objects.create(
        table=table,
        hand=hand,
        kind=kind,
        team=read.field(entry, "team", path, str, choices=Pair.values),
        count=read.field(entry, "count", path, int, low=1, high=13),
        choice=read.field(entry, "choice", path, str, choices=["", *Penalty.Choice.values]),
        before_bidding=read.field(entry, "before_bidding", path, bool),
        points=read.field(entry, "points", path, int, low=-1000, high=1000),
        reason=read.field(entry, "reason", path, str, required=False) or "",
        created_by_id=user_pk(read.field(entry, "created_by", path, str, required=False)),
    )
    _set_times(Penalty, penalty.pk, created_at=read.field(entry, "created_at", path, "datetime", required=False))


def _import_table(read: _Reader, round_: Round, entry: dict, path: str, seat, player, user_pk) -> Table:
    secret = read.field(entry, "secret", path, str)
    if not secret or Table.objects.filter(secret=secret).exists():
        read.fail(f"{path}.secret", "this table's private link is missing or already used in this database")
    table = Table.objects.create(
        round=round_,
        number=entry["number"],
        sitting_pair=read.field(entry, "sitting_pair", path, str, choices=Pair.values),
        secret=secret,
        version=read.field(entry, "version", path, int, low=0, high=10**6),
        first_dealer=read.field(entry, "first_dealer", path, str, choices=["", *Seat.values]),
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
            "bidder": read.field(hand_entry, "bidder", h_path, str, choices=["", *Seat.values]),
            "bid_kind": read.field(hand_entry, "bid_kind", h_path, str, choices=["", *Hand.Kind.values]),
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
            dealer=read.field(hand_entry, "dealer", h_path, str, choices=Seat.values),
            misdeal=read.field(hand_entry, "misdeal", h_path, bool),
            bid_level=level,
            trump_suit=read.field(hand_entry, "trump_suit", h_path, str, choices=["", *Hand.Suit.values]),
            direction=read.field(hand_entry, "direction", h_path, str, choices=["", *Hand.Direction.values]),
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
        pair = read.field(signature, "pair", s_path, str, choices=Pair.values)
        if pair in pairs:
            read.fail(f"{s_path}.pair", "a team signs once")
        pairs.add(pair)
        created = Signature.objects.create(
            table=table, pair=pair, player=player(signature.get("player"), f"{s_path}.player")
        )
        _set_times(
            Signature, created.pk, signed_at=read.field(signature, "signed_at", s_path, "datetime", required=False)
        )
    for index, change in enumerate(read.items(entry, "changes", path)):
        c_path = f"{path}.changes[{index}]"
        read.mapping(change, c_path)
        created = SheetChange.objects.create(
            table=table,
            version=read.field(change, "version", c_path, int, low=0, high=10**6),
            action=read.field(change, "action", c_path, str, choices=SheetChange.Action.values),
            summary=read.field(change, "summary", c_path, str)[:300],
            reason=read.field(change, "reason", c_path, str, required=False) or "",
            before=change.get("before"),
            after=change.get("after"),
            correction=read.field(change, "correction", c_path, bool),
            user_id=user_pk(read.field(change, "user", c_path, str, required=False)),
        )
        _set_times(
            SheetChange, created.pk, created_at=read.field(change, "created_at", c_path, "datetime", required=False)
        )
    try:
        table_recompute(table)
    except ServiceError as error:
        read.fail(path, f"the rules refuse this sheet: {error.message}")
    table.refresh_from_db()
    return table
