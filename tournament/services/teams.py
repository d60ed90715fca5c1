"""Registering teams by hand and from CSV, and the registration desk."""

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max

from tournament.errors import ImportRejected, ServiceError
from tournament.models import LogEntry, Player, Team, TeamMember, Tournament
from tournament.services.log import Actor, actor_of, log_write


@dataclass(frozen=True)
class PlayerEntry:
    """A player as typed at registration: found in the event by name and city, else created."""

    name: str
    city: str = ""
    phone: str = ""

    def cleaned(self) -> "PlayerEntry":
        return PlayerEntry(" ".join(self.name.split()), " ".join(self.city.split()), self.phone.strip())


def _player_found(tournament: Tournament, entry: PlayerEntry) -> Player | None:
    """The event's player of that name and city (letter case aside), with a newly given phone kept."""
    player = Player.objects.filter(event=tournament.event, name__iexact=entry.name, city__iexact=entry.city).first()
    if player is not None and entry.phone and player.phone != entry.phone:
        player.phone = entry.phone
        player.save(update_fields=["phone"])
    return player


def _player_find_or_create(tournament: Tournament, entry: PlayerEntry) -> Player:
    player = _player_found(tournament, entry)
    if player is None:
        return Player.objects.create(event=tournament.event, name=entry.name, city=entry.city, phone=entry.phone)
    return player


def _check_entries(entries: Sequence[PlayerEntry]) -> list[PlayerEntry]:
    if len(entries) != 2:
        raise ServiceError("A team is two players.")
    cleaned = [entry.cleaned() for entry in entries]
    for position, entry in enumerate(cleaned, start=1):
        if not entry.name:
            raise ServiceError("Each team needs two players' names.", field=f"player{position}_name")
    first, second = cleaned
    if (first.name.casefold(), first.city.casefold()) == (second.name.casefold(), second.city.casefold()):
        raise ServiceError("A team is two different players.", field="player2_name")
    return cleaned


def _check_not_on_another_team(tournament: Tournament, players: Sequence[Player], exclude: Team | None = None) -> None:
    memberships = TeamMember.objects.filter(tournament=tournament, player__in=players).select_related("team")
    if exclude is not None:
        memberships = memberships.exclude(team=exclude)
    for membership in memberships:
        position = [player.pk for player in players].index(membership.player_id) + 1
        raise ServiceError(
            f"{membership.player.name} already plays on team #{membership.team.number} in this tournament.",
            field=f"player{position}_name",
        )


def _check_number(tournament: Tournament, number: int | None, exclude: Team | None = None) -> int:
    if number is None:
        highest = tournament.teams.aggregate(highest=Max("number"))["highest"]
        return (highest or 0) + 1
    if number < 1:
        raise ServiceError("Team numbers start at 1.", field="number")
    clash = tournament.teams.filter(number=number)
    if exclude is not None:
        clash = clash.exclude(pk=exclude.pk)
    if clash.exists():
        raise ServiceError(f"Team number {number} is taken in this tournament.", field="number")
    return number


def team_snapshot(team: Team) -> dict:
    """A team as the log keeps it: number, names, city, the players and the desk's switches."""
    return {
        "number": team.number,
        "name": team.name,
        "city": team.city,
        "players": [{"name": m.player.name, "city": m.player.city} for m in team.members],
        "fee_paid": team.fee_paid,
        "side_pot": team.side_pot,
        "checked_in": team.checked_in,
        "withdrawn": team.withdrawn,
    }


@transaction.atomic
def team_register(
    *,
    tournament: Tournament,
    players: Sequence[PlayerEntry],
    name: str = "",
    city: str = "",
    number: int | None = None,
    fee_paid: bool = False,
    side_pot: bool = False,
    checked_in: bool = False,
    actor: Actor | None = None,
) -> Team:
    """Enter a team of two players; a late team on the day is registered checked in."""
    team = _register(tournament, players, name, city, number, fee_paid, side_pot, checked_in)
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.TEAM_REGISTERED,
        summary=f"Team #{team.number} {team.display_name} registered" + (", checked in" if checked_in else ""),
        team=team,
        after=team_snapshot(team),
    )
    return team


