"""What the exports read: every hand of a tournament, the round-level rulings beside them, and the forfeits."""

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from scoring import Credit, Pair, TeamOutcome, team_outcome
from tournament.models import Hand, Penalty, Round, Seating, Table, Tournament
from tournament.selectors.prefetch import penalties
from tournament.selectors.standings import forfeit_credits


def tournament_hands(tournament: Tournament) -> QuerySet[Hand]:
    """Every hand of the tournament's published rounds, in play order, for the exports (fixed queries)."""
    return (
        Hand.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round", "table__playoff_match")
        .prefetch_related(penalties(), Prefetch("table__seatings", queryset=Seating.objects.select_related("team")))
        .order_by("table__round__number", "table__number", "sequence")
    )


class _NoHand:
    """The hand columns of an export row that stands for no hand (a ruling, a forfeit): empty."""

    hand_number = None
    dealer = ""
    counts = True
    bidder = ""
    bid_text = ""
    books = None
    books_after_penalties = None


@dataclass(frozen=True)
class RulingRow(_NoHand):
    """A director's ruling on the round as a whole, as a row of the hands export: with it, the rows of a
    table add up to the sheet's totals."""

    table: Table
    penalty: Penalty

    @property
    def ns_points(self) -> int:
        return self.penalty.ns_points

    @property
    def ew_points(self) -> int:
        return self.penalty.ew_points

    @property
    def listed_penalties(self) -> list[Penalty]:
        return [self.penalty]


@dataclass(frozen=True)
class ForfeitRow(_NoHand):
    """A forfeit as a row of the hands export (no hand was played): each team's round as every surface says it,
    with the points the standings count — the present team's credit (``credit``, provisional until every table of
    the round is signed), an absent team 0 — so the export's points add up as the standings do."""

    table: Table
    credit: Credit | None
    listed_penalties = ()

    def _outcome(self, pair: Pair) -> TeamOutcome:
        return team_outcome(self.table.outcome, pair, credit=self.credit)

    @property
    def ns_points(self) -> int:
        return self._outcome(Pair.NORTH_SOUTH).points_for

    @property
    def ew_points(self) -> int:
        return self._outcome(Pair.EAST_WEST).points_for

    @property
    def words(self) -> str:
        """The Forfeit column: "North–South (#7) won by forfeit, 4 points; East–West (#8) lost: absent, 0 points"."""
        return "; ".join(
            f"{pair.label} (#{self.table.team_at(pair).number}) {self._outcome(pair).line}" for pair in Pair
        )


def _forfeit_rows(tournament: Tournament) -> list[ForfeitRow]:
    """The forfeits of the published rounds, each as one row with its credit (fixed queries)."""
    forfeits = list(
        Table.objects.filter(round__tournament=tournament)
        .exclude(forfeit="")
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "playoff_match")
        .prefetch_related(Prefetch("seatings", queryset=Seating.objects.select_related("team")))
    )
    credits = forfeit_credits(tournament) if forfeits else {}
    return [ForfeitRow(table, credits.get(table.pk)) for table in forfeits]


def tournament_hand_rows(tournament: Tournament) -> list:
    """Every hand, each table's round-level rulings after its hands, and each forfeit as one row, tables in play
    order (fixed queries)."""
    rows: dict[int, list] = {}
    tables: dict[int, Table] = {}
    for forfeit in _forfeit_rows(tournament):
        rows[forfeit.table.pk] = [forfeit]
        tables[forfeit.table.pk] = forfeit.table
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
