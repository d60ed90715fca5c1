"""A ``manage.py`` command as a person types it in a shell, to reach the database this process uses."""

import os
import shlex
import sys

from django.conf import settings


def manage_command(*arguments: str) -> str:
    """The command line, run as printed from any folder, that reaches this process's database: the venue's
    server has its own (``DATABASE_URL`` in its environment), which a bare ``manage.py`` in a new shell misses
    (it would reach ``make run``'s)."""
    words = shlex.join([sys.executable, str(settings.BASE_DIR / "manage.py"), *arguments])
    url = os.environ.get("DATABASE_URL")
    return f"DATABASE_URL={shlex.quote(url)} {words}" if url else words
