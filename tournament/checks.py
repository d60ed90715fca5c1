"""System checks of the deployment that Django's own do not cover."""

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import checks
from django.core.checks import Error, Tags, register
from django.db import DatabaseError

from tournament.shell import manage_command

# Passwords that have appeared in this project's README or docs: anyone who read them can try them.
PUBLISHED_PASSWORDS = ("whist-director",)
# `manage.py check --deploy --tag accounts` runs this check alone (`make run` and `manage.py venue` do).
ACCOUNTS = "accounts"


def accounts_with_published_passwords() -> list[str]:
    try:
        accounts = list(get_user_model().objects.filter(is_active=True))
    except DatabaseError:
        return []
    return [user.get_username() for user in accounts if any(map(user.check_password, PUBLISHED_PASSWORDS))]


@register(Tags.security, ACCOUNTS, deploy=True)
def no_published_passwords(app_configs=None, **kwargs):
    """No active account may still have a password printed in the README or docs: an error with DEBUG off
    (the venue and hosted servers), a warning on a developer's server."""
    level = checks.Warning if settings.DEBUG else Error
    return [
        level(
            f"The account {name!r} has a password printed in the README or docs.",
            hint=f"Set a new one: {manage_command('changepassword', name)}",
            id="tournament.E001" if level is Error else "tournament.W001",
        )
        for name in accounts_with_published_passwords()
    ]


def sqlite_location_problem(database: Mapping[str, Any]) -> str | None:
    """Why an SQLite database cannot be saved to, in words for whoever starts the app; None if it can."""
    if database.get("ENGINE") not in {"django.db.backends.sqlite3", "tournament.sqlite"}:
        return None
    name = str(database.get("NAME") or "")
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    path = Path(name)
    folder = path.parent
    if not folder.is_dir():
        return f"The database folder {folder} does not exist: create it, or set DATABASE_URL to another place."
    if path.exists() and not path.is_file():
        return f"The database path {path} is not a file: set DATABASE_URL to a file."
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"The database file {path} cannot be written: give this user write access, or move it."
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"The database folder {folder} cannot be written (SQLite keeps its journal beside the file): "
            "give this user write access, or set DATABASE_URL to another place."
        )
    return None


@register()
def database_can_be_saved_to(app_configs=None, **kwargs):
    """A read-only or missing database path is said at start-up, not as an error on every save."""
    problem = sqlite_location_problem(settings.DATABASES["default"])
    return [Error(problem, id="tournament.E002")] if problem else []
