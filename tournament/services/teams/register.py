"""Registering a team and changing its details."""

from collections.abc import Sequence

from django.db import IntegrityError, transaction

from tournament.errors import ServiceError
from tournament.models import LogEntry, Player, Team, TeamMember, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, team_log_write
from tournament.services.teams.codes import unused_team_code
from tournament.services.teams.entries import (
    PlayerEntry,
    checked_entries,
    checked_number,
    on_another_team_check,
    player_found,
)


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
    team = register(tournament, players, name, city, number, fee_paid, side_pot, checked_in)
    registered = "registered, checked in" if checked_in else "registered"
    team_log_write(team, actor, LogEntry.Action.TEAM_REGISTERED, registered, after=team_snapshot(team))
    changed(Changed.TEAM, team)
    return team


def register(
    tournament: Tournament,
    players: Sequence[PlayerEntry],
    name: str,
    city: str,
    number: int | None,
    fee_paid: bool,
    side_pot: bool,
    checked_in: bool,
) -> Team:
    """A team as team_register makes it, without the log entry (the CSV import logs the whole file once).
    Registrations of one tournament take turns: a second desk entering the same team sees the first's."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    entries = checked_entries(players, name, city)
    number = checked_number(tournament, number)
    found = []
    for entry in entries:
        player = player_found(tournament, entry)
        if player is None:
            player = Player.objects.create(event=tournament.event, name=entry.name, city=entry.city, phone=entry.phone)
        found.append(player)
    on_another_team_check(tournament, found)
    if not city.strip():
        cities = {entry.city for entry in entries if entry.city}
        city = cities.pop() if len(cities) == 1 else ""
    team = Team.objects.create(
        tournament=tournament,
        code=unused_team_code(),
        number=number,
        name=" ".join(name.split()),
        city=" ".join(city.split()),
        fee_paid=fee_paid and tournament.entry_fee <= 0,  # with a fee, paid is what the payments say
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
    entries = checked_entries(players, name, city)
    team.number = checked_number(team.tournament, number or team.number, exclude=team)
    members = {member.position: member for member in team.memberships.select_related("player")}
    chosen = []
    for position, entry in enumerate(entries, start=1):
        member = members[position]
        player = player_found(team.tournament, entry)
        if player is None:
            player = member.player
            player.name, player.city = entry.name, entry.city
            player.phone = entry.phone or player.phone
            player.save(update_fields=["name", "city", "phone"])
        chosen.append(player)
    if chosen[0].pk == chosen[1].pk:
        raise ServiceError("A team is two different players.", field="player2_name")
    on_another_team_check(team.tournament, chosen, exclude=team)
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
    differs = ", ".join(key for key in after if before[key] != after[key])
    team_log_write(
        team, actor, LogEntry.Action.TEAM_CHANGED, f"changed: {differs or 'nothing'}", before=before, after=after
    )
    changed(Changed.TEAM, team)
    # A corrected name renames the player across the event: the pages of their other tournaments too.
    changed(Changed.PERSON, chosen)
    return team
