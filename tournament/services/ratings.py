"""Ratings recomputed from scratch over every signed round, in the order played (the rules: optional and
informational). The same records always give the same numbers: the engine is deterministic and the rounds
are read in a fixed order."""

from collections import defaultdict
from collections.abc import Sequence

from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from scoring import Pair
from scoring.rating import RatedMeeting, rate_history
from tournament.models import LogEntry, PersonRating, Player, Seating, TeamMember, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write

RATINGS_LOCK = 0x52415449  # "RATI": the PostgreSQL advisory lock one rating store holds at a time

RATINGS_FOLLOWED = "; ratings recomputed"  # said in the log entry of a change the ratings followed

ROUND_ORDER = (
    "round__tournament__event__starts_on",
    "round__tournament__created_at",
    "round__tournament_id",
    "round__number",
    "table_id",
)


def rated_seatings() -> QuerySet[Seating]:
    """The seatings a rating is made of: signed tables that were played (a forfeit is no game)."""
    return Seating.objects.filter(table__locked_at__isnull=False, table__forfeit="")


def signed_rounds() -> list[list[RatedMeeting]]:
    """Every signed table as a meeting of its players, grouped by round in the order played.

    A linked player is the key ("person", id); an unlinked one ("player", id), rated within its record only."""
    who: dict[int, list] = defaultdict(list)
    for team_id, player_id, person_id in TeamMember.objects.order_by("team_id", "position").values_list(
        "team_id", "player_id", "player__person_id"
    ):
        who[team_id].append(("person", person_id) if person_id else ("player", player_id))
    tables: dict[int, dict] = {}
    order: list[tuple[int, int]] = []
    rows = (
        rated_seatings()
        .order_by(*ROUND_ORDER, "pair")
        .values_list("round_id", "table_id", "pair", "team_id", "table__ns_total", "table__ew_total")
    )
    for round_id, table_id, pair, team_id, ns_total, ew_total in rows:
        if table_id not in tables:
            tables[table_id] = {"totals": (ns_total, ew_total)}
            order.append((round_id, table_id))
        tables[table_id][pair] = tuple(who[team_id])
    rounds: dict[int, list[RatedMeeting]] = {}
    for round_id, table_id in order:
        table = tables[table_id]
        ns, ew = table.get(Pair.NORTH_SOUTH), table.get(Pair.EAST_WEST)
        if not ns or not ew:
            continue
        ns_total, ew_total = table["totals"]
        score = 1 if ns_total > ew_total else 0 if ns_total < ew_total else 0.5
        rounds.setdefault(round_id, []).append(RatedMeeting(ns, ew, score))
    return list(rounds.values())


def _ratings_turn_taken() -> None:
    """One rating store at a time: each reads every link and replaces every rating, so a second one waiting
    reads the first's links once it has committed (SQLite's IMMEDIATE transactions already take turns)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


def ratings_store() -> int:
    """Every person's rating from scratch over the records as they are now linked, stored in place of the old
    ones, and said (the tournaments they rank move); returns how many persons are rated. The caller logs why (in
    its transaction)."""
    _ratings_turn_taken()
    ratings = rate_history(signed_rounds())
    now = timezone.now()
    PersonRating.objects.all().delete()
    stored = [
        PersonRating(
            person_id=key[1],
            rating=rating.rating,
            deviation=rating.deviation,
            volatility=rating.volatility,
            rounds=rating.rounds,
            computed_at=now,
        )
        for key, rating in sorted(ratings.items())
        if key[0] == "person"
    ]
    PersonRating.objects.bulk_create(stored)
    changed(Changed.RATINGS)
    return len(stored)


def ratings_follow_players(*, players: Sequence[Player]) -> bool:
    """After ``players`` were linked, unlinked or moved to another person: every rating made again when one of
    them played a signed round (their rounds changed hands, and so did their opponents' results against them),
    so the ratings are always the ones a full recompute gives. Says whether it did."""
    if not rated_seatings().filter(team__memberships__player__in=players).exists():
        return False
    ratings_store()
    return True


@transaction.atomic
def ratings_recompute(*, actor: Actor | None = None) -> int:
    """Every person's rating from scratch; returns how many persons are rated (persons without a signed round
    have none)."""
    rated = ratings_store()
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.RATINGS_RECOMPUTED,
        summary=f"Ratings recomputed from every signed round: {rated} person(s) rated",
    )
    return rated


def ratings_said(rated: int) -> str:
    """What a recompute did, in words; with no signed round of a linked player, nobody is rated."""
    if not rated:
        return "No person has played a signed round yet: nobody is rated (a rating comes only from signed rounds)."
    return f"Ratings recomputed from every signed round: {rated} person(s) rated."


@transaction.atomic
def tournament_rating_tie_break(*, tournament: Tournament, on: bool, actor: Actor | None = None) -> Tournament:
    """Use (or stop using) the players' ratings as the last standings criterion; never on by default."""
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    if tournament.rating_breaks_ties == on:
        return tournament
    tournament.rating_breaks_ties = on
    tournament.save(update_fields=["rating_breaks_ties"])
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.TOURNAMENT_CHANGED,
        summary=f"Ratings {'now break' if on else 'no longer break'} ties in the standings of {tournament.name}",
        tournament=tournament,
        before={"rating_breaks_ties": not on},
        after={"rating_breaks_ties": on},
    )
    changed(Changed.TOURNAMENT, tournament)
    return tournament
