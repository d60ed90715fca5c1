"""Editing a draft draw: swaps, moves, who sits, and the warnings and problems the director sees."""

from django.db import transaction

from scoring import Pair
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round, Seating, Table, Team
from tournament.selectors.standings import draw_history
from tournament.services.draws.making import MAX_TABLE_NUMBER, draw_changed, draw_entrants, draw_snapshot
from tournament.services.log import Actor


def draft_locked(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament__event").get(pk=round_.pk)
    if not round_.is_draft:
        raise ServiceError(f"Round {round_.number} is published; its draw can no longer be changed.")
    return round_


def _drop_empty_tables(round_: Round) -> None:
    round_.tables.filter(seatings__isnull=True).delete()


@transaction.atomic
def draw_teams_swap(*, round: Round, team_a: Team, team_b: Team, actor: Actor | None = None) -> list[str]:
    """Swap two teams' places in a draft (either may hold the bye); returns the warnings the swap created
    (a rematch, two teams of one city)."""
    round_ = draft_locked(round)
    before = draw_snapshot(round_)
    warned = draw_warnings(round_)
    if team_a.pk == team_b.pk:
        raise ServiceError("Choose two different teams to swap.", field="team_b")
    seatings = {s.team_id: s for s in round_.seatings.filter(team__in=[team_a, team_b])}
    for field, team in (("team_a", team_a), ("team_b", team_b)):
        if team.pk not in seatings:
            raise ServiceError(f"{team} is not in the draw of round {round_.number}.", field=field)
    first, second = seatings[team_a.pk], seatings[team_b.pk]
    places = [(first.table_id, first.pair), (second.table_id, second.pair)]
    Seating.objects.filter(pk__in=[first.pk, second.pk]).delete()
    Seating.objects.bulk_create(
        [
            Seating(round=round_, team=team_a, table_id=places[1][0], pair=places[1][1]),
            Seating(round=round_, team=team_b, table_id=places[0][0], pair=places[0][1]),
        ]
    )
    draw_changed(
        round_,
        actor,
        LogEntry.Action.DRAW_CHANGED,
        f"Round {round_.number}: #{team_a.number} and #{team_b.number} swapped",
        before=before,
        after=draw_snapshot(round_),
    )
    return _new_warnings(round_, warned)


@transaction.atomic
def draw_team_move(*, round: Round, team: Team, table_number: int | None, actor: Actor | None = None) -> list[str]:
    """Move a team to a table with a free side, to a new table, or to the bye (None); returns the warnings
    the move created.

    A checked-in team left out of the draft (a late arrival) is placed the same way.
    """
    round_ = draft_locked(round)
    before = draw_snapshot(round_)
    warned = draw_warnings(round_)
    if team.tournament_id != round_.tournament_id or team.withdrawn:
        raise ServiceError(f"{team} cannot play in this round.", field="team")
    current = round_.seatings.filter(team=team).first()
    if table_number is None:
        if round_.seatings.filter(table__isnull=True).exclude(team=team).exists():
            raise ServiceError("Another team already has the bye: swap them instead.", field="table_number")
        target_table, pair = None, ""
    else:
        if not 1 <= table_number <= MAX_TABLE_NUMBER:
            raise ServiceError(f"Table numbers are 1 to {MAX_TABLE_NUMBER}.", field="table_number")
        target_table = round_.tables.filter(number=table_number).first()
        if target_table is None:
            target_table = Table.objects.create(round=round_, number=table_number)
        taken = set(target_table.seatings.exclude(team=team).values_list("pair", flat=True))
        free = [p for p in (Pair.NORTH_SOUTH, Pair.EAST_WEST) if p not in taken]
        if not free:
            raise ServiceError(f"Table {table_number} already has two teams: swap instead.", field="table_number")
        pair = free[0]
    if current is not None:
        current.delete()
    Seating.objects.create(round=round_, team=team, table=target_table, pair=pair)
    _drop_empty_tables(round_)
    where = f"table {table_number}" if table_number is not None else "the bye"
    draw_changed(
        round_,
        actor,
        LogEntry.Action.DRAW_CHANGED,
        f"Round {round_.number}: #{team.number} moved to {where}",
        team=team,
        before=before,
        after=draw_snapshot(round_),
    )
    return _new_warnings(round_, warned)


@transaction.atomic
def draw_sitting_toggle(*, table: Table, actor: Actor | None = None) -> Table:
    """Make the other team the sitting team (the one that keeps the score sheet)."""
    round_ = draft_locked(table.round)
    table.sitting_pair = Pair(table.sitting_pair).other
    table.save(update_fields=["sitting_pair"])
    draw_changed(
        round_,
        actor,
        LogEntry.Action.DRAW_CHANGED,
        f"Round {round_.number}, table {table.number}: {Pair(table.sitting_pair).label} keeps the score sheet",
    )
    return table


@transaction.atomic
def draw_discard(*, round: Round, actor: Actor | None = None) -> None:
    round_ = draft_locked(round)
    before = draw_snapshot(round_)
    round_.delete()
    draw_changed(
        round_, actor, LogEntry.Action.DRAW_DISCARDED, f"Draft of round {round_.number} discarded", before=before
    )


# What the draft's checks read of each seating, its team and its table (a draft of 512 teams is checked each time
# its page is shown).
_SEATING_READ = ("round", "pair", "team__number", "team__name", "team__city", "team__withdrawn", "table__number")


def draw_warnings(round_: Round) -> list[str]:
    """What a director may want to change in a draft, though it can be published: rematches, and two teams
    of one city at a table in the rounds where the tournament keeps cities apart."""
    tournament = round_.tournament
    met = draw_history(tournament, round_.number).met
    keep_apart = round_.number <= tournament.avoid_same_city_rounds
    warnings = []
    sides: dict[int, list[Seating]] = {}
    for seating in round_.seatings.filter(table__isnull=False).select_related("team", "table").only(*_SEATING_READ):
        if seating.table:
            sides.setdefault(seating.table.number, []).append(seating)
    for number, pair in sorted(sides.items()):
        if len(pair) != 2:
            continue
        first, second = (seating.team for seating in sorted(pair, key=lambda seating: seating.pair != Pair.NORTH_SOUTH))
        if frozenset((first.pk, second.pk)) in met:
            warnings.append(f"Table {number}: #{first.number} and #{second.number} have met already (a rematch).")
        if keep_apart and first.city and first.city.strip().lower() == second.city.strip().lower():
            warnings.append(
                f"Table {number}: #{first.number} and #{second.number} are both from {first.city}, in a round "
                "where teams of one city are kept apart."
            )
    return warnings


def _new_warnings(round_: Round, before: list[str]) -> list[str]:
    return [warning for warning in draw_warnings(round_) if warning not in before]


def draw_problems(round_: Round) -> list[str]:
    """What stops a draft from being published, in words for the director."""
    problems = []
    seatings = list(round_.seatings.select_related("team", "table").only(*_SEATING_READ))
    per_table: dict[int, list[Seating]] = {}
    for seating in seatings:
        if seating.table is not None:
            per_table.setdefault(seating.table.number, []).append(seating)
    for number, at_table in sorted(per_table.items()):
        if len(at_table) != 2:
            problems.append(f"Table {number} has one team.")
    byes = [seating for seating in seatings if seating.table_id is None]
    if len(byes) > 1:
        problems.append("Only one team can have the bye.")
    for seating in seatings:
        if seating.team.withdrawn:
            problems.append(f"{seating.team} has withdrawn: move another team in or redraw.")
    placed = {seating.team_id for seating in seatings}
    for team in draw_entrants(round_.tournament):
        if team.pk not in placed:
            problems.append(f"{team} is checked in but not in the draw.")
    return problems
