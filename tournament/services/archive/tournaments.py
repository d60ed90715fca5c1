"""Loading one tournament of an archive: its teams, rounds and tables, playoff and placings (``load.py`` loads
the event around it). Each part that depends on another is checked as it is loaded; ``refuse`` names the first
problem by its place in the file.
"""

from collections.abc import Callable

from scoring import RuleSet, ScoringError
from scoring.places import Place
from tournament.errors import ServiceError
from tournament.models import (
    Announcement,
    Event,
    Player,
    PlayoffMatch,
    PlayoffSeed,
    Round,
    Seating,
    SitOut,
    Substitute,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournament.models.events import CODE_ALPHABET, CODE_LENGTH
from tournament.selectors.placings import tournament_placings
from tournament.services.archive import schema
from tournament.services.archive.money import TeamLookup, money_import
from tournament.services.archive.sheets import (
    TableBuild,
    import_log,
    model_values,
    refuse,
    set_times,
    set_times_bulk,
    table_build,
    tables_store,
)
from tournament.services.clock import round_completion_store
from tournament.services.events import free_slug
from tournament.services.playoffs import playoff_matches_create, playoff_resolve
from tournament.services.teams.codes import unused_team_codes

# An archive's player by its id in the file, refused at the place given when there is none.
PlayerLookup = Callable[[int, str], Player]
# A user's pk by the name an archived log or signature gives, None when this database has no such user.
UserLookup = Callable[[str], int | None]


def _team_codes(entries: list[schema.TeamData], path: str, as_copy: bool, renewed: list[str]) -> list[str]:
    """Each team's archived code, or a new one: for a copy, for an archive without codes (version 1), and
    for a team whose code another team of this database holds already (said in ``renewed``)."""
    kept: dict[str, str] = {}
    for index, entry in enumerate(entries):
        if as_copy or not entry.code:
            continue
        where = f"{path}.teams[{index}].code"
        if len(entry.code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in entry.code):
            refuse(where, f"{entry.code!r} is not a team code")
        if entry.code in kept:
            refuse(where, f"the same code as {kept[entry.code]}")
        kept[entry.code] = f"{path}.teams[{index}]"
    taken = set(Team.objects.filter(code__in=kept).values_list("code", flat=True)) if kept else set()
    keeps = [entry.code in kept and entry.code not in taken for entry in entries]
    fresh = iter(unused_team_codes(keeps.count(False), avoid=set(kept)) if not all(keeps) else [])
    renewed += [f"team #{entry.number}" for entry in entries if entry.code in taken]
    return [entry.code if keep and entry.code else next(fresh) for entry, keep in zip(entries, keeps, strict=True)]


def _import_teams(
    tournament: Tournament,
    entries: list[schema.TeamData],
    path: str,
    player: PlayerLookup,
    as_copy: bool,
    renewed: list[str],
) -> tuple[dict[int, Team], dict[int, set[int]]]:
    """The tournament's teams by number and their players' pks by team pk, in a fixed number of queries."""
    placed: dict[int, str] = {}
    numbers: set[int] = set()
    members_of: list[list[Player]] = []
    for index, entry in enumerate(entries):
        team_path = f"{path}.teams[{index}]"
        if entry.number in numbers:
            refuse(f"{team_path}.number", f"team number {entry.number} is used twice")
        numbers.add(entry.number)
        members = [player(pid, f"{team_path}.players[{i}]") for i, pid in enumerate(entry.players)]
        if members[0].pk == members[1].pk:
            refuse(f"{team_path}.players", "a team is two different players")
        for i, member in enumerate(members):
            if member.pk in placed:
                refuse(f"{team_path}.players[{i}]", f"this player is already on {placed[member.pk]}")
            placed[member.pk] = team_path
        members_of.append(members)
    clashing: list[str] = []
    codes = _team_codes(entries, path, as_copy, clashing)
    renewed += [f"{tournament.name} {team}" for team in clashing]
    created = Team.objects.bulk_create(
        Team(tournament=tournament, code=code, **model_values(entry, Team, leave=("code",)))
        for entry, code in zip(entries, codes, strict=True)
    )
    set_times_bulk(Team, created, [entry.created_at for entry in entries])
    TeamMember.objects.bulk_create(
        TeamMember(tournament=tournament, team=team, player=member, position=position)
        for team, members in zip(created, members_of, strict=True)
        for position, member in enumerate(members, start=1)
    )
    players_of = {
        team.pk: {member.pk for member in team_members} for team, team_members in zip(created, members_of, strict=True)
    }
    return {team.number: team for team in created}, players_of


def tournament_import(
    event: Event,
    entry: schema.TournamentData,
    path: str,
    player: PlayerLookup,
    user_pk: UserLookup,
    as_copy: bool,
    renewed: list[str],
) -> Tournament:
    slug = free_slug(Tournament, entry.slug) if as_copy else entry.slug
    if not as_copy and Tournament.objects.filter(slug=slug).exists():
        refuse(f"{path}.slug", f"a tournament {slug!r} is already in this database")
    try:
        rules = RuleSet.from_dict(entry.rules)
    except ScoringError as error:
        refuse(f"{path}.rules", str(error))
    tournament = Tournament.objects.create(
        event=event,
        name=entry.name,
        slug=slug,
        rules_data=rules.to_dict(),
        qualifying_rounds=entry.qualifying_rounds,
        status=entry.status,
        paper_size=entry.paper_size,
        standings_order=entry.standings_order,
        avoid_same_city_rounds=entry.avoid_same_city_rounds,
        sheet_mode=entry.sheet_mode,
    )
    set_times(Tournament, tournament.pk, created_at=entry.created_at)
    teams, members = _import_teams(tournament, entry.teams, path, player, as_copy, renewed)

    def team(number: int, where: str) -> Team:
        if number not in teams:
            refuse(where, f"no team number {number!r} in this tournament")
        return teams[number]

    money_import(tournament, entry.money, f"{path}.money", team)
    for item in entry.announcements:
        announcement = Announcement.objects.create(tournament=tournament, text=item.text, expires_at=item.expires_at)
        set_times(Announcement, announcement.pk, created_at=item.created_at)
    import_log(entry.log, f"{path}.log", event=event, tournament=tournament, teams=team)
    _import_sit_outs(tournament, entry, path, team)
    _import_seeds(tournament, entry.playoff, f"{path}.playoff", team)
    playoff_tables: dict[str, tuple[Table, str]] = {}
    numbers = set()
    for r_index, round_entry in enumerate(entry.rounds):
        if round_entry.number in numbers:
            refuse(f"{path}.rounds[{r_index}].number", f"round {round_entry.number} appears twice")
        numbers.add(round_entry.number)
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, **model_values(round_entry, Round)) for round_entry in entry.rounds
    )
    set_times_bulk(Round, rounds, [round_entry.created_at for round_entry in entry.rounds])
    substitutes = _import_substitutes(
        entry.substitutes, f"{path}.substitutes", {r.number: r for r in rounds}, team, player, members
    )
    seatings: list[Seating] = []
    builds: list[TableBuild] = []
    for r_index, (round_, round_entry) in enumerate(zip(rounds, entry.rounds, strict=True)):
        builds += _import_round(
            round_,
            round_entry,
            f"{path}.rounds[{r_index}]",
            team,
            player,
            members,
            substitutes,
            user_pk,
            as_copy,
            seatings,
        )
    tables_store(builds)
    Seating.objects.bulk_create(seatings)
    for build in builds:
        code = build.playoff_match
        if code and code in playoff_tables:
            refuse(f"{build.path}.playoff_match", f"match {code} has two tables")
        if code:
            playoff_tables[code] = (build.table, build.path)
    if tournament.playoff_published_at is not None:
        _import_bracket(tournament, playoff_tables, path)
    elif playoff_tables:
        refuse(f"{path}.playoff.published_at", "tables play playoff matches, but the bracket was never published")
    _check_placings(tournament, entry.playoff.placings, f"{path}.playoff.placings")
    for round_ in rounds:
        round_completion_store(round=round_)
    return tournament


