"""Rounds and their tables: the draw, the live view, and every sheet of a round for printing."""

from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from tournament.models import (
    Hand,
    HandSubmission,
    LogEntry,
    Penalty,
    Round,
    Seating,
    Signature,
    SitOut,
    Table,
    Team,
    Tournament,
)
from tournament.selectors.prefetch import members, penalties, seatings
from tournament.selectors.standings import credits_attach
from tournament.selectors.teams import teams_with_players

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(table_count=Count("tables")).order_by("number")


def round_get(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament__event"), tournament=tournament, number=number)


def round_tables(round_: Round) -> list[Table]:
    """The round's tables with their teams, each with what a forfeit won there is credited."""
    tables = list(round_.tables.prefetch_related(seatings()).order_by("number"))
    credits_attach(round_.tournament, tables=tables)
    return tables


def round_byes(round_: Round) -> list[Seating]:
    """The round's byes, each with the points it is credited."""
    found = round_.seatings.filter(table__isnull=True).select_related("team")
    byes = list(found.prefetch_related(members("team__memberships")))
    credits_attach(round_.tournament, byes=byes)
    return byes


def rounds_sitting_out(tournament: Tournament, numbers: list[int]) -> dict[int, list[Team]]:
    """The teams marked as sitting out each of these rounds, by round number, in team order (two queries)."""
    sitting_out: dict[int, list[Team]] = {}
    for sit_out in (
        SitOut.objects.filter(tournament=tournament, round_number__in=numbers)
        .select_related("team")
        .prefetch_related(members("team__memberships"))
        .order_by("round_number", "team__number")
    ):
        sitting_out.setdefault(sit_out.round_number, []).append(sit_out.team)
    return sitting_out


def round_unplaced_teams(round_: Round) -> list[Team]:
    """Checked-in teams a draft leaves out (a late arrival), for the director to place."""
    teams = teams_with_players(round_.tournament).filter(checked_in=True, withdrawn=False)
    return list(teams.exclude(seatings__round=round_).exclude(sit_outs__round_number=round_.number))


def round_live_tables(round_: Round, *, quiet_minutes: int = 15) -> list[Table]:
    """Each table of a round with how far its sheet has got, for the live view (fixed queries).

    Besides the counts: the signatures by team, hands still waiting for the other team's acceptance, the
    teams' own entries waiting to agree (blind double entry), and ``quiet_for``: the minutes since the last
    entry at a table still playing, once past ``quiet_minutes`` (else 0).
    """
    tables: list[Table] = list(
        round_.tables.select_related("playoff_match")
        .annotate(
            penalty_count=Count("penalties", distinct=True),
            unaccepted=Count("hands", filter=Q(hands__accepted_at__isnull=True), distinct=True),
            last_change=Max("changes__created_at"),
        )
        .prefetch_related(
            seatings(),
            Prefetch("signatures", queryset=Signature.objects.order_by("pair")),
            Prefetch("submissions", queryset=HandSubmission.objects.order_by("sequence", "pair")),
        )
        .order_by("number")
    )
    credits_attach(round_.tournament, tables=tables)
    now = timezone.now()
    for table in tables:
        since = table.last_change or round_.published_at  # type: ignore[attr-defined]  # annotated above
        playing = not table.complete and not table.signed
        minutes = int((now - since).total_seconds() // 60) if since is not None and playing else 0
        table.quiet_for = minutes if minutes >= quiet_minutes else 0  # type: ignore[attr-defined]  # for the page
    return tables


def rounds_in_play() -> QuerySet[Round]:
    """Published rounds of tournaments still going, newest first: where the staff watch and fix sheets."""
    return (
        Round.objects.filter(status=Round.Status.PUBLISHED)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament__event")
        .order_by("-published_at")
    )


def round_current(tournament: Tournament) -> Round | None:
    """The latest round players can see: published or closed, never a draft."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def round_is_live(round_: Round | None) -> bool:
    return (
        round_ is not None
        and round_.status == Round.Status.PUBLISHED
        and round_.tables.filter(locked_at__isnull=True).exists()
    )


def draw_matches(
    tables: list[Table], byes: list[Seating], query: str, substitutes: dict | None = None
) -> tuple[list[Table], list[Seating]]:
    """Tables and byes whose team name, number or a player's name contains the search words; a substitute
    playing the round (``substitutes`` from ``round_substitutes``) finds their table by their name too."""
    words = query.casefold().split()
    if not words:
        return tables, byes
    playing_for = {team_id: substitute.name for (team_id, _), substitute in (substitutes or {}).items()}

    def team_matches(team: Team) -> bool:
        names = [str(team.number), team.display_name, team.player_names, team.city, playing_for.get(team.pk, "")]
        haystack = " ".join(names).casefold()
        return all(word in haystack for word in words)

    found_tables = [table for table in tables if any(team_matches(s.team) for s in table.seatings.all())]
    found_byes = [bye for bye in byes if team_matches(bye.team)]
    return found_tables, found_byes


class SheetRecords(TypedDict):
    """What a printed sheet reads beside the table's own records: the round-level rulings and the staff's
    corrections after signing, each in order."""

    rulings: list[Penalty]
    corrections: list[LogEntry]


def round_sheets(round_: Round) -> "list[WithAnnotations[Table, SheetRecords]]":
    """Every table of a round with all a printed sheet shows, in a fixed number of queries."""
    tables: list[WithAnnotations[Table, SheetRecords]] = list(
        round_.tables.select_related("playoff_match")
        .prefetch_related(
            seatings(),
            Prefetch("hands", queryset=Hand.objects.order_by("sequence").prefetch_related(penalties())),
            Prefetch(
                "penalties",
                queryset=Penalty.objects.filter(hand__isnull=True).order_by("created_at", "pk"),
                to_attr="rulings",
            ),
            Prefetch("signatures", queryset=Signature.objects.select_related("player", "substitute")),
            Prefetch(
                "changes",
                queryset=LogEntry.objects.filter(correction=True).order_by("version", "pk"),
                to_attr="corrections",
            ),
        )
        .order_by("number")
    )
    credits_attach(round_.tournament, tables=tables)
    return tables
