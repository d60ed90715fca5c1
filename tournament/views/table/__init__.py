"""The table scorekeeper's pages, opened by the table's private link; staff may open any table."""

from tournament.views.table.hands import (
    first_dealer_set,
    hand_add,
    hand_edit,
    hand_preview_fragment,
    hand_remove,
    redeal_add,
    table_page,
)
from tournament.views.table.sheet import (
    entries_settle,
    hand_accept,
    history,
    penalty_add,
    penalty_remove,
    sheet_dispute,
    sheet_settle,
    sheet_sign,
)

__all__ = [
    "entries_settle",
    "first_dealer_set",
    "hand_accept",
    "hand_add",
    "hand_edit",
    "hand_preview_fragment",
    "hand_remove",
    "history",
    "penalty_add",
    "penalty_remove",
    "redeal_add",
    "sheet_dispute",
    "sheet_settle",
    "sheet_sign",
    "table_page",
]
