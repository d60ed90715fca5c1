"""Forms: field checks only; every rule of the event lives in the services and the engine."""

from tournament.forms.director import (
    DrawForm,
    EventForm,
    MoveForm,
    RuleSetForm,
    SwapForm,
    TeamForm,
    TeamImportForm,
    TeamRegisterForm,
    TournamentCreateForm,
    TournamentForm,
)

__all__ = [
    "DrawForm",
    "EventForm",
    "MoveForm",
    "RuleSetForm",
    "SwapForm",
    "TeamForm",
    "TeamImportForm",
    "TeamRegisterForm",
    "TournamentCreateForm",
    "TournamentForm",
]
