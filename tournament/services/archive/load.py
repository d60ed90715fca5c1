"""Loading an archive into the database: all or nothing, every score recomputed by the engine."""

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring import RuleSet, ScoringError
from tournament.errors import ServiceError
from tournament.models import (
    STANDINGS_ORDERS,
    Announcement,
    Event,
    LogEntry,
    Player,
    PlayoffSeed,
    Round,
    Seating,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournament.models.events import CODE_ALPHABET, CODE_LENGTH
from tournament.selectors.placings import tournament_placings
from tournament.services.archive.export import FORMAT, VERSION
from tournament.services.archive.reader import Reader
from tournament.services.archive.sheets import import_log, import_table, set_times
from tournament.services.events import free_slug
from tournament.services.log import Actor, actor_of, log_write
from tournament.services.playoffs import playoff_matches_create, playoff_resolve
from tournament.services.teams.codes import unused_team_code

READS = (1, VERSION)


def _team_code(read: Reader, entry: dict, path: str, as_copy: bool) -> str:
    """The archived code, or a new one for a copy or an archive that has none (version 1)."""
    code = read.field(entry, "code", path, str, required=False)
    if as_copy or not code:
        return unused_team_code()
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        read.fail(f"{path}.code", f"{code[:20]!r} is not a team code")
    if Team.objects.filter(code=code).exists():
        read.fail(f"{path}.code", "this team code is already used in this database")
    return code


def _user_lookup():
    users = dict(get_user_model().objects.values_list("username", "pk"))
    return lambda name: users.get(name) if name else None


@transaction.atomic
def event_import(*, data: Any, as_copy: bool = False, actor: Actor | None = None) -> Event:
    """Load an archive into a database that does not have its event; all or nothing.

    ``as_copy`` loads a copy beside what the database holds: every table gets a new private link, and an
    event or tournament whose address is taken gets a free one (the demo event, whose archive is public,
    is loaded that way).
    """
    read = Reader(data)
    root = read.mapping(data, "(file)")
    if root.get("format") != FORMAT:
        read.fail("format", f"expected {FORMAT!r}: this is not a Bid Whist event archive")
    if root.get("version") not in READS:
        read.fail("version", f"this app reads versions {', '.join(map(str, READS))}, not {root.get('version')!r}")
    ev = read.mapping(root.get("event"), "event")
    slug = read.field(ev, "slug", "event", str)
    if as_copy:
        slug = free_slug(Event, slug)
    elif Event.objects.filter(slug=slug).exists():
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
    set_times(Event, event.pk, created_at=read.field(ev, "created_at", "event", "datetime", required=False))
    user_pk = _user_lookup()

    players: dict[int, Player] = {}
    seen_names = {}
    for path, entry in read.entries(root, "players", ""):
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

    import_log(read, root.get("log", []), "log", event=event)
    for t_index, entry in enumerate(read.items(root, "tournaments", "")):
        _import_tournament(read, event, entry, f"tournaments[{t_index}]", player, user_pk, as_copy)
    event.refresh_from_db()
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.EVENT_IMPORTED,
        summary=f"Event {event.name} imported from an archive (version {root['version']})",
        event=event,
    )
    return event


def _import_tournament(read: Reader, event: Event, entry, path: str, player, user_pk, as_copy: bool) -> None:
    read.mapping(entry, path)
    slug = read.field(entry, "slug", path, str)
    if as_copy:
        slug = free_slug(Tournament, slug)
    elif Tournament.objects.filter(slug=slug).exists():
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
        sheet_mode=read.field(entry, "sheet_mode", path, str, required=False, choices=Tournament.SheetMode.values)
        or Tournament.SheetMode.SIGN,
    )
    set_times(Tournament, tournament.pk, created_at=read.field(entry, "created_at", path, "datetime", required=False))

    teams: dict[int, Team] = {}
    placed: dict[int, str] = {}
    for team_path, team_entry in read.entries(entry, "teams", path):
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
            code=_team_code(read, team_entry, team_path, as_copy),
        )
        set_times(Team, team.pk, created_at=read.field(team_entry, "created_at", team_path, "datetime", required=False))
        TeamMember.objects.bulk_create(
            TeamMember(tournament=tournament, team=team, player=member, position=position)
            for position, member in enumerate(members, start=1)
        )
        teams[number] = team

    def team(number, where):
        if number not in teams:
            read.fail(where, f"no team number {number!r} in this tournament")
        return teams[number]

    for a_path, item in read.entries(entry, "announcements", path):
        announcement = Announcement.objects.create(
            tournament=tournament,
            text=read.field(item, "text", a_path, str),
            expires_at=read.field(item, "expires_at", a_path, "datetime", required=False),
        )
        set_times(
            Announcement, announcement.pk, created_at=read.field(item, "created_at", a_path, "datetime", required=False)
        )

    import_log(read, entry.get("log", []), f"{path}.log", event=event, tournament=tournament, teams=team)
    playoff = read.mapping(entry.get("playoff"), f"{path}.playoff")
    seeds = set()
    for s_path, seed_entry in read.entries(playoff, "seeds", f"{path}.playoff"):
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
    for r_path, round_entry in read.entries(entry, "rounds", path):
        number = read.field(round_entry, "number", r_path, int, low=1, high=100)
        if number in numbers:
            read.fail(f"{r_path}.number", f"round {number} appears twice")
        numbers.add(number)
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            kind=read.field(round_entry, "kind", r_path, str, choices=Round.Kind.values),
            label=(read.field(round_entry, "label", r_path, str, required=False) or "")[:60],
            status=read.field(round_entry, "status", r_path, str, choices=Round.Status.values),
            method=read.field(round_entry, "method", r_path, str, choices=Round.Method.values),
            seed=read.field(round_entry, "seed", r_path, int, required=False),
            published_at=read.field(round_entry, "published_at", r_path, "datetime", required=False),
        )
        set_times(
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
            table = import_table(read, round_, table_entry, t_path, seat, player, user_pk, as_copy)
            code = read.field(table_entry, "playoff_match", t_path, str, required=False)
            if code:
                playoff_tables[code] = table
    if tournament.playoff_published_at is not None:
        _import_bracket(read, tournament, playoff_tables, path)
    _check_placings(read, tournament, playoff.get("placings"), f"{path}.playoff.placings")


def _check_placings(read: Reader, tournament: Tournament, kept, path: str) -> None:
    """The placings an archive keeps must be the ones its sheets give."""
    if kept is None:
        return
    placings = tournament_placings(tournament)
    given = [{"place": p.place, "shared": p.shared, "team": p.team.number} for p in placings or []]
    if kept != given:
        read.fail(path, "the final placings differ from the ones the sheets and the bracket give")


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
