"""Absent teams and substitutes (the rules): a forfeit declared at a table, undone like any ruling; a team marked
sitting out a round before it is drawn; a substitute approved for one player of a team for one round."""

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import dateformat, timezone

from scoring import Absent, forfeit_allowed_from
from tournament.errors import ServiceError
from tournament.models import LogEntry, Player, Round, Seating, Signature, SitOut, Substitute, Table, Team
from tournament.selectors.teams import absent_twice
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, RequestUser, actor_of, log_write, team_log_write
from tournament.services.recompute import table_recompute
from tournament.services.sheets.write import Change, ChangeContext, sheet_write
from tournament.typed import text_checked


@dataclass
class Forfeited:
    """A forfeit as declared: its table, and the absent teams that have now forfeited twice or more (the
    director is offered their withdrawal)."""

    table: Table
    repeat_absentees: list[Team] = field(default_factory=list)


def _team_locked(team: Team) -> None:
    """Two desks marking the same team wait for each other: the second sees what the first did, and says so."""
    Team.objects.select_for_update().filter(pk=team.pk).first()


def _teams_at(table: Table) -> dict[str, Team]:
    return {seating.pair: seating.team for seating in table.seatings.select_related("team")}


def forfeit_opens_at(round_: Round) -> datetime | None:
    """When a team not at its table may be declared absent: ``forfeit_minutes`` after the round's clock started,
    or after the round was published without a clock; None while the round is not being played."""
    start = round_.clock_started_at or round_.published_at
    return forfeit_allowed_from(start, round_.tournament.rules.forfeit_minutes) if start else None


def _declared_early(round_: Round, early: bool, reason: str) -> bool:
    """Whether a forfeit is declared before ``forfeit_minutes``: then it stands only as the director's confirmed
    decision (``early``), with its reason (a team that told the desk it is not coming)."""
    opens_at = forfeit_opens_at(round_)
    if opens_at is None:
        raise ServiceError("The round is not being played: nobody can be absent from it yet.")
    if timezone.now() >= opens_at:
        return False
    minutes = round_.tournament.rules.forfeit_minutes
    since = "the clock started" if round_.clock_started_at else "the round was published"
    at = dateformat.format(timezone.localtime(opens_at), "g:i A")
    if not early:
        raise ServiceError(
            f"A team is declared absent {minutes} minutes after {since}: from {at}. To declare it now (the team "
            "said it is not coming), confirm the early forfeit and say why.",
            field="early",
        )
    if not reason.strip():
        raise ServiceError(f"Say why the forfeit is declared before {at}.", field="reason")
    return True


def table_forfeit_declare(
    *,
    table: Table,
    absent: str,
    early: bool = False,
    reason: str = "",
    user: RequestUser | None = None,
    actor: Actor | None = None,
) -> Forfeited:
    """Declare the team(s) not at their table absent: the present team scores the round as a bye, an absent
    team 0 points and a lost round. Refused on a signed sheet, a sheet with hands, and a playoff match (a
    playoff match is played, or decided by the director's ruling on its sheet); before ``forfeit_minutes``
    only when the director confirms it (``early``) with a reason."""
    actor = actor_of(actor, user)
    outcome = {}

    def edit(table: Table, correction: bool) -> Change:
        if absent not in Absent.values():
            raise ServiceError("Choose who is absent.", field="absent")
        who = Absent(absent)
        if table.round.kind != Round.Kind.QUALIFYING:
            raise ServiceError(
                "A playoff match is not forfeited: it is played, or the director decides it with a ruling on its sheet."
            )
        if table.forfeit:
            raise ServiceError(f"Table {table.number} is already a forfeit: undo it first to change it.")
        if table.signed:
            raise ServiceError(f"Table {table.number}'s sheet is signed: both teams played. Correct the sheet instead.")
        if table.hands.exists() or table.submissions.exists():
            raise ServiceError(f"Hands were entered at table {table.number}: both teams were there.")
        round_ = table.round
        declared_early = _declared_early(round_, early, reason)
        table.forfeit = who.value
        table.locked_at = timezone.now()
        table.save(update_fields=["forfeit", "locked_at"])
        table_recompute(table)
        teams = _teams_at(table)
        absentees = [teams[pair] for pair in who.absent_pairs]
        twice = absent_twice(round_.tournament)
        outcome["repeat"] = [team for team in absentees if team in twice]
        names = " and ".join(str(team) for team in absentees)
        present = teams[who.present_pair] if who.present_pair else None
        summary = f"{names} absent" + (f"; {present} scores the round as a bye" if present else "; both lose the round")
        if declared_early:
            minutes = round_.tournament.rules.forfeit_minutes
            summary += f" (declared before the {minutes} minutes, the director's decision)"
        after = {"forfeit": who.value} | ({"early": True} if declared_early else {})
        return Change(LogEntry.Action.FORFEIT, summary, after=after, voids_signatures=False)

    version = Table.objects.get(pk=table.pk).version
    sheet_write(
        table, context=ChangeContext(version=version, actor=actor, reason=reason.strip()), edit=edit, scored=False
    )
    table.refresh_from_db()
    return Forfeited(table, outcome.get("repeat", []))


