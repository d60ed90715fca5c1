"""Registering teams by hand and from CSV, and the registration desk."""

from tournament.services.teams.codes import team_code_open, team_code_renew
from tournament.services.teams.csv_import import CSV_COLUMNS, teams_import_csv
from tournament.services.teams.desk import DESK_FIELDS, team_desk_update, teams_check_in
from tournament.services.teams.entries import MAX_TEAM_NUMBER, PlayerEntry, team_entry_problems
from tournament.services.teams.register import team_register, team_snapshot, team_update
from tournament.services.teams.self_service import team_self_check_in, team_withdraw_request

__all__ = [
    "CSV_COLUMNS",
    "DESK_FIELDS",
    "MAX_TEAM_NUMBER",
    "PlayerEntry",
    "team_code_open",
    "team_code_renew",
    "team_desk_update",
    "team_entry_problems",
    "team_register",
    "team_self_check_in",
    "team_snapshot",
    "team_update",
    "team_withdraw_request",
    "teams_check_in",
    "teams_import_csv",
]
