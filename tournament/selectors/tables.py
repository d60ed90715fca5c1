"""One table: what its private link opens, its seats, its sheet and the sheet's history."""

from dataclasses import dataclass

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from scoring import Seat
from tournament.models import Hand, LogEntry, Penalty, Player, Round, Signature, Substitute, Table
from tournament.selectors.prefetch import penalties, seatings


def table_by_secret(secret: str, *, with_players: bool = True) -> Table:
    """The table a private link opens: only a published or closed round's table.

    Without ``with_players`` the table comes with its round and tournament alone: enough for a phone's queued
    hand or a call of time, which name seats only and whose services read the table again under their lock
    (no query for the seats on every save).
    """
    tables = Table.objects.select_related("round__tournament")
    if with_players:
        tables = Table.objects.select_related("round__tournament__event", "playoff_match").prefetch_related(seatings())
    return get_object_or_404(tables, secret=secret, round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])


@dataclass(frozen=True)
class SeatView:
    """A seat and who plays in it: the team's player, or the substitute approved for this round in their place."""

    seat: Seat
    player: Player | None
    substitute: str = ""

    @property
    def label(self) -> str:
        return self.seat.label

    @property
    def name(self) -> str:
        return self.substitute or (self.player.name if self.player else "")

    @property
    def shown(self) -> str:
        """The name as the pages print it: "Jo Lee (substitute for Player 0a)"."""
        if self.substitute and self.player:
            return f"{self.substitute} (substitute for {self.player.name})"
        return self.name

    @property
    def pair(self) -> str:
        return self.seat.pair


def round_substitutes(round_id: int) -> dict[tuple[int, int], str]:
    """The substitutes of a round: the name playing for each (team, replaced player), in one query."""
    rows = Substitute.objects.filter(round_id=round_id).values_list("team_id", "replaces_id", "name")
    return {(team_id, player_id): name for team_id, player_id, name in rows}


def table_seats(table: Table, substitutes: dict[tuple[int, int], str] | None = None) -> list[SeatView]:
    """The four seats clockwise from North with their players: each team's first player sits North or East; a
    substitute approved for the round plays in place of the player they replace (``substitutes`` from
    ``round_substitutes``, read here when not given)."""
    if substitutes is None:
        substitutes = round_substitutes(table.round_id)
    views = []
    for seat in Seat:
        team = table.team_at(seat.pair)
        players = [member.player for member in team.members] if team else []
        player = players[seat.position] if len(players) > seat.position else None
        instead = substitutes.get((team.pk, player.pk), "") if team and player else ""
        views.append(SeatView(seat, player, instead))
    return views


def bare_seats() -> list[SeatView]:
    """The four seats clockwise from North, without their players."""
    return [SeatView(seat, None) for seat in Seat]


@dataclass(frozen=True)
class SheetView:
    """A sheet's hands (each with its penalties), the round-level rulings and the signatures by team."""

    hands: list[Hand]
    rulings: list[Penalty]
    signatures: dict[str, Signature]


def table_sheet(table: Table) -> SheetView:
    """The sheet as the table page shows it, in three queries."""
    hands = list(Hand.objects.filter(table=table).prefetch_related(penalties()).order_by("sequence"))
    rulings = list(Penalty.objects.filter(table=table, hand__isnull=True).order_by("created_at", "pk"))
    signatures = {s.pair: s for s in Signature.objects.filter(table=table).select_related("player")}
    return SheetView(hands=hands, rulings=rulings, signatures=signatures)


def table_history(table: Table) -> QuerySet[LogEntry]:
    return LogEntry.objects.filter(table=table).order_by("version", "pk")
