"""Who did what: the actor every service is given, and the one function that writes the action log.

Logging only logs: what a change moves on the public pages is said by its writer (``services.changes``)."""

from dataclasses import dataclass
from typing import Any, TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User

from tournament.models import Event, LogEntry, Table, Team, Tournament
from tournament.roles import is_director, is_scorekeeper

# The request's user as views pass it (the old ``user=`` keyword of the services).
RequestUser: TypeAlias = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True)
class Actor:
    """Who is acting: a staff account, the table's private link, or a command run on the server."""

    kind: str
    user: object = None
    name: str = ""
    device: str = ""
    team_id: int | None = None
    address: str = ""

    @classmethod
    def staff(cls, user: AbstractBaseUser) -> "Actor":
        return cls(LogEntry.Actor.STAFF, user, user.get_username())

    @classmethod
    def command(cls, name: str = "") -> "Actor":
        return cls(LogEntry.Actor.COMMAND, None, name)

    @classmethod
    def table_link(cls, device: str = "", address: str = "") -> "Actor":
        """The table's private link on a phone: its device mark (for the log) and its network address
        (whom a pause on wrong team codes binds)."""
        return cls(LogEntry.Actor.TABLE, None, "", device, address=address)

    @classmethod
    def team(cls, team: Team, device: str = "") -> "Actor":
        """A team acting on its own phone, having shown its code."""
        return cls(LogEntry.Actor.TEAM, None, f"team #{team.number}", device, team.pk)

    @property
    def is_staff(self) -> bool:
        """Tournament scorekeepers and directors: the people who may correct a signed sheet."""
        return self.user is not None and is_scorekeeper(self.user)

    @property
    def is_director(self) -> bool:
        return self.user is not None and is_director(self.user)

    @property
    def account(self) -> User | None:
        """The staff account to store as a record's author, if any."""
        return self.user if self.kind == LogEntry.Actor.STAFF and isinstance(self.user, User) else None


TABLE_LINK = Actor(LogEntry.Actor.TABLE)
SCRIPT = Actor.command()


def actor_of(actor: Actor | None = None, user: RequestUser | None = None, *, default: Actor = SCRIPT) -> Actor:
    """The actor of a service call: given outright, or a logged-in ``user`` (staff), else ``default``.

    Views pass the request's user; the table link has no account, and commands pass their own actor.
    """
    if actor is not None:
        return actor
    if isinstance(user, AbstractBaseUser) and user.is_authenticated:
        return Actor.staff(user)
    return default


def log_write(
    *,
    actor: Actor,
    action: str,
    summary: str,
    event: Event | None = None,
    tournament: Tournament | None = None,
    table: Table | None = None,
    team: Team | None = None,
    round_number: int | None = None,
    before: Any = None,
    after: Any = None,
    reason: str = "",
    correction: bool = False,
) -> LogEntry:
    """One entry of the log; the event, tournament and round are taken from the most precise record given."""
    if table is not None:
        tournament = tournament or table.round.tournament
        round_number = table.round.number
    if team is not None:
        tournament = tournament or team.tournament
    if tournament is not None:
        event = event or tournament.event
    return LogEntry.objects.create(
        event=event,
        tournament=tournament,
        round_number=round_number,
        table=table,
        table_number=table.number if table is not None else None,
        version=table.version if table is not None else None,
        team=team,
        action=action,
        summary=summary[:300],
        reason=reason.strip(),
        before=before,
        after=after,
        correction=correction,
        actor=actor.kind,
        actor_name=actor.name,
        device=actor.device[:100],
    )


def team_log_write(team: Team, actor: Actor | None, action: str, says: str, **details: Any) -> LogEntry:
    """An entry about one team, said after its number and name ("Team #3 Aces" ``says``); ``details`` are as
    for ``log_write``."""
    return log_write(actor=actor_of(actor), action=action, summary=f"Team {team} {says}", team=team, **details)