def _register(tournament, players, name, city, number, fee_paid, side_pot, checked_in) -> Team:
    entries = _check_entries(players)
    number = _check_number(tournament, number)
    found = [_player_find_or_create(tournament, entry) for entry in entries]
    _check_not_on_another_team(tournament, found)
    if not city.strip():
        cities = {entry.city for entry in entries if entry.city}
        city = cities.pop() if len(cities) == 1 else ""
    team = Team.objects.create(
        tournament=tournament,
        number=number,
        name=" ".join(name.split()),
        city=" ".join(city.split()),
        fee_paid=fee_paid,
        side_pot=side_pot,
        checked_in=checked_in,
    )
    try:
        with transaction.atomic():
            TeamMember.objects.bulk_create(
                TeamMember(tournament=tournament, team=team, player=player, position=position)
                for position, player in enumerate(found, start=1)
            )
    except IntegrityError:
        raise ServiceError("One of these players was just entered on another team; reload and check.") from None
    return team


@transaction.atomic
def team_update(
    *,
    team: Team,
    players: Sequence[PlayerEntry],
    name: str = "",
    city: str = "",
    number: int | None = None,
    actor: Actor | None = None,
) -> Team:
    """Change a team's details; a corrected player name renames that player across the event."""
    before = team_snapshot(team)
    entries = _check_entries(players)
    team.number = _check_number(team.tournament, number or team.number, exclude=team)
    members = {member.position: member for member in team.memberships.select_related("player")}
    chosen = []
    for position, entry in enumerate(entries, start=1):
        member = members[position]
        player = _player_found(team.tournament, entry)
        if player is None:
            player = member.player
            player.name, player.city = entry.name, entry.city
            player.phone = entry.phone or player.phone
            player.save(update_fields=["name", "city", "phone"])
        chosen.append(player)
    if chosen[0].pk == chosen[1].pk:
        raise ServiceError("A team is two different players.", field="player2_name")
    _check_not_on_another_team(team.tournament, chosen, exclude=team)
    for position, player in enumerate(chosen, start=1):
        member = members[position]
        if member.player_id != player.pk:
            member.player = player
            member.save(update_fields=["player"])
    team.name = " ".join(name.split())
    team.city = " ".join(city.split())
    team.save(update_fields=["number", "name", "city"])
    team = Team.objects.prefetch_related("memberships__player").get(pk=team.pk)
    after = team_snapshot(team)
    changed = ", ".join(key for key in after if before[key] != after[key])
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.TEAM_CHANGED,
        summary=f"Team #{team.number} changed: {changed or 'nothing'}",
        team=team,
        before=before,
        after=after,
    )
    return team


DESK_FIELDS = ("checked_in", "fee_paid", "side_pot", "withdrawn")
DESK_WORDS = {
    ("checked_in", True): "checked in",
    ("checked_in", False): "check-in undone",
    ("fee_paid", True): "fee paid",
    ("fee_paid", False): "fee marked unpaid",
    ("side_pot", True): "in the side pot",
    ("side_pot", False): "out of the side pot",
    ("withdrawn", True): "withdrawn",
    ("withdrawn", False): "reinstated",
}


@transaction.atomic
def team_desk_update(
    *,
    team: Team,
    checked_in: bool | None = None,
    fee_paid: bool | None = None,
    side_pot: bool | None = None,
    withdrawn: bool | None = None,
    actor: Actor | None = None,
) -> Team:
    """The registration desk's switches. Withdrawing keeps every round already drawn and scored."""
    changes = {
        "checked_in": checked_in,
        "fee_paid": fee_paid,
        "side_pot": side_pot,
        "withdrawn": withdrawn,
    }
    fields = [field for field, value in changes.items() if value is not None]
    before = {field: getattr(team, field) for field in DESK_FIELDS}
    for field in fields:
        setattr(team, field, changes[field])
    if withdrawn:
        team.checked_in = False
        fields.append("checked_in")
    if fields:
        team.save(update_fields=sorted(set(fields)))
        words = [DESK_WORDS[field, changes[field]] for field in changes if changes[field] is not None]
        log_write(
            actor=actor_of(actor),
            action=LogEntry.Action.DESK,
            summary=f"Team #{team.number} {team.display_name}: {', '.join(words)}",
            team=team,
            before=before,
            after={field: getattr(team, field) for field in DESK_FIELDS},
        )
    return team


