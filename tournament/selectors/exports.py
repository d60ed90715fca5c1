"""What the exports read: every hand of a tournament, and the round-level rulings beside them."""

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from tournament.models import Hand, Penalty, Round, Seating, Table, Tournament
from tournament.selectors.prefetch import penalties


def tournament_hands(tournament: Tournament) -> QuerySet[Hand]:
    """Every hand of the tournament's published rounds, in play order, for the exports (fixed queries)."""
    return (
        Hand.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round", "table__playoff_match")
        .prefetch_related(penalties(), Prefetch("table__seatings", queryset=Seating.objects.select_related("team")))
        .order_by("table__round__number", "table__number", "sequence")
    )


@dataclass(frozen=True)
class RulingRow:
    """A director's ruling on the round as a whole, as a row of the hands export: with it, the rows of a
    table add up to the sheet's totals."""

    table: Table
    penalty: Penalty
    hand_number = None
    dealer = ""
    counts = True
    bidder = ""
    bid_text = ""
    books = None
    books_after_penalties = None

    @property
    def ns_points(self) -> int:
        return self.penalty.ns_points

    @property
    def ew_points(self) -> int:
        return self.penalty.ew_points

    @property
    def listed_penalties(self) -> list[Penalty]:
        return [self.penalty]


def tournament_hand_rows(tournament: Tournament) -> list:
    """Every hand, each table's round-level rulings after its hands, tables in play order (fixed queries)."""
    rows: dict[int, list] = {}
    tables: dict[int, Table] = {}
    for hand in tournament_hands(tournament):
        rows.setdefault(hand.table_id, []).append(hand)
        tables[hand.table_id] = hand.table
    for penalty in (
        Penalty.objects.filter(table__round__tournament=tournament, hand__isnull=True)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round", "table__playoff_match")
        .prefetch_related(Prefetch("table__seatings", queryset=Seating.objects.select_related("team")))
        .order_by("created_at", "pk")
    ):
        rows.setdefault(penalty.table_id, []).append(RulingRow(penalty.table, penalty))
        tables.setdefault(penalty.table_id, penalty.table)
    in_order = sorted(tables.values(), key=lambda table: (table.round.number, table.number))
    return [row for table in in_order for row in rows[table.pk]]
