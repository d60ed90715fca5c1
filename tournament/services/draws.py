"""Drawing a round into tables, editing the draft, and publishing it."""

import re
import secrets

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import Pair
from scoring.pairing import Entrant, movement_draw, random_draw, swiss_draw
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round, Seating, Table, Team, Tournament
from tournament.selectors.standings import draw_history, ranked_entrants
from tournament.services.log import Actor, actor_of, log_write
from tournament.wording import in_words, tables_phrase

MAX_TABLE_NUMBER = 999
_TEAM_NUMBER = re.compile(r"[0-9]+")


def _entrants(tournament: Tournament) -> list[Team]:
    return list(tournament.teams.filter(checked_in=True, withdrawn=False).order_by("number"))


def _next_round_number(tournament: Tournament) -> int:
    latest = tournament.rounds.filter(kind=Round.Kind.QUALIFYING).order_by("-number").first()
    if latest is None:
        return 1
    if latest.is_draft:
        return latest.number
    return latest.number + 1


def _parse_manual(text: str, teams: list[Team]) -> tuple[list[tuple[Team, Team]], Team | None]:
    """Read one table per line ("3 v 7", "3-7" or "3 7"); a line with one number is the bye."""
    by_number = {team.number: team for team in teams}
    if not text.strip():
        ordered = list(teams)
        bye = ordered.pop() if len(ordered) % 2 else None
        return [(ordered[i], ordered[i + 1]) for i in range(0, len(ordered), 2)], bye
    tables, bye, placed = [], None, {}
    for line_number, line in enumerate(text.splitlines(), start=1):
        tokens = _TEAM_NUMBER.findall(line)
        if any(len(token) > 6 for token in tokens):
            raise ServiceError(f"Line {line_number}: {max(tokens, key=len)[:12]}… is not a team number.", field="pairs")
        numbers = [int(token) for token in tokens]
        if not numbers:
            continue
        if len(numbers) > 2:
            raise ServiceError(f"Line {line_number}: a table is two teams.", field="pairs")
        for number in numbers:
            if number not in by_number:
                raise ServiceError(
                    f"Line {line_number}: team {number} is not a checked-in team of this tournament.",
                    field="pairs",
                )
            if number in placed:
                raise ServiceError(
                    f"Line {line_number}: team {number} is already placed on line {placed[number]}.",
                    field="pairs",
                )
            placed[number] = line_number
        if len(numbers) == 1:
            if bye is not None:
                raise ServiceError(f"Line {line_number}: only one team can have the bye.", field="pairs")
            bye = by_number[numbers[0]]
        else:
            tables.append((by_number[numbers[0]], by_number[numbers[1]]))
    missing = [str(number) for number in by_number if number not in placed]
    if missing:
        raise ServiceError(f"Every checked-in team needs a place; missing: {', '.join(missing)}.", field="pairs")
    return tables, bye


def tables_still_playing(tournament: Tournament, number: int) -> list[Table]:
    """The unsigned tables of the tournament's published rounds before round ``number``."""
    return list(
        Table.objects.filter(
            round__tournament=tournament,
            round__status=Round.Status.PUBLISHED,
            round__number__lt=number,
            locked_at__isnull=True,
        )
        .select_related("round")
        .order_by("round__number", "number")
    )


