"""Drawing a round into tables: random, manual, Swiss or movement, refused while earlier tables play."""

import re
import secrets
from typing import Any

from django.db import transaction

from scoring import Pair
from scoring.pairing import Entrant, movement_draw, random_draw, swiss_draw
from scoring.seeding import seeded_draw, strength_order
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round, Seating, SitOut, Table, Team, Tournament
from tournament.selectors.ratings import team_ratings
from tournament.selectors.standings import draw_history, ranked_entrants
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write
from tournament.wording import still_playing_words

MAX_TABLE_NUMBER = 999
_TEAM_NUMBER = re.compile(r"[0-9]+")


def draw_entrants(tournament: Tournament) -> list[Team]:
    """The teams a new round draws: checked in, not withdrawn, not sitting that round out."""
    sitting_out = SitOut.objects.filter(tournament=tournament, round_number=next_round_number(tournament))
    teams = tournament.teams.filter(checked_in=True, withdrawn=False).exclude(pk__in=sitting_out.values("team_id"))
    return list(teams.order_by("number"))


def next_round_number(tournament: Tournament) -> int:
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
        last = ordered.pop() if len(ordered) % 2 else None
        return [(ordered[i], ordered[i + 1]) for i in range(0, len(ordered), 2)], last
    tables: list[tuple[Team, Team]] = []
    bye: Team | None = None
    placed: dict[int, int] = {}
    for line_number, line in enumerate(text.splitlines(), start=1):
        tokens = _TEAM_NUMBER.findall(line)
        if any(len(token) > 6 for token in tokens):
            raise ServiceError(f"Line {line_number}: {max(tokens, key=len)[:12]}… is not a team number.", field="pairs")
        numbers = [int(token) for token in tokens]
        if not numbers:
            if line.strip():
                raise ServiceError(
                    f"Line {line_number}: “{line.strip()[:20]}” names no team; write one table per line as two team "
                    "numbers, such as 3 v 7.",
                    field="pairs",
                )
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


def still_playing_check(tournament: Tournament, number: int, doing: str, override: bool) -> str:
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


# What a director does to a draft, before any player sees it.
DRAFT_ACTIONS = frozenset({LogEntry.Action.ROUND_DRAWN, LogEntry.Action.DRAW_CHANGED, LogEntry.Action.DRAW_DISCARDED})


def draw_changed(round_: Round, actor: Actor | None, action: str, summary: str, **details: Any) -> None:
    """The round's draw changed (drawn, edited, published, unpublished, closed or discarded): logged as ``action``,
    and the pages that show it moved."""
    log_write(
        actor=actor_of(actor),
        action=action,
        summary=summary,
        tournament=round_.tournament,
        round_number=round_.number,
        **details,
    )
    changed(Changed.DRAFT if action in DRAFT_ACTIONS else Changed.DRAW, round_)


def draw_snapshot(round_: Round) -> dict:
    """A draw as table numbers and team numbers (North–South first), for the log: {"1": [3, 7], ..., "bye": 9}."""
    tables: dict[int, list[int]] = {}
    bye = None
    for table, team in round_.seatings.order_by("table__number", "-pair").values_list("table__number", "team__number"):
        if table is None:
            bye = team
        else:
            tables.setdefault(table, []).append(team)
    return snapshot_of(tables, bye)


def snapshot_of(tables: dict[int, list[int]], bye: int | None) -> dict:
    """``draw_snapshot``'s form of team numbers by table number: from a draw just made, with nothing read."""
    snapshot: dict = {str(number): teams for number, teams in tables.items()}
    if bye is not None:
        snapshot["bye"] = bye
    return snapshot


def rating_seeded_tables(teams: list[Team]) -> tuple[list[tuple[Team, Team]], Team | None]:
    """Round 1 by the players' ratings: the stronger half against the weaker half (teams without a rating
    last, by number). Refused while no team has a rating."""
    ratings = team_ratings(team.pk for team in teams)
    if not ratings:
        raise ServiceError(
            "No team has a rating yet (no signed round, or the ratings were never computed): recompute the "
            "ratings, or draw round 1 another way.",
            field="by_rating",
        )
    by_pk = {team.pk: team for team in teams}
    ordered = sorted(teams, key=lambda team: team.number)
    draw = seeded_draw(strength_order([team.pk for team in ordered], ratings))
    return [(by_pk[a], by_pk[b]) for a, b in draw.tables], by_pk[draw.bye] if draw.bye is not None else None


@transaction.atomic
def round_draw(
    *,
    tournament: Tournament,
    method: str,
    seed: int | None = None,
    pairs: str = "",
    actor: Actor | None = None,
    override_unsigned: bool = False,
    by_rating: bool = False,
) -> Round:
    """Draw the next qualifying round as a draft; a draft of that round is replaced.

    Refused while an earlier round has unsigned tables, unless ``override_unsigned`` (logged). ``by_rating``
    (round 1, Swiss only, the director's choice) seeds the field by the players' ratings instead.
    """
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    if tournament.playoff_published_at is not None:
        raise ServiceError("Qualifying is over: the playoff bracket is published.")
    number = next_round_number(tournament)
    if number > tournament.qualifying_rounds:
        raise ServiceError(f"All {tournament.qualifying_rounds} qualifying rounds are drawn.")
    previous = tournament.rounds.filter(number=number - 1).first()
    if previous is not None and previous.is_draft:
        raise ServiceError(f"Publish round {previous.number} before drawing round {number}.")
    teams = draw_entrants(tournament)
    if len(teams) < 2:
        raise ServiceError("Check in at least two teams before the draw.")
    override = still_playing_check(tournament, number, "drawn", override_unsigned)
    tournament.rounds.filter(number=number, status=Round.Status.DRAFT).delete()

    avoid_city = number <= tournament.avoid_same_city_rounds
    if by_rating and (number != 1 or method != Round.Method.SWISS):
        raise ServiceError("Seeding by rating is for round 1, drawn Swiss.", field="by_rating")
    if by_rating:
        tables, bye = rating_seeded_tables(teams)
        seed = None
    elif method == Round.Method.RANDOM:
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
    draw_changed(
        round_,
        actor,
        LogEntry.Action.ROUND_DRAWN,
        f"Round {number} drawn ({round_.get_method_display().lower()}{seed_text}"
        + (", seeded by rating" if by_rating else "")
        + f"): {len(tables)} tables"
        + (f", bye #{bye.number}" if bye is not None else "")
        + override,
        after=snapshot_of(
            {number: [a.number, b.number] for number, (a, b) in enumerate(tables, start=1)},
            bye.number if bye is not None else None,
        ),
    )
    return round_
