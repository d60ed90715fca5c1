"""The one bridge between the database and the rules: load a sheet, score it, store the results."""

from dataclasses import dataclass, field

import scoring
from scoring import ScoringError
from tournament.errors import ServiceError
from tournament.models import Hand, Penalty, Round, Table

NS, EW = scoring.Pair.NORTH_SOUTH, scoring.Pair.EAST_WEST


def engine_penalty(penalty: Penalty) -> scoring.Penalty:
    return scoring.Penalty(
        kind=scoring.PenaltyKind(penalty.kind),
        team=scoring.Pair(penalty.team),
        count=penalty.count,
        choice=scoring.BidOutOfTurnChoice(penalty.choice) if penalty.choice else None,
        before_bidding=penalty.before_bidding,
        points=penalty.points,
    )


def engine_deal(hand: Hand, penalties: tuple[scoring.Penalty, ...] = ()) -> scoring.Deal:
    """A hand as the engine sees it; ScoringError for an impossible combination of entries."""
    return scoring.Deal(
        dealer=scoring.Seat(hand.dealer),
        bidder=scoring.Seat(hand.bidder) if hand.bidder else None,
        bid=scoring.Bid(hand.bid_level, hand.bid_kind) if hand.bid_level else None,
        books=hand.books,
        misdeal=hand.misdeal,
        penalties=penalties,
    )


@dataclass
class Sheet:
    """A table's hands in the order dealt, each with its penalties, and the round-level rulings."""

    table: Table
    hands: list[Hand]
    penalties: dict[int, list[Penalty]] = field(default_factory=dict)
    rulings: list[Penalty] = field(default_factory=list)

    def all_penalties(self) -> list[Penalty]:
        return [p for hand in self.hands for p in self.penalties.get(hand.pk, [])] + self.rulings


def sheet_load(table: Table) -> Sheet:
    hands = list(table.hands.order_by("sequence"))
    sheet = Sheet(table=table, hands=hands)
    for penalty in table.penalties.order_by("created_at", "pk"):
        if penalty.hand_id is None:
            sheet.rulings.append(penalty)
        else:
            sheet.penalties.setdefault(penalty.hand_id, []).append(penalty)
    return sheet


@dataclass(frozen=True)
class Scored:
    result: scoring.RoundScore
    deals: list[scoring.Deal]
    engine_penalties: dict[int, scoring.Penalty]


def sheet_score(sheet: Sheet, extra: Hand | None = None, replace: Hand | None = None) -> Scored:
    """Score a sheet, optionally with one hand added or replaced (for a preview).

    ServiceError carries the engine's words when the rules refuse the sheet.
    """
    table = sheet.table
    engine_penalties: dict[int, scoring.Penalty] = {}
    deals = []
    try:
        for hand in sheet.hands:
            source = replace if replace is not None and replace.pk == hand.pk else hand
            converted = []
            for penalty in sheet.penalties.get(hand.pk, []):
                engine_penalties[id(penalty)] = engine_penalty(penalty)
                converted.append(engine_penalties[id(penalty)])
            deals.append(engine_deal(source, tuple(converted)))
        if extra is not None:
            deals.append(engine_deal(extra))
        rulings = []
        for ruling in sheet.rulings:
            engine_penalties[id(ruling)] = engine_penalty(ruling)
            rulings.append(engine_penalties[id(ruling)])
        result = scoring.score_round(
            table.round.tournament.rules,
            deals,
            first_dealer=scoring.Seat(table.first_dealer) if table.first_dealer else None,
            rulings=rulings,
            tiebreak=table.round.kind == Round.Kind.PLAYOFF,
        )
    except ScoringError as error:
        raise ServiceError(str(error)) from None
    return Scored(result=result, deals=deals, engine_penalties=engine_penalties)


HAND_RESULTS = [
    "hand_number",
    "counts",
    "books_after_penalties",
    "made",
    "boston",
    "ns_points",
    "ew_points",
    "ns_total",
    "ew_total",
]
PENALTY_RESULTS = ["warning", "ns_points", "ew_points"]
TABLE_RESULTS = ["ns_total", "ew_total", "hands_played", "complete"]


def table_recompute(table: Table) -> dict[str, list[str]]:
    """Rescore a table from its stored entries and store the results.

    Returns what differed from the stored values, by record, so a rebuild can report it.
    Raises ServiceError (and the caller's transaction rolls back) if the rules refuse the sheet.
    """
    sheet = sheet_load(table)
    scored = sheet_score(sheet)
    rules = table.round.tournament.rules
    differences: dict[str, list[str]] = {}

    def note(record, name: str, new) -> None:
        old = getattr(record, name)
        if old != new:
            differences.setdefault(str(record), []).append(f"{name}: {old} → {new}")
            setattr(record, name, new)

    for hand, line in zip(sheet.hands, scored.result.lines, strict=True):
        note(hand, "hand_number", line.hand_number)
        note(hand, "counts", line.counts)
        note(hand, "books_after_penalties", line.books_after_penalties)
        note(hand, "made", line.hand.made if line.hand else None)
        note(hand, "boston", bool(line.hand and line.hand.boston))
        note(hand, "ns_points", line.points(NS))
        note(hand, "ew_points", line.points(EW))
        note(hand, "ns_total", line.totals[NS])
        note(hand, "ew_total", line.totals[EW])
        warnings = line.warnings
        for penalty in sheet.penalties.get(hand.pk, []):
            engine = scored.engine_penalties[id(penalty)]
            warning = any(engine is warned for warned in warnings)
            points = scoring.penalty_points(rules, engine, warning=warning)
            note(penalty, "warning", warning)
            note(penalty, "ns_points", points[NS])
            note(penalty, "ew_points", points[EW])
    for ruling in sheet.rulings:
        points = scoring.penalty_points(rules, scored.engine_penalties[id(ruling)])
        note(ruling, "ns_points", points[NS])
        note(ruling, "ew_points", points[EW])
    result = scored.result
    note(table, "ns_total", result.totals[NS])
    note(table, "ew_total", result.totals[EW])
    note(table, "hands_played", result.hands_played)
    note(table, "complete", result.complete)

    Hand.objects.bulk_update(sheet.hands, HAND_RESULTS)
    Penalty.objects.bulk_update(sheet.all_penalties(), PENALTY_RESULTS)
    Table.objects.filter(pk=table.pk).update(**{name: getattr(table, name) for name in TABLE_RESULTS})
    return differences
