"""Keeping a table's score sheet: hands, re-deals, penalties, signatures and corrections.

Every change goes through ``sheet_write`` (``write.py``): one transaction that locks the table, checks
the version the person was looking at, makes the change, rescores the whole sheet through the engine
(refusing the change if the rules do) and records it in the sheet's history.
"""

from tournament.services.sheets.double import Submitted, entries_settle, hand_submit
from tournament.services.sheets.entries import HandEntry, entry_of, hand_snapshot
from tournament.services.sheets.hands import (
    EntryClash,
    hand_preview,
    hand_record,
    hand_remove,
    hand_update,
    redeal_record,
    table_first_dealer_set,
)
from tournament.services.sheets.penalties import penalty_add, penalty_remove
from tournament.services.sheets.signing import (
    WrongCode,
    hand_accept,
    sheet_dispute,
    sheet_dispute_resolve,
    sheet_sign,
    waiting_hands,
)
from tournament.services.sheets.time import clock_deal_check, table_time_call, table_time_call_lift
from tournament.services.sheets.undo import removal_undo
from tournament.services.sheets.write import Change, ChangeContext, StaleSheet, sheet_write

__all__ = [
    "Change",
    "ChangeContext",
    "EntryClash",
    "HandEntry",
    "StaleSheet",
    "Submitted",
    "WrongCode",
    "clock_deal_check",
    "entries_settle",
    "entry_of",
    "hand_accept",
    "hand_preview",
    "hand_record",
    "hand_remove",
    "hand_snapshot",
    "hand_submit",
    "hand_update",
    "penalty_add",
    "penalty_remove",
    "redeal_record",
    "removal_undo",
    "sheet_dispute",
    "sheet_dispute_resolve",
    "sheet_sign",
    "sheet_write",
    "table_first_dealer_set",
    "table_time_call",
    "table_time_call_lift",
    "waiting_hands",
]
