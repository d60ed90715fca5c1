"""Reads that build pages, each a fixed number of queries whatever the size of the field."""

from tournament.selectors.bracket_tree import BracketTree, bracket_tree
from tournament.selectors.cards import CardSitting, Move, card_by_secret, card_sitting
from tournament.selectors.events import (
    DeskCounts,
    announcements_active,
    desk_counts,
    event_get,
    event_tournaments,
    events_list,
    tournament_get,
)
from tournament.selectors.exports import RulingRow, tournament_hand_rows, tournament_hands
from tournament.selectors.log import log_entries
from tournament.selectors.placings import Placing, tournament_placings
from tournament.selectors.playoffs import (
    BracketColumn,
    playoff_bracket,
    playoff_champion,
    playoff_matches,
    playoff_seeds,
    tournament_champion,
)
from tournament.selectors.rounds import (
    draw_matches,
    round_byes,
    round_current,
    round_get,
    round_is_live,
    round_live_tables,
    round_sheets,
    round_tables,
    round_unplaced_teams,
    rounds_in_play,
    rounds_of,
)
from tournament.selectors.tables import (
    SeatView,
    SheetView,
    bare_seats,
    round_substitutes,
    table_by_secret,
    table_history,
    table_seats,
    table_sheet,
)
from tournament.selectors.teams import TeamRound, team_rounds, teams_search, teams_with_players

__all__ = [
    "BracketColumn",
    "BracketTree",
    "CardSitting",
    "DeskCounts",
    "Move",
    "Placing",
    "RulingRow",
    "SeatView",
    "SheetView",
    "TeamRound",
    "announcements_active",
    "bare_seats",
    "bracket_tree",
    "card_by_secret",
    "card_sitting",
    "desk_counts",
    "draw_matches",
    "event_get",
    "event_tournaments",
    "events_list",
    "log_entries",
    "playoff_bracket",
    "playoff_champion",
    "playoff_matches",
    "playoff_seeds",
    "round_byes",
    "round_current",
    "round_get",
    "round_is_live",
    "round_live_tables",
    "round_sheets",
    "round_substitutes",
    "round_tables",
    "round_unplaced_teams",
    "rounds_in_play",
    "rounds_of",
    "table_by_secret",
    "table_history",
    "table_seats",
    "table_sheet",
    "team_rounds",
    "teams_search",
    "teams_with_players",
    "tournament_champion",
    "tournament_get",
    "tournament_hand_rows",
    "tournament_hands",
    "tournament_placings",
]
