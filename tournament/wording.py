"""Lists and numbers in messages that read as sentences: "tables 5, 6 and 7 have not signed"."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournament.models import Table


def in_words(items) -> str:
    """ "5", "5 and 6", "5, 6 and 7"."""
    items = [str(item) for item in items]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def counted(count: int, one: str, many: str | None = None) -> str:
    """ "1 table", "3 tables"."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def tables_phrase(numbers) -> str:
    """ "table 5", "tables 5, 6 and 7"."""
    numbers = list(numbers)
    return f"{'table' if len(numbers) == 1 else 'tables'} {in_words(numbers)}"


def have(numbers) -> str:
    return "has" if len(list(numbers)) == 1 else "have"


def still_playing_words(tables: list[Table]) -> str:
    """ "round 1 tables 5, 6 and 7" (and "round 2 table 3")."""
    by_round: dict[int, list[int]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(table.number)
    return in_words(f"round {number} {tables_phrase(numbers)}" for number, numbers in by_round.items())
