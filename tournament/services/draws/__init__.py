"""Drawing a round into tables, editing the draft, and publishing it."""

from tournament.services.draws.editing import (
    draft_locked,
    draw_discard,
    draw_problems,
    draw_sitting_toggle,
    draw_team_move,
    draw_teams_swap,
    draw_warnings,
)
from tournament.services.draws.making import (
    MAX_TABLE_NUMBER,
    next_round_number,
    round_draw,
    tables_still_playing,
)
from tournament.services.draws.publishing import qualifying_rounds_close, round_close, round_publish, round_unpublish

__all__ = [
    "MAX_TABLE_NUMBER",
    "draft_locked",
    "draw_discard",
    "draw_problems",
    "draw_sitting_toggle",
    "draw_team_move",
    "draw_teams_swap",
    "draw_warnings",
    "next_round_number",
    "qualifying_rounds_close",
    "round_close",
    "round_draw",
    "round_publish",
    "round_unpublish",
    "tables_still_playing",
]
