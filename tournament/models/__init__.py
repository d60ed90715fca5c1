"""What a tournament weekend is made of: events, tournaments, players, teams, rounds, tables, sheets,
the playoff and the action log."""

from tournament.models.events import STANDINGS_ORDERS, Announcement, Event, Player, Team, TeamMember, Tournament
from tournament.models.log import LogEntry
from tournament.models.playoffs import PlayoffMatch, PlayoffSeed
from tournament.models.rounds import Round, Seating, Table, new_table_secret
from tournament.models.sheets import Hand, Penalty, Signature

__all__ = [
    "STANDINGS_ORDERS",
    "Announcement",
    "Event",
    "Hand",
    "LogEntry",
    "Penalty",
    "Player",
    "PlayoffMatch",
    "PlayoffSeed",
    "Round",
    "Seating",
    "Signature",
    "Table",
    "Team",
    "TeamMember",
    "Tournament",
    "new_table_secret",
]
