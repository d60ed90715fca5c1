"""What a tournament weekend is made of: events, tournaments, players, teams, rounds, tables, sheets,
the playoff and the action log."""

from tournament.models.events import (
    STANDINGS_ORDERS,
    Announcement,
    Event,
    Player,
    Team,
    TeamMember,
    Tournament,
    new_team_code,
    team_code_typed,
)
from tournament.models.log import LogEntry
from tournament.models.money import Payment, Payout, Pot
from tournament.models.once import FormPost
from tournament.models.persons import HIDDEN_NAME, Person, PersonRating, Series, SeriesTournament
from tournament.models.playoffs import PlayoffMatch, PlayoffSeed
from tournament.models.rounds import Round, Seating, SitOut, Substitute, Table, TableCard, new_table_secret
from tournament.models.sheets import Hand, HandSubmission, Penalty, Signature
from tournament.models.standings import TeamRecords
from tournament.models.throttle import Throttle

__all__ = [
    "HIDDEN_NAME",
    "STANDINGS_ORDERS",
    "Announcement",
    "Event",
    "FormPost",
    "Hand",
    "HandSubmission",
    "LogEntry",
    "Payment",
    "Payout",
    "Penalty",
    "Person",
    "PersonRating",
    "Player",
    "PlayoffMatch",
    "PlayoffSeed",
    "Pot",
    "Round",
    "Seating",
    "Series",
    "SeriesTournament",
    "Signature",
    "SitOut",
    "Substitute",
    "Table",
    "TableCard",
    "Team",
    "TeamMember",
    "TeamRecords",
    "Throttle",
    "Tournament",
    "new_table_secret",
    "new_team_code",
    "team_code_typed",
]
