"""Slowing down guesses of team codes, in the database every worker sees.

Two budgets, each of ``WRONG_CODES_ALLOWED`` wrong codes; spending one pauses whoever spent it for ``PAUSE``:

- an address's, for codes typed to open a team's page (``/my/``), where a code of any team of any
  tournament is a hit;
- a table's, for each address that types codes at it (signing, accepting a hand), where only the two
  codes of that table are hits. The pause falls on the address that guessed, never on the teams: the right
  team signs at once from its own phone;
- a prize's, for each address that types codes to confirm a team received its prize, bound the same way.

A correct code refills neither budget (an attacker holding one code cannot buy more guesses with it);
wrong codes are forgotten ``PAUSE`` after the last one. Staff see the pauses and lift one
(*Manage → Paused team codes*). The arithmetic of guessing is in docs/scorekeeping.md.
"""

import datetime
import ipaddress
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from tournament.errors import ServiceError
from tournament.models import LogEntry, Payout, Table, Team, Throttle
from tournament.services.log import Actor, log_write

security_log = logging.getLogger("tournament.security")

WRONG_CODES_ALLOWED = 5
PAUSE = datetime.timedelta(hours=72)
ADDRESS_PREFIX = "code-from:"
TABLE_PREFIX = "table-codes:"
PAYOUT_PREFIX = "payout-code:"


def guesser(address: str) -> str:
    """Whom a pause binds: the address, or for IPv6 its /64 network (one device's many addresses)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:45] or "unknown"
    if parsed.version == 6:
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def address_key(address: str) -> str:
    return f"{ADDRESS_PREFIX}{guesser(address)}"


def table_key(table: Table, address: str) -> str:
    return f"{TABLE_PREFIX}{table.pk}:{guesser(address)}"


def payout_key(payout: Payout, address: str) -> str:
    return f"{PAYOUT_PREFIX}{payout.team_id}:{guesser(address)}"


def throttle_check(key: str) -> None:
    """Refuse while ``key`` is paused after too many wrong codes."""
    throttle = Throttle.objects.filter(key=key, blocked_until__gt=timezone.now()).first()
    if throttle is not None and throttle.blocked_until is not None:
        remaining = throttle.blocked_until - timezone.now()
        hours = remaining.total_seconds() / 3600
        wait = f"{round(hours)} hours" if hours >= 2 else f"{max(1, round(hours * 60))} minutes"
        raise ServiceError(
            f"Too many wrong team codes from this phone: codes typed here are refused for {wait}. "
            "Ask the tournament director or scorekeeper, who can lift the pause.",
            field="code",
        )


def throttle_fail(key: str) -> None:
    """Spend one wrong code of ``key``'s budget; the last one pauses it. Runs in its own transaction so a
    refusal keeps it."""
    now = timezone.now()
    with transaction.atomic():
        throttle, _ = Throttle.objects.select_for_update().get_or_create(key=key)
        if throttle.failures and throttle.updated_at < now - PAUSE:
            throttle.failures = 0
        throttle.failures += 1
        if throttle.failures >= WRONG_CODES_ALLOWED:
            throttle.failures = 0
            throttle.blocked_until = now + PAUSE
        throttle.save()


def throttle_clear(key: str) -> None:
    """Forget ``key``'s wrong codes and lift its pause (staff only: a correct code never calls this)."""
    Throttle.objects.filter(key=key).delete()


@dataclass(frozen=True)
class CodePause:
    """A pause in force, as staff see it."""

    pk: int
    address: str
    table: Table | None
    until: datetime.datetime
    team: Team | None = None  # a prize's pause: confirming this team's prize

    @property
    def where(self) -> str:
        if self.team is not None:
            return f"{self.team.tournament.name}, confirming team #{self.team.number}'s prize"
        if self.table is None:
            return "opening team pages (/my/)"
        return f"{self.table.round.tournament.name}, round {self.table.round.number}, table {self.table.number}"


def _keyed(paused: list[Throttle], prefix: str) -> dict[int, tuple[int, str]]:
    """The pauses keyed ``prefix<pk>:<address>``: each throttle's record pk and address."""
    keyed = {}
    for throttle in paused:
        until = throttle.blocked_until
        assert until is not None, "only paused keys are listed"
        if throttle.key.startswith(prefix):
            pk, _, address = throttle.key.removeprefix(prefix).partition(":")
            if pk.isdecimal() and address:
                keyed[throttle.pk] = (int(pk), address)
    return keyed


def code_pauses() -> list[CodePause]:
    """Every pause in force, the latest ending first, each with its address and table or prize (if one's)."""
    paused = list(Throttle.objects.filter(blocked_until__gt=timezone.now()).order_by("-blocked_until"))
    table_of, team_of = _keyed(paused, TABLE_PREFIX), _keyed(paused, PAYOUT_PREFIX)
    tables = Table.objects.select_related("round__tournament").in_bulk([pk for pk, _ in table_of.values()])
    teams = Team.objects.select_related("tournament").in_bulk([pk for pk, _ in team_of.values()])
    pauses = []
    for throttle in paused:
        until = throttle.blocked_until
        assert until is not None, "only paused keys are listed"
        if throttle.pk in table_of:
            table_pk, address = table_of[throttle.pk]
            if table_pk in tables:
                pauses.append(CodePause(throttle.pk, address, tables[table_pk], until))
        elif throttle.pk in team_of:
            team_pk, address = team_of[throttle.pk]
            if team_pk in teams:
                pauses.append(CodePause(throttle.pk, address, None, until, teams[team_pk]))
        elif throttle.key.startswith(ADDRESS_PREFIX):
            address = throttle.key.removeprefix(ADDRESS_PREFIX)
            pauses.append(CodePause(throttle.pk, address, None, until))
    return pauses


def code_pause_lift(*, pause_id: int, actor: Actor) -> CodePause:
    """Staff lift a pause at once (a player who mistyped, a shared address): logged with who lifted it."""
    if not actor.is_staff:
        raise ServiceError("Only the tournament director or scorekeeper can lift a pause.")
    pause = next((pause for pause in code_pauses() if pause.pk == pause_id), None)
    if pause is None:
        raise ServiceError("That pause has ended or was lifted already.")
    Throttle.objects.filter(pk=pause.pk).delete()
    summary = f"{actor.name} lifted the pause on team codes from {pause.address}: {pause.where}"
    security_log.info(summary)
    if pause.table is not None:
        log_write(actor=actor, action=LogEntry.Action.CODE_PAUSE_LIFTED, summary=summary, table=pause.table)
    return pause
