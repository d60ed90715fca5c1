"""The registration desk's switches: check-in, fees, the side pot, withdrawal."""

from collections.abc import Iterable

from django.db import transaction

from tournament.errors import ServiceError
from tournament.models import LogEntry, Team, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, team_log_write

DESK_FIELDS = ("checked_in", "fee_paid", "side_pot", "withdrawn")
# What the public pages show of the desk's switches (fees and the side pot are the staff's).
SHOWN_FIELDS = {"checked_in", "withdrawn"}
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
    """The registration desk's switches. Withdrawing keeps every round already drawn and scored. The desk's
    check-in (or its undoing) replaces a team's own; reinstating a team closes its request to withdraw."""
    if fee_paid is not None and team.tournament.entry_fee > 0:
        raise ServiceError(
            f"With an entry fee of {team.tournament.entry_fee}, the fee is paid when the payments say so: record the "
            "payment at the desk."
        )
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
    if team.checked_in != before["checked_in"] and team.self_checked_in_at is not None:
        team.self_checked_in_at = None
        fields.append("self_checked_in_at")
    if withdrawn is False and team.withdraw_requested_at is not None:
        team.withdraw_requested_at = None
        fields.append("withdraw_requested_at")
    if fields:
        team.save(update_fields=sorted(set(fields)))
        words = [DESK_WORDS[field, value] for field, value in changes.items() if value is not None]
        after = {field: getattr(team, field) for field in DESK_FIELDS}
        team_log_write(
            team, actor, LogEntry.Action.DESK, f"at the desk: {', '.join(words)}", before=before, after=after
        )
        if SHOWN_FIELDS & set(fields):
            changed(Changed.TEAM, team)
    return team


@transaction.atomic
def teams_check_in(*, tournament: Tournament, teams: Iterable[Team], actor: Actor | None = None) -> list[Team]:
    """Check in a room of teams at once, each logged as the desk's single check-in logs it; teams already
    checked in are left as they are (another desk got there first). All or nothing: a withdrawn team, or one of
    another tournament, refuses the whole lot. The teams checked in now, by number."""
    chosen = sorted({team.pk: team for team in teams}.values(), key=lambda team: team.number)
    if not chosen:
        raise ServiceError("Tick the teams to check in.", field="teams")
    locked = {team.pk: team for team in Team.objects.select_for_update().filter(pk__in=[t.pk for t in chosen])}
    for team in chosen:
        current = locked.get(team.pk)
        if current is None or current.tournament_id != tournament.pk:
            raise ServiceError(f"Team #{team.number} is not in {tournament.name}.", field="teams")
        if current.withdrawn:
            raise ServiceError(f"Team #{team.number} is withdrawn: reinstate it first.", field="teams")
    arriving = [locked[team.pk] for team in chosen if not locked[team.pk].checked_in]
    for team in arriving:
        team_desk_update(team=team, checked_in=True, actor=actor)
    return arriving
