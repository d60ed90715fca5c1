"""Table cards: which round's table a card on table N opens, and where its teams go next."""

from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from tournament.models import Round, Seating, Table, TableCard, Team
from tournament.selectors.prefetch import seatings

IN_PLAY = [Round.Status.PUBLISHED, Round.Status.CLOSED]


@dataclass(frozen=True)
class Move:
    """Where a team that sat at the card's table goes in the next published round."""

    team: Team
    round_number: int
    table_number: int | None
    pair: str

    @property
    def words(self) -> str:
        if self.table_number is None:
            return f"#{self.team.number} {self.team.display_name} has a bye in round {self.round_number}"
        side = "North–South" if self.pair == "NS" else "East–West"
        return (
            f"#{self.team.number} {self.team.display_name} goes to table {self.table_number} ({side}) "
            f"for round {self.round_number}"
        )


@dataclass(frozen=True)
class CardSitting:
    card: TableCard
    table: Table | None
    moves_from: Table | None
    moves: list[Move]


def card_by_secret(secret: str) -> TableCard:
    return get_object_or_404(TableCard.objects.select_related("tournament__event"), secret=secret)


def _moves(table: Table, later: Round) -> list[Move]:
    teams = [seating.team for seating in sorted(table.seatings.all(), key=lambda seating: seating.pair != "NS")]
    placed = {
        seating.team_id: seating
        for seating in Seating.objects.filter(round=later, team__in=teams).select_related("table")
    }
    moves = []
    for team in teams:
        seating = placed.get(team.pk)
        if seating is not None:
            number = seating.table.number if seating.table else None
            moves.append(Move(team, later.number, number, seating.pair))
    return moves


def card_sitting(card: TableCard) -> CardSitting:
    """The sitting a card opens: the earliest of the published rounds' tables with its number still being
    played (so a slow table finishes its round), else the latest. Once a later round is published, the
    teams of the sitting that is over (or still finishing) are told where they go next."""
    tables = list(
        Table.objects.filter(round__tournament=card.tournament, round__status__in=IN_PLAY, number=card.number)
        .select_related("round", "playoff_match")
        .prefetch_related(seatings())
        .order_by("round__number")
    )
    if not tables:
        return CardSitting(card, None, None, [])
    playing = [t for t in tables if not t.signed and t.round.status == Round.Status.PUBLISHED]
    table = playing[0] if playing else tables[-1]
    latest = (
        Round.objects.filter(tournament=card.tournament, status__in=IN_PLAY, number__gt=table.round.number)
        .order_by("-number")
        .first()
    )
    if latest is not None:
        return CardSitting(card, table, table, _moves(table, latest))
    earlier = [t for t in tables if t.round.number < table.round.number]
    if earlier and not table.hands_played:
        return CardSitting(card, table, earlier[-1], _moves(earlier[-1], table.round))
    return CardSitting(card, table, None, [])
