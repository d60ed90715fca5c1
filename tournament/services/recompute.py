"""The one bridge between the database and the rules: load a sheet, score it, store the results."""

from dataclasses import dataclass, field

import scoring
from tournament.errors import engine_refusal
from tournament.models import Hand, Penalty, Round, Table

NS, EW = scoring.Pair.NORTH_SOUTH, scoring.Pair.EAST_WEST


@dataclass
class Sheet:
    """A table's hands in the order dealt, each with its penalties, and the round-level rulings."""

    table: Table
    hands: list[Hand]
    penalties: dict[int, list[Penalty]] = field(default_factory=dict)
    rulings: list[Penalty] = field(default_factory=list)

    def penalties_of(self, hand: Hand) -> list[Penalty]:
        """A hand's penalties, by the hand's pk (or by the hand itself while it is not stored: an import)."""
        return self.penalties.get(hand.pk if hand.pk is not None else id(hand), [])

    def all_penalties(self) -> list[Penalty]:
        return [p for hand in self.hands for p in self.penalties_of(hand)] + self.rulings


def sheet_load(table: Table) -> Sheet:
    hands = list(table.hands.order_by("sequence"))
    sheet = Sheet(table=table, hands=hands)
    for penalty in table.penalties.order_by("created_at", "pk"):
        if penalty.hand_id is None:
            sheet.rulings.append(penalty)
        else:
            sheet.penalties.setdefault(penalty.hand_id, []).append(penalty)
    return sheet


def sheet_score(
    sheet: Sheet, extra: Hand | None = None, replace: Hand | None = None, extra_penalties: tuple = ()
) -> scoring.RoundScore:
    """Score a sheet, optionally with one hand added or replaced (for a preview), with ``extra_penalties``
    instead of the replaced hand's stored ones when given.

    The engine answers in the order of its input: one line per hand, one per penalty of each hand,
    one per ruling. ServiceError carries the engine's words, beside the entry they concern.
    """
    table = sheet.table
    with engine_refusal():
        deals = []
        for hand in sheet.hands:
            penalties = tuple(p.to_engine() for p in sheet.penalties_of(hand))
            if replace is not None and replace.pk == hand.pk:
                kept = tuple(p for p in penalties if p.kind is not scoring.PenaltyKind.DEAL_OUT_OF_TURN)
                deals.append(replace.to_engine(kept + tuple(extra_penalties)))
            else:
                deals.append(hand.to_engine(penalties))
        if extra is not None:
            deals.append(extra.to_engine(tuple(extra_penalties)))
        return scoring.score_round(
            table.round.tournament.rules,
            deals,
            first_dealer=scoring.Seat(table.first_dealer) if table.first_dealer else None,
            rulings=[ruling.to_engine() for ruling in sheet.rulings],
            tiebreak=table.round.kind == Round.Kind.PLAYOFF,
            time_called=table.time_called_at is not None or bool(table.forfeit),
        )


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
TABLE_RESULTS = ["ns_total", "ew_total", "hands_played", "complete", "next_dealer", "next_hand_number"]


def sheet_results(
    sheet: Sheet, result: scoring.RoundScore, *, explain: bool = True
) -> tuple[dict[str, list[str]], dict[int, Hand | Penalty | Table]]:
    """Set the engine's results on the sheet's records (in memory): what differed from the stored values, by
    record (when ``explain``: new records have nothing to explain), and the records that changed."""
    table = sheet.table
    differences: dict[str, list[str]] = {}
    changed: dict[int, Hand | Penalty | Table] = {}

    def note(record: Hand | Penalty | Table, name: str, new: object) -> None:
        old = getattr(record, name)
        if old != new:
            if explain:
                differences.setdefault(str(record), []).append(f"{name}: {old} → {new}")
            setattr(record, name, new)
            changed[id(record)] = record

    def note_penalty(penalty: Penalty, line: scoring.PenaltyLine) -> None:
        note(penalty, "warning", line.warning)
        note(penalty, "ns_points", line.points[NS])
        note(penalty, "ew_points", line.points[EW])

    for hand, line in zip(sheet.hands, result.lines, strict=True):
        note(hand, "hand_number", line.hand_number)
        note(hand, "counts", line.counts)
        note(hand, "books_after_penalties", line.books_after_penalties)
        note(hand, "made", line.hand.made if line.hand else None)
        note(hand, "boston", bool(line.hand and line.hand.boston))
        note(hand, "ns_points", line.points(NS))
        note(hand, "ew_points", line.points(EW))
        note(hand, "ns_total", line.totals[NS])
        note(hand, "ew_total", line.totals[EW])
        for penalty, penalty_line in zip(sheet.penalties_of(hand), line.penalties, strict=True):
            note_penalty(penalty, penalty_line)
    for ruling, ruling_line in zip(sheet.rulings, result.rulings, strict=True):
        note_penalty(ruling, ruling_line)
    note(table, "ns_total", result.totals[NS])
    note(table, "ew_total", result.totals[EW])
    note(table, "hands_played", result.hands_played)
    note(table, "complete", result.complete)
    note(table, "next_dealer", result.next_dealer or "")
    note(table, "next_hand_number", result.next_hand_number)
    return differences, changed


def table_recompute(table: Table, *, results_to: tuple = (), table_results: bool = True) -> dict[str, list[str]]:
    """Rescore a table from its stored entries and store the results.

    Returns what differed from the stored values, by record, so a rebuild can report it.
    Raises ServiceError (and the caller's transaction rolls back) if the rules refuse the sheet.
    ``results_to`` are the caller's own copies of records of this sheet (a hand it just saved): they take
    their new results too, so the caller need not read them again. Without ``table_results`` the table's own
    results are set on ``table`` but left for the caller to store (``sheet_write`` stores them with the sheet's
    new version, in one UPDATE).
    """
    sheet = sheet_load(table)
    differences, changed = sheet_results(sheet, sheet_score(sheet))
    if not table_results:
        changed.pop(id(table), None)

    # Only what scoring changed is written, one short UPDATE each (a sheet holds a dozen records at most; a
    # bulk update's CASE expressions cost more to build than they save): a hand added at the end leaves the
    # earlier ones as they were.
    results: dict[type[Hand | Penalty | Table], list[str]] = {
        Hand: HAND_RESULTS,
        Penalty: PENALTY_RESULTS,
        Table: TABLE_RESULTS,
    }
    for record in changed.values():
        fields = results[type(record)]
        type(record)._default_manager.filter(pk=record.pk).update(**{name: getattr(record, name) for name in fields})
    scored = {(type(record), record.pk): record for record in [*sheet.hands, *sheet.all_penalties(), table]}
    for copy in results_to:
        rescored = scored.get((type(copy), copy.pk))
        if rescored is not None and rescored is not copy:
            for name in results[type(copy)]:
                setattr(copy, name, getattr(rescored, name))
    return differences
