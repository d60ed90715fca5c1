"""The table scorekeeper's pages, opened by the table's private link or its table card; staff may open any
table."""

from tournament.views.table.card import table_card
from tournament.views.table.hands import (
    first_dealer_set,
    hand_add,
    hand_check,
    hand_edit,
    hand_edit_preview_fragment,
    hand_preview_fragment,
    hand_undo,
    redeal_add,
    table_page,
)
from tournament.views.table.removal import hand_remove, penalty_remove, removal_undo
from tournament.views.table.sheet import (
    entries_settle,
    hand_accept,
    history,
    penalty_add,
    sheet_dispute,
    sheet_settle,
    sheet_sign,
)
from tournament.views.table.sync import hand_sync
from tournament.views.table.time import time_call, time_call_lift

__all__ = [
    "entries_settle",
    "first_dealer_set",
    "hand_accept",
    "hand_add",
    "hand_check",
    "hand_edit",
    "hand_edit_preview_fragment",
    "hand_preview_fragment",
    "hand_remove",
    "hand_sync",
    "hand_undo",
    "history",
    "penalty_add",
    "penalty_remove",
    "redeal_add",
    "removal_undo",
    "sheet_dispute",
    "sheet_settle",
    "sheet_sign",
    "table_card",
    "table_page",
    "time_call",
    "time_call_lift",
]
