"""What a team does for itself on its own page, opened with its code: "we're here" (checks the team in; the desk
sees who checked themselves in) and "withdraw after this round" (a request the director confirms at the desk)."""

from django.db import transaction
from django.utils import timezone

from tournament.errors import ServiceError
from tournament.models import LogEntry, Team
from tournament.selectors.placings import team_finish
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, log_write


def _team_still_playing(team: Team, *, withdrawn: str) -> Team:
    """The team, locked, if it still has something to tell the desk: not withdrawn (``withdrawn`` says why not)
    and its part in the tournament not over (a page opened before the end)."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    if team.withdrawn:
        raise ServiceError(withdrawn)
    if team_finish(team) is not None:
        raise ServiceError("Your team's part in the tournament is over: there is nothing more to tell the desk.")
    return team


@transaction.atomic
def team_self_check_in(*, team: Team, actor: Actor) -> Team:
    team = _team_still_playing(team, withdrawn="Your team has withdrawn: see the desk to play again.")
    if team.checked_in:
        raise ServiceError("Your team is already checked in.")
    team.checked_in = True
    team.self_checked_in_at = timezone.now()
    team.save(update_fields=["checked_in", "self_checked_in_at"])
    log_write(actor=actor, action=LogEntry.Action.SELF_CHECK_IN, summary=f"{team}: checked in on its page", team=team)
    changed(Changed.TEAM, team)
    return team


@transaction.atomic
def team_withdraw_request(*, team: Team, actor: Actor) -> Team:
    team = _team_still_playing(team, withdrawn="Your team has already withdrawn.")
    if team.withdraw_requested_at is not None:
        raise ServiceError("Your team has already asked to withdraw: the director confirms it at the desk.")
    team.withdraw_requested_at = timezone.now()
    team.save(update_fields=["withdraw_requested_at"])
    log_write(
        actor=actor,
        action=LogEntry.Action.WITHDRAW_REQUESTED,
        summary=f"{team}: asks to withdraw after this round",
        team=team,
    )
    return team