def _import_sit_outs(tournament: Tournament, entry: schema.TournamentData, path: str, team: TeamLookup) -> None:
    """The teams marked as sitting out a qualifying round, each before the round was drawn: so never a team the
    round seats (at a table or with a bye), nor a round of the playoff."""
    playing = {
        round_entry.number: {
            *round_entry.byes,
            *(number for table in round_entry.tables for number in (table.north_south, table.east_west)),
        }
        for round_entry in entry.rounds
    }
    marked: set[tuple[int, int]] = set()
    for index, item in enumerate(entry.sit_outs):
        where = f"{path}.sit_outs[{index}]"
        if item.round > entry.qualifying_rounds:
            refuse(f"{where}.round", f"round {item.round} is not one of the {entry.qualifying_rounds} qualifying ones")
        if item.team in playing.get(item.round, ()):
            refuse(
                f"{where}.round",
                f"team {item.team} plays round {item.round}: a team sits out a round only when marked before the "
                "round is drawn, which then leaves it out",
            )
        if (item.team, item.round) in marked:
            refuse(where, f"team {item.team} sits out round {item.round} twice")
        marked.add((item.team, item.round))
        SitOut.objects.create(
            tournament=tournament, team=team(item.team, f"{where}.team"), round_number=item.round, reason=item.reason
        )


def _import_substitutes(
    entries: list[schema.SubstituteData],
    path: str,
    rounds: dict[int, Round],
    team: TeamLookup,
    player: PlayerLookup,
    members: dict[int, set[int]],
) -> dict[tuple[int, int], Substitute]:
    """Substitutes of the tournament's rounds: one a team and round, for one of the team's own players. Made
    before the sheets, which a substitute may have signed; returned by (round number, team number)."""
    made: dict[tuple[int, int], Substitute] = {}
    for index, item in enumerate(entries):
        where = f"{path}[{index}]"
        if item.round not in rounds:
            refuse(f"{where}.round", f"no round {item.round} in this tournament")
        owner = team(item.team, f"{where}.team")
        replaced = player(item.replaces, f"{where}.replaces")
        if replaced.pk not in members[owner.pk]:
            refuse(f"{where}.replaces", f"player {item.replaces} is not on team {item.team}")
        if (item.round, item.team) in made:
            refuse(where, "a team plays a round with one substitute at most")
        made[(item.round, item.team)] = Substitute(
            round=rounds[item.round], team=owner, replaces=replaced, name=item.name, reason=item.reason
        )
    Substitute.objects.bulk_create(made.values())
    return made