CSV_COLUMNS = {
    "player1": "first player's name (required)",
    "player1_city": "first player's city or club",
    "player1_phone": "first player's phone",
    "player2": "second player's name (required)",
    "player2_city": "second player's city or club",
    "player2_phone": "second player's phone",
    "team_name": "team name (blank: the players' names)",
    "team_city": "team's city (blank: the players' city when they share one)",
    "team_number": "team number (blank: the next free number)",
    "fee_paid": "yes or no",
    "side_pot": "yes or no",
    "checked_in": "yes or no",
}
REQUIRED_COLUMNS = ("player1", "player2")
_YES = {"yes", "y", "true", "1", "x", "paid"}
_NO = {"no", "n", "false", "0", ""}


def _yes_no(value: str, column: str) -> bool:
    value = value.strip().lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    raise ServiceError(f"{column} must be yes or no, not {value!r}.")


def _read_rows(text: str) -> tuple[list[tuple[int, dict[str, str]]], list[tuple[int, str]]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [(name or "").strip().lower() for name in (reader.fieldnames or [])]
    problems = []
    if not header:
        return [], [(1, "The file is empty: the first line must name the columns.")]
    unknown = [name for name in header if name not in CSV_COLUMNS]
    if unknown:
        problems.append((1, f"Unknown column(s): {', '.join(unknown)}."))
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    if missing:
        problems.append((1, f"Missing required column(s): {', '.join(missing)}."))
    if problems:
        return [], problems
    reader.fieldnames = header
    rows = []
    for row in reader:
        if None in row:
            problems.append((reader.line_num, "The line has more values than the header has columns."))
            continue
        values = {key: (value or "").strip() for key, value in row.items()}
        if any(values.values()):
            rows.append((reader.line_num, values))
    return rows, problems


def teams_import_csv(*, tournament: Tournament, text: str, actor: Actor | None = None) -> list[Team]:
    """Register every team of a CSV file, or none: each bad line is reported with its number."""
    try:
        rows, problems = _read_rows(text)
    except csv.Error as error:
        raise ImportRejected([(1, f"This is not a readable CSV file ({error}).")]) from None
    if not rows and not problems:
        problems.append((2, "The file names the columns but has no teams."))
    teams = []
    seen_players: dict[tuple[str, str], int] = {}
    seen_numbers: dict[int, int] = {}
    with transaction.atomic():
        for line, values in rows:
            try:
                number = None
                if values.get("team_number"):
                    if not values["team_number"].isdigit():
                        raise ServiceError(f"team_number must be a whole number, not {values['team_number']!r}.")
                    number = int(values["team_number"])
                    if number in seen_numbers:
                        raise ServiceError(f"team number {number} is also on line {seen_numbers[number]}.")
                    seen_numbers[number] = line
                entries = [
                    PlayerEntry(
                        values.get(f"player{i}", ""),
                        values.get(f"player{i}_city", ""),
                        values.get(f"player{i}_phone", ""),
                    ).cleaned()
                    for i in (1, 2)
                ]
                for entry in entries:
                    key = (entry.name.casefold(), entry.city.casefold())
                    if entry.name and key in seen_players:
                        raise ServiceError(f"{entry.name} is also on the team on line {seen_players[key]}.")
                flags = {
                    column: _yes_no(values.get(column, ""), column) for column in ("fee_paid", "side_pot", "checked_in")
                }
                with transaction.atomic():
                    team = _register(
                        tournament,
                        entries,
                        values.get("team_name", ""),
                        values.get("team_city", ""),
                        number,
                        **flags,
                    )
                for entry in entries:
                    seen_players[(entry.name.casefold(), entry.city.casefold())] = line
                teams.append(team)
            except ServiceError as error:
                problems.append((line, error.message))
        if problems:
            raise ImportRejected(sorted(problems, key=lambda problem: problem[0]))
        log_write(
            actor=actor_of(actor),
            action=LogEntry.Action.TEAMS_IMPORTED,
            summary=f"{len(teams)} teams imported from CSV: #" + ", #".join(str(team.number) for team in teams),
            tournament=tournament,
            after={"teams": [team.number for team in teams]},
        )
    return teams