def table_forfeit_undo(
    *, table: Table, reason: str = "", user: RequestUser | None = None, actor: Actor | None = None
) -> Table:
    """Take a forfeit back (the team was there after all): the sheet is open again, as before."""
    actor = actor_of(actor, user)

    def edit(table: Table, correction: bool) -> Change:
        if not table.forfeit:
            raise ServiceError(f"Table {table.number} is not a forfeit.")
        before = {"forfeit": table.forfeit}
        said = Absent(table.forfeit).label.lower()
        table.forfeit = ""
        table.locked_at = None
        table.save(update_fields=["forfeit", "locked_at"])
        table_recompute(table)
        return Change(LogEntry.Action.FORFEIT_UNDONE, f"Forfeit undone ({said})", before=before, voids_signatures=False)

    version = Table.objects.get(pk=table.pk).version
    sheet_write(table, context=ChangeContext(version=version, actor=actor, reason=reason), edit=edit, scored=False)
    table.refresh_from_db()
    return table


@transaction.atomic
def team_sit_out_set(
    *, team: Team, round_number: int, sits_out: bool = True, reason: str = "", actor: Actor | None = None
) -> Team:
    """Mark a team as sitting out a qualifying round before it is drawn (not drawn, no result), or take the mark
    back."""
    actor = actor_of(actor)
    reason = text_checked(reason, what="The reason", limit=200, field="reason")
    _team_locked(team)
    tournament = team.tournament
    if not 1 <= round_number <= tournament.qualifying_rounds:
        raise ServiceError(
            f"A team sits out one of the qualifying rounds 1 to {tournament.qualifying_rounds}; sitting out is not "
            "allowed in the playoff.",
            field="round_number",
        )
    if tournament.rounds.filter(number=round_number).exists():
        raise ServiceError(
            f"Round {round_number} is already drawn: a team that does not come is declared absent at its table "
            "(or the draft is discarded and drawn again after marking it).",
            field="round_number",
        )
    marked = SitOut.objects.filter(team=team, round_number=round_number)
    if sits_out == marked.exists():
        state = "already sits out" if sits_out else "does not sit out"
        raise ServiceError(f"{team} {state} round {round_number}.", field="round_number")
    if sits_out:
        SitOut.objects.create(tournament=tournament, team=team, round_number=round_number, reason=reason)
    else:
        marked.delete()
    says = f"{'sits out' if sits_out else 'plays again in'} round {round_number}"
    after = {"round": round_number, "sits_out": sits_out}
    team_log_write(team, actor, LogEntry.Action.SIT_OUT, says, reason=reason, after=after)
    changed(Changed.TEAM, team)
    return team


@transaction.atomic
def substitute_approve(
    *, team: Team, round: Round, replaces: Player, name: str, reason: str = "", actor: Actor | None = None
) -> Substitute:
    """Approve a substitute playing one round in place of one of the team's players; the other stays, so a team
    has one substitute a round at most. The results stay the team's; the team's other rounds are unchanged."""
    actor = actor_of(actor)
    name = text_checked(name, what="The substitute's name", limit=120, field="name")
    if not name:
        raise ServiceError("Give the substitute's name.", field="name")
    reason = text_checked(reason, what="The reason", limit=200, field="reason")
    if round.tournament_id != team.tournament_id:
        raise ServiceError(f"{team} does not play in this tournament's round.", field="team")
    _team_locked(team)
    if not team.memberships.filter(player=replaces).exists():
        raise ServiceError(f"{replaces.name} is not a player of {team}.", field="replaces")
    if Substitute.objects.filter(team=team, round=round).exists():
        raise ServiceError(
            f"{team} already plays {round.title.lower()} with a substitute: at least one of its own players stays.",
            field="replaces",
        )
    seating = Seating.objects.filter(team=team, round=round).select_related("table").first()
    if seating is None or seating.table is None:
        raise ServiceError(
            f"{team} has no table in {round.title.lower()}: a substitute plays at the team's table.", field="replaces"
        )
    if seating.table.signed:
        raise ServiceError(f"{team}'s sheet of {round.title.lower()} is signed: it was played as it stands.")
    if Signature.objects.filter(table=seating.table, player=replaces).exists():
        raise ServiceError(f"{replaces.name} has signed the sheet for {team}: they played the round.", field="replaces")
    if round.status == Round.Status.CLOSED:
        raise ServiceError(f"{round.title} is closed.")
    substitute = Substitute.objects.create(round=round, team=team, replaces=replaces, name=name, reason=reason)
    log_write(
        actor=actor,
        action=LogEntry.Action.SUBSTITUTE,
        summary=f"{team}, {round.title.lower()}: {name} plays for {replaces.name}",
        team=team,
        round_number=round.number,
        reason=reason,
        after={"round": round.number, "replaces": replaces.name, "name": name},
    )
    changed(Changed.TEAM, team)
    return substitute


@transaction.atomic
def substitute_remove(*, substitute: Substitute, actor: Actor | None = None) -> None:
    """Take back an approved substitute (the team's own player plays after all)."""
    actor = actor_of(actor)
    seating = Seating.objects.filter(team=substitute.team, round=substitute.round).select_related("table").first()
    if seating is not None and seating.table is not None and seating.table.signed:
        raise ServiceError("The sheet is signed: the substitute played that round.")
    if substitute.signatures.exists():
        raise ServiceError(f"{substitute.name} has signed the sheet for {substitute.team}: the substitute played.")
    log_write(
        actor=actor,
        action=LogEntry.Action.SUBSTITUTE_REMOVED,
        summary=f"{substitute.team}, {substitute.round.title.lower()}: {substitute.replaces.name} plays after all",
        team=substitute.team,
        round_number=substitute.round.number,
        before={"round": substitute.round.number, "replaces": substitute.replaces.name, "name": substitute.name},
    )
    substitute.delete()
    changed(Changed.TEAM, substitute.team)
