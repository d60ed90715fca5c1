"""A team as typed at registration, and everything that can be wrong with it, each beside its field."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Max, Value
from django.db.models.functions import Lower

from tournament.errors import ServiceError
from tournament.models import Player, Team, TeamMember, Tournament
from tournament.typed import text_problem

MAX_TEAM_NUMBER = 9999
# The longest text each field stores (the models' max_length).
PLAYER_LIMITS = {"name": 120, "city": 120, "phone": 40}
TEAM_LIMITS = {"name": 160, "city": 120}
ORDINALS = {1: "first", 2: "second"}


@dataclass(frozen=True)
class PlayerEntry:
    """A player as typed at registration: found in the event by name and city, else created."""

    name: str
    city: str = ""
    phone: str = ""

    def cleaned(self) -> "PlayerEntry":
        return PlayerEntry(" ".join(self.name.split()), " ".join(self.city.split()), self.phone.strip())


def team_entry_problems(players: Sequence[PlayerEntry], name: str = "", city: str = "") -> list[ServiceError]:
    """Everything wrong with a team as typed (empty when it can be registered), each beside its field."""
    if len(players) != 2:
        return [ServiceError("A team is two players.")]
    problems = []
    cleaned = [entry.cleaned() for entry in players]
    if not all(entry.name for entry in cleaned):
        position = 1 if not cleaned[0].name else 2
        problems.append(ServiceError("Each team needs two players' names.", field=f"player{position}_name"))
    for position, entry in enumerate(cleaned, start=1):
        for part, limit in PLAYER_LIMITS.items():
            problem = text_problem(getattr(entry, part), f"The {ORDINALS[position]} player's {part}", limit)
            if problem:
                problems.append(ServiceError(problem, field=f"player{position}_{part}"))
    for value, what, field in ((name, "The team name", "name"), (city, "The team's city", "city")):
        problem = text_problem(value, what, TEAM_LIMITS[field])
        if problem:
            problems.append(ServiceError(problem, field=field))
    first, second = cleaned
    if first.name and (first.name.casefold(), first.city.casefold()) == (
        second.name.casefold(),
        second.city.casefold(),
    ):
        problems.append(ServiceError("A team is two different players.", field="player2_name"))
    return problems


def checked_entries(players: Sequence[PlayerEntry], name: str = "", city: str = "") -> list[PlayerEntry]:
    problems = team_entry_problems(players, name, city)
    if problems:
        raise problems[0]
    return [entry.cleaned() for entry in players]


def number_problem(number: int | None) -> str | None:
    if number is not None and not 1 <= number <= MAX_TEAM_NUMBER:
        return f"Team numbers are 1 to {MAX_TEAM_NUMBER}."
    return None


def checked_number(tournament: Tournament, number: int | None, exclude: Team | None = None) -> int:
    """The number given, or the next free one; refused when taken or out of range."""
    if number is None:
        highest = tournament.teams.aggregate(highest=Max("number"))["highest"]
        return (highest or 0) + 1
    problem = number_problem(number)
    if problem:
        raise ServiceError(problem, field="number")
    clash = tournament.teams.filter(number=number)
    if exclude is not None:
        clash = clash.exclude(pk=exclude.pk)
    if clash.exists():
        raise ServiceError(f"Team number {number} is taken in this tournament.", field="number")
    return number


def player_found(tournament: Tournament, entry: PlayerEntry) -> Player | None:
    """The event's player of that name and city (letter case aside), with a newly given phone kept."""
    # Compared as the unique constraint's index keeps them (lower case), so the lookup is one index probe
    # however many players the event has: registration stays linear in the size of the field.
    matching = (
        Player.objects.alias(name_ci=Lower("name"), city_ci=Lower("city"))
        .filter(event_id=tournament.event_id, name_ci=Lower(Value(entry.name)), city_ci=Lower(Value(entry.city)))
        .order_by()
    )
    player = next(iter(matching), None)
    if player is not None and entry.phone and player.phone != entry.phone:
        player.phone = entry.phone
        player.save(update_fields=["phone"])
    return player


def registration_clashes(tournament: Tournament, players: Sequence[PlayerEntry], number: int | None) -> list[str]:
    """What the tournament's teams already hold of a team as typed: its number, and each player on a team.

    Changes nothing (``player_found`` would keep a new phone), so a file's lines can all be checked first.
    """
    clashes = []
    if number is not None and tournament.teams.filter(number=number).exists():
        clashes.append(f"Team number {number} is taken in this tournament.")
    for entry in (entry.cleaned() for entry in players):
        unstorable = any(text_problem(getattr(entry, part), part, PLAYER_LIMITS[part]) for part in ("name", "city"))
        if not entry.name or unstorable:
            continue  # already refused as typed; a database would refuse to look it up (PostgreSQL and NUL)
        membership = (
            TeamMember.objects.filter(
                tournament=tournament, player__name__iexact=entry.name, player__city__iexact=entry.city
            )
            .select_related("team", "player")
            .first()
        )
        if membership is not None:
            clashes.append(
                f"{membership.player.name} already plays on team #{membership.team.number} in this tournament."
            )
    return clashes


def on_another_team_check(tournament: Tournament, players: Sequence[Player], exclude: Team | None = None) -> None:
    memberships = TeamMember.objects.filter(tournament=tournament, player__in=players).select_related("team")
    if exclude is not None:
        memberships = memberships.exclude(team=exclude)
    for membership in memberships:
        position = [player.pk for player in players].index(membership.player_id) + 1
        raise ServiceError(
            f"{membership.player.name} already plays on team #{membership.team.number} in this tournament.",
            field=f"player{position}_name",
        )