def _import_seeds(tournament: Tournament, playoff: schema.PlayoffData, path: str, team: TeamLookup) -> None:
    seeds: set[int] = set()
    seeded: dict[int, int] = {}
    created: list[PlayoffSeed] = []
    for index, seed_entry in enumerate(playoff.seeds):
        s_path = f"{path}.seeds[{index}]"
        if seed_entry.seed in seeds:
            refuse(f"{s_path}.seed", f"seed {seed_entry.seed} appears twice")
        seeds.add(seed_entry.seed)
        if seed_entry.team in seeded:
            refuse(f"{s_path}.team", f"team {seed_entry.team} is already seed {seeded[seed_entry.team]}")
        seeded[seed_entry.team] = seed_entry.seed
        created.append(
            PlayoffSeed(tournament=tournament, seed=seed_entry.seed, team=team(seed_entry.team, f"{s_path}.team"))
        )
    if seeds and seeds != set(range(1, len(seeds) + 1)):
        refuse(f"{path}.seeds", "the seeds must be numbered 1 to N")
    PlayoffSeed.objects.bulk_create(created)
    tournament.playoff_third_place = playoff.third_place
    tournament.playoff_double = playoff.double
    tournament.playoff_published_at = playoff.published_at
    tournament.save(update_fields=["playoff_third_place", "playoff_double", "playoff_published_at"])


def _import_round(
    round_: Round,
    entry: schema.RoundData,
    path: str,
    team: TeamLookup,
    player: PlayerLookup,
    members: dict[int, set[int]],
    substitutes: dict[tuple[int, int], Substitute],
    user_pk: UserLookup,
    as_copy: bool,
    seatings: list[Seating],
) -> list[TableBuild]:
    """A round's byes and tables, checked and made (stored by the caller with the tournament's others)."""
    in_round: dict[int, str] = {}

    def seat(team_number: int, where: str, table: Table | None = None, pair: str = "") -> Team:
        found = team(team_number, where)
        if found.pk in in_round:
            refuse(where, f"team {team_number} already plays in this round at {in_round[found.pk]}")
        in_round[found.pk] = where
        seatings.append(Seating(round=round_, team=found, table=table, pair=pair))
        return found

    for index, bye in enumerate(entry.byes):
        seat(bye, f"{path}.byes[{index}]")
    table_numbers = set()
    builds = []
    for index, table_entry in enumerate(entry.tables):
        t_path = f"{path}.tables[{index}]"
        if table_entry.number in table_numbers:
            refuse(f"{t_path}.number", f"table {table_entry.number} appears twice")
        table_numbers.add(table_entry.number)
        if table_entry.playoff_match and entry.kind != Round.Kind.PLAYOFF:
            refuse(f"{t_path}.playoff_match", "only a playoff round's tables play playoff matches")
        builds.append(table_build(round_, table_entry, t_path, seat, player, members, substitutes, user_pk, as_copy))
    return builds


def _check_placings(tournament: Tournament, kept: list[schema.PlacingData] | None, path: str) -> None:
    """The placings an archive keeps must be the ones its sheets give."""
    if kept is None:
        return
    placings = tournament_placings(tournament) or []
    given = [(p.place, p.team.number) for p in placings]
    if [(Place(p.place, p.shared), p.team) for p in kept] != given:
        refuse(path, "the final placings differ from the ones the sheets and the bracket give")


def _import_bracket(tournament: Tournament, tables: dict[str, tuple[Table, str]], path: str) -> None:
    """Rebuild the published bracket from its seeds and options, link its tables, and resolve it; each
    match's table must seat the teams the bracket gives that match."""
    seeds = tournament.playoff_seeds.count()
    if seeds < 2:
        refuse(f"{path}.playoff.seeds", "a published bracket needs at least two seeds")
    seated = {code: (table.team_ns, table.team_ew) for code, (table, _) in tables.items()}
    try:
        playoff_matches_create(tournament, seeds, {code: table for code, (table, _) in tables.items()})
    except ServiceError as error:
        refuse(f"{path}.rounds", error.message)
    playoff_resolve(tournament, reseat=False)
    for match in PlayoffMatch.objects.filter(tournament=tournament, table__isnull=False).select_related(
        "top_team", "bottom_team"
    ):
        north_south, east_west = seated.get(match.code, (None, None))
        if match.code in tables and (north_south, east_west) != (match.top_team, match.bottom_team):
            expected = " and ".join(f"#{t.number}" for t in (match.top_team, match.bottom_team) if t) or "not known yet"
            found = " and ".join(f"#{t.number}" for t in (north_south, east_west) if t)
            refuse(
                f"{tables[match.code][1]}.playoff_match",
                f"{match.label} ({match.code}) is played by {expected}; this table seats {found}",
            )
