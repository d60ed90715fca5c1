"""Who did what: the actor every service is given, and the one function that writes the action log."""

from dataclasses import dataclass

from django.db.models import F

from tournament.models import Event, LogEntry, Round, Table, Team, Tournament
from tournament.roles import is_director, is_scorekeeper
from tournament.services.standings import standings_after_change


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
    def staff(cls, user) -> "Actor":
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
    def team(cls, team, device: str = "") -> "Actor":
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
    def account(self):
        """The staff account to store as a record's author, if any."""
        return self.user if self.kind == LogEntry.Actor.STAFF else None


TABLE_LINK = Actor(LogEntry.Actor.TABLE)
SCRIPT = Actor.command()


def actor_of(actor: Actor | None = None, user=None, *, default: Actor = SCRIPT) -> Actor:
    """The actor of a service call: given outright, or a logged-in ``user`` (staff), else ``default``.

    Views pass the request's user; the table link has no account, and commands pass their own actor.
    """
    if actor is not None:
        return actor
    if user is not None and getattr(user, "is_authenticated", False):
        return Actor.staff(user)
    return default


UNSEEN_ACTIONS = {LogEntry.Action.WRONG_CODE, LogEntry.Action.CODE_ISSUED, LogEntry.Action.CODE_PAUSE_LIFTED}
# Money is staff-only: no public page shows it, so recording it leaves their cached renderings alone.
UNSEEN_ACTIONS |= {
    LogEntry.Action.MONEY_SETTINGS,
    LogEntry.Action.PAYMENT,
    LogEntry.Action.REFUND,
    LogEntry.Action.PAYOUT,
    LogEntry.Action.PAYOUT_CONFIRMED,
}


# What a table's sheet records before both teams sign it: the tables page and the table's teams show it, the
# standings (signed sheets only) do not.
SHEET_ACTIONS = {
    LogEntry.Action.FIRST_DEALER,
    LogEntry.Action.HAND_ADDED,
    LogEntry.Action.REDEAL_ADDED,
    LogEntry.Action.HAND_CHANGED,
    LogEntry.Action.HAND_REMOVED,
    LogEntry.Action.PENALTY_ADDED,
    LogEntry.Action.PENALTY_REMOVED,
    LogEntry.Action.DISPUTED,
    LogEntry.Action.DISPUTE_RESOLVED,
    LogEntry.Action.HAND_ACCEPTED,
    LogEntry.Action.HAND_SUBMITTED,
    LogEntry.Action.ENTRIES_DIFFER,
    LogEntry.Action.ENTRIES_SETTLED,
}


def changes_results(action: str, table: Table | None, correction: bool = False) -> bool:
    """Whether a logged change can change the standings, placings or bracket: anything but an entry on a
    qualifying sheet nobody has signed (a signed sheet's entries are corrections, and count at once; the bracket
    shows a playoff match's score as it is entered)."""
    if correction or action not in SHEET_ACTIONS or table is None:
        return True
    return table.locked_at is not None or table.round.kind != Round.Kind.QUALIFYING


def results_bump(*, event: Event | None, tournament: Tournament | None, results: bool = True) -> None:
    """A logged change may change what the public pages show: their cached renderings are dropped (a new
    version) for the tournament, or for every tournament of the event when no tournament is named. It moves the
    live version (tables, projector) and, with ``results``, the results version (standings, placings, bracket,
    team pages); an entry on an unsigned sheet moves neither, only the sheet's own version."""
    bumps = {"live_version": F("live_version") + 1}
    if results:
        bumps["results_version"] = F("results_version") + 1
    if tournament is not None:
        Tournament.objects.filter(pk=tournament.pk).update(**bumps)
    elif event is not None:
        Tournament.objects.filter(event=event).update(**bumps)


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
    before=None,
    after=None,
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
    # An entry on a sheet nobody has signed moved that sheet's own version (``sheet_write``), which the live pages'
    # version counts: the tournament's row, which every save would otherwise queue on, is left alone.
    if action not in UNSEEN_ACTIONS and changes_results(action, table, correction):
        results_bump(event=event, tournament=tournament)
        # After the bump: on PostgreSQL its row lock orders the changes of a tournament, so the tallies are read
        # with every earlier change committed.
        standings_after_change(event=event, tournament=tournament, table=table, team=team)
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


def team_log_write(team: Team, actor: Actor | None, action: str, says: str, **details) -> LogEntry:
    """An entry about one team, said after its number and name ("Team #3 Aces" ``says``); ``details`` are as
    for ``log_write``."""
    return log_write(actor=actor_of(actor), action=action, summary=f"Team {team} {says}", team=team, **details)
