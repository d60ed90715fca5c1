"""Team codes: handed out at check-in, they sign the team's sheets and open the team's own page."""

from collections.abc import Set as AbstractSet

from django.db import transaction

from tournament.errors import ServiceError
from tournament.models import LogEntry, Team, new_team_code, team_code_typed
from tournament.services.log import Actor, team_log_write
from tournament.services.throttle import address_key, throttle_check, throttle_fail


def unused_team_code() -> str:
    code = new_team_code()
    while Team.objects.filter(code=code).exists():
        code = new_team_code()
    return code


def unused_team_codes(count: int, *, avoid: AbstractSet[str] = frozenset()) -> list[str]:
    """``count`` different new codes that no team holds and ``avoid`` does not name, in a query or two."""
    codes: set[str] = set()
    while len(codes) < count:
        wanted = {new_team_code() for _ in range(count - len(codes))} - avoid - codes
        codes |= wanted - set(Team.objects.filter(code__in=wanted).values_list("code", flat=True))
    return sorted(codes)


@transaction.atomic
def team_code_renew(*, team: Team, actor: Actor | None = None) -> Team:
    """Give the team a new code: the old one stops signing and stops opening the team's page."""
    team = Team.objects.select_for_update().select_related("tournament__event").get(pk=team.pk)
    team.code = unused_team_code()
    team.save(update_fields=["code"])
    team_log_write(team, actor, LogEntry.Action.CODE_ISSUED, "was given a new code; the old one no longer works")
    return team


def team_code_open(*, code: str, address: str) -> Team:
    """The team a code belongs to, for its page; wrong codes from one address spend its budget (a right one
    never refills it)."""
    key = address_key(address)
    throttle_check(key)
    team = Team.objects.select_related("tournament__event").filter(code=team_code_typed(code)).first()
    if team is None:
        throttle_fail(key)
        raise ServiceError("That is not a team code: check the slip you were given at check-in.", field="code")
    return team