def still_playing_words(tables: list[Table]) -> str:
    """ "round 1 tables 5, 6 and 7" (and "round 2 table 3")."""
    by_round: dict[int, list[int]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(table.number)
    return in_words(f"round {number} {tables_phrase(numbers)}" for number, numbers in by_round.items())


def _still_playing_check(tournament: Tournament, number: int, doing: str, override: bool) -> str:
    """Refuse to draw or publish a round over earlier tables still playing, unless the director overrides;
    the override is said in the log's words (returned)."""
    tables = tables_still_playing(tournament, number)
    if not tables:
        return ""
    words = still_playing_words(tables)
    verb = "has" if len(tables) == 1 else "have"
    if not override:
        raise ServiceError(
            f"Round {number} cannot be {doing} yet: {words} {verb} not signed, and the draw would miss their "
            "results. Wait for those sheets, or override (the override is logged).",
            field="override_unsigned",
        )
    return f"; {doing} while {words} {verb} not signed (director's override)"


def _log_round(round_: Round, actor: Actor | None, action: str, summary: str, **details) -> None:
    log_write(
        actor=actor_of(actor),
        action=action,
        summary=summary,
        tournament=round_.tournament,
        round_number=round_.number,
        **details,
    )


def _draw_snapshot(round_: Round) -> dict:
    """A draw as table numbers and team numbers, for the log: {"1": [3, 7], ..., "bye": 9}."""
    snapshot: dict = {}
    for seating in round_.seatings.select_related("team", "table").order_by("table__number", "pair"):
        if seating.table_id is None:
            snapshot["bye"] = seating.team.number
        else:
            snapshot.setdefault(str(seating.table.number), []).append(seating.team.number)
    return snapshot


@transaction.atomic
def round_draw(
    *,
    tournament: Tournament,
    method: str,
    seed: int | None = None,
    pairs: str = "",
    actor: Actor | None = None,
    override_unsigned: bool = False,
) -> Round:
    """Draw the next qualifying round as a draft; a draft of that round is replaced.

    Refused while an earlier round has unsigned tables, unless ``override_unsigned`` (logged).
    """
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    if tournament.playoff_published_at is not None:
        raise ServiceError("Qualifying is over: the playoff bracket is published.")
    number = _next_round_number(tournament)
    if number > tournament.qualifying_rounds:
        raise ServiceError(f"All {tournament.qualifying_rounds} qualifying rounds are drawn.")
    previous = tournament.rounds.filter(number=number - 1).first()
    if previous is not None and previous.is_draft:
        raise ServiceError(f"Publish round {previous.number} before drawing round {number}.")
    teams = _entrants(tournament)
    if len(teams) < 2:
        raise ServiceError("Check in at least two teams before the draw.")
    override = _still_playing_check(tournament, number, "drawn", override_unsigned)
    tournament.rounds.filter(number=number, status=Round.Status.DRAFT).delete()

    avoid_city = number <= tournament.avoid_same_city_rounds
    if method == Round.Method.RANDOM:
        seed = secrets.randbelow(10**9) if seed is None else seed
        by_number = {team.number: team for team in teams}
        draw = random_draw([Entrant(team.number, team.city) for team in teams], seed, avoid_same_city=avoid_city)
        tables = [(by_number[a], by_number[b]) for a, b in draw.tables]
        bye = by_number[draw.bye] if draw.bye is not None else None
    elif method in (Round.Method.SWISS, Round.Method.MOVEMENT):
        history = draw_history(tournament, number)
        ranked = ranked_entrants(tournament, teams)
        if method == Round.Method.SWISS:
            draw = swiss_draw(ranked, history.met, history.had_bye, avoid_same_city=avoid_city)
        else:
            if not history.previous:
                raise ServiceError(
                    "A movement starts from a round already played: draw round 1 another way.", field="method"
                )
            draw = movement_draw(history.previous, ranked, history.met, history.had_bye)
        by_pk = {team.pk: team for team in teams}
        tables = [(by_pk[a], by_pk[b]) for a, b in draw.tables]
        bye = by_pk[draw.bye] if draw.bye is not None else None
        seed = None
    elif method == Round.Method.MANUAL:
        tables, bye = _parse_manual(pairs, teams)
        seed = None
    else:
        raise ServiceError(f"{method!r} is not a draw method for this round.", field="method")

    round_ = Round.objects.create(tournament=tournament, number=number, method=method, seed=seed)
    created = Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, len(tables) + 1))
    seatings = [
        Seating(round=round_, team=team, table=table, pair=pair)
        for table, teams in zip(created, tables, strict=True)
        for team, pair in zip(teams, (Pair.NORTH_SOUTH, Pair.EAST_WEST), strict=True)
    ]
    if bye is not None:
        seatings.append(Seating(round=round_, team=bye))
    Seating.objects.bulk_create(seatings)
    seed_text = f" with seed {seed}" if seed is not None else ""
    _log_round(
        round_,
        actor,
        LogEntry.Action.ROUND_DRAWN,
        f"Round {number} drawn ({round_.get_method_display().lower()}{seed_text}): {len(tables)} tables"
        + (f", bye #{bye.number}" if bye is not None else "")
        + override,
        after=_draw_snapshot(round_),
    )
    return round_


def _locked_draft(round_: Round) -> Round:
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
    round_ = _locked_draft(round)
    before = _draw_snapshot(round_)
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
    _log_round(
        round_,
        actor,
        LogEntry.Action.DRAW_CHANGED,
        f"Round {round_.number}: #{team_a.number} and #{team_b.number} swapped",
        before=before,
        after=_draw_snapshot(round_),
    )
    return _new_warnings(round_, warned)


@transaction.atomic
def draw_team_move(*, round: Round, team: Team, table_number: int | None, actor: Actor | None = None) -> list[str]:
    """Move a team to a table with a free side, to a new table, or to the bye (None); returns the warnings
    the move created.

    A checked-in team left out of the draft (a late arrival) is placed the same way.
    """
    round_ = _locked_draft(round)
    before = _draw_snapshot(round_)
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
    _log_round(
        round_,
        actor,
        LogEntry.Action.DRAW_CHANGED,
        f"Round {round_.number}: #{team.number} moved to {where}",
        team=team,
        before=before,
        after=_draw_snapshot(round_),
    )
    return _new_warnings(round_, warned)


