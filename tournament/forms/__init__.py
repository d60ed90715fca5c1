"""Forms: field checks only; every rule of the event lives in the services and the engine."""

from django import forms

# A value no choice offers comes only from a forged or stale post: every choice field of the app's forms refuses it
# in the app's words, not Django's "Select a valid choice…". Set here, before any form of the package is declared;
# a field that names its choices in its own words (a team, a person) keeps those.
WRONG_CHOICE = "That is not one of the choices shown: choose one of those."
for _field in (forms.ChoiceField, forms.MultipleChoiceField, forms.ModelChoiceField, forms.ModelMultipleChoiceField):
    _field.default_error_messages = {**_field.default_error_messages, "invalid_choice": WRONG_CHOICE}

from tournament.forms.director import (  # noqa: E402 (declared once the wording above is set)
    DRAFT_TEAMS,
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
    "DRAFT_TEAMS",
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
