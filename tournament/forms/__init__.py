"""Forms: field checks only; every rule of the event lives in the services and the engine."""

from tournament.forms.director import (
    AnnouncementForm,
    DrawForm,
    EventForm,
    LogFilterForm,
    MoveForm,
    PlayoffSeedForm,
    RuleSetForm,
    SeedSwapForm,
    SwapForm,
    TeamForm,
    TeamImportForm,
    TeamRegisterForm,
    TeamsCheckInForm,
    TournamentCreateForm,
    TournamentForm,
)

__all__ = [
    "AnnouncementForm",
    "DrawForm",
    "EventForm",
    "LogFilterForm",
    "MoveForm",
    "PlayoffSeedForm",
    "RuleSetForm",
    "SeedSwapForm",
    "SwapForm",
    "TeamForm",
    "TeamImportForm",
    "TeamRegisterForm",
    "TeamsCheckInForm",
    "TournamentCreateForm",
    "TournamentForm",
]