@transaction.atomic
def draw_sitting_toggle(*, table: Table, actor: Actor | None = None) -> Table:
    """Make the other team the sitting team (the one that keeps the sheet)."""
    round_ = _locked_draft(table.round)
    table.sitting_pair = Pair(table.sitting_pair).other
    table.save(update_fields=["sitting_pair"])
    _log_round(
        round_,
        actor,
        LogEntry.Action.DRAW_CHANGED,
        f"Round {round_.number}, table {table.number}: {Pair(table.sitting_pair).label} sit and keep the sheet",
    )
    return table


@transaction.atomic
def draw_discard(*, round: Round, actor: Actor | None = None) -> None:
    round_ = _locked_draft(round)
    _log_round(
        round_,
        actor,
        LogEntry.Action.DRAW_DISCARDED,
        f"Draft of round {round_.number} discarded",
        before=_draw_snapshot(round_),
    )
    round_.delete()


def draw_warnings(round_: Round) -> list[str]:
    """What a director may want to change in a draft, though it can be published: rematches, and two teams
    of one city at a table in the rounds where the tournament keeps cities apart."""
    tournament = round_.tournament
    met = draw_history(tournament, round_.number).met
    keep_apart = round_.number <= tournament.avoid_same_city_rounds
    warnings = []
    sides: dict[int, list[Seating]] = {}
    for seating in round_.seatings.filter(table__isnull=False).select_related("team", "table"):
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
    seatings = list(round_.seatings.select_related("team", "table"))
    per_table: dict[int, list[Seating]] = {}
    for seating in seatings:
        if seating.table_id is not None:
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
    for team in _entrants(round_.tournament):
        if team.pk not in placed:
            problems.append(f"{team} is checked in but not in the draw.")
    return problems


@transaction.atomic
def round_publish(*, round: Round, actor: Actor | None = None, override_unsigned: bool = False) -> Round:
    """Publish a draft: its tables' links start to work and the draw is fixed.

    Refused while an earlier round has unsigned tables, unless ``override_unsigned`` (logged).
    """
    round_ = _locked_draft(round)
    problems = draw_problems(round_)
    if problems:
        raise ServiceError("The draw cannot be published yet: " + " ".join(problems))
    override = _still_playing_check(round_.tournament, round_.number, "published", override_unsigned)
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    tournament = round_.tournament
    if tournament.status == Tournament.Status.SETUP:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    summary = f"Round {round_.number} published: the table links work{override}"
    _log_round(round_, actor, LogEntry.Action.ROUND_PUBLISHED, summary)
    return round_


@transaction.atomic
def round_unpublish(*, round: Round, actor: Actor | None = None) -> Round:
    """Take back a published round no hand has been entered in: it is a draft again and its links stop
    working. A round with hands is corrected, never taken back."""
    round_ = Round.objects.select_for_update().select_related("tournament__event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED or round_.kind != Round.Kind.QUALIFYING:
        raise ServiceError(f"Only a published qualifying round can be unpublished; round {round_.number} is not one.")
    entered = Q(hands__isnull=False) | Q(penalties__isnull=False) | Q(submissions__isnull=False)
    played = sorted(set(round_.tables.filter(entered).values_list("number", flat=True)))
    if played:
        raise ServiceError(
            f"Round {round_.number} cannot be unpublished: {tables_phrase(played)} "
            f"{'has' if len(played) == 1 else 'have'} entered hands. Correct the sheets instead."
        )
    later = round_.tournament.rounds.filter(number__gt=round_.number).order_by("number").first()
    if later is not None:
        raise ServiceError(f"Round {round_.number} cannot be unpublished: round {later.number} is drawn after it.")
    round_.status = Round.Status.DRAFT
    round_.published_at = None
    round_.save(update_fields=["status", "published_at"])
    round_.tables.update(first_dealer="", next_dealer="", disputed_at=None, dispute_note="")
    _log_round(
        round_,
        actor,
        LogEntry.Action.ROUND_UNPUBLISHED,
        f"Round {round_.number} unpublished: a draft again, its table links no longer open",
    )
    return round_


@transaction.atomic
def round_close(*, round: Round, actor: Actor | None = None) -> Round:
    """Close a round whose every sheet is signed: from now on only staff corrections change it."""
    round_ = Round.objects.select_for_update().select_related("tournament__event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise ServiceError(f"Only a published round can be closed; round {round_.number} is {round_.status}.")
    unsigned = list(round_.tables.filter(locked_at__isnull=True).order_by("number").values_list("number", flat=True))
    if unsigned:
        verb = "has" if len(unsigned) == 1 else "have"
        raise ServiceError(f"Round {round_.number} cannot close: {tables_phrase(unsigned)} {verb} not signed.")
    round_.status = Round.Status.CLOSED
    round_.save(update_fields=["status"])
    _log_round(round_, actor, LogEntry.Action.ROUND_CLOSED, f"Round {round_.number} closed")
    return round_
