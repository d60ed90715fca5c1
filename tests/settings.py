"""Settings for the test suite: the production settings, served over plain HTTP as at a venue.

Static files are the production ones (the manifest storage, served by whitenoise from STATIC_ROOT), collected
once per change of their sources (tests/conftest.py). An SQLite test database is a file, as at a venue, so
the tests that start gunicorn (``venue_server`` in tests/conftest.py, tests/tournament/management/test_venue.py)
reach the same data as the test.
"""

import hashlib
import os
import tempfile

from tournament.settings import *  # noqa: F403
from tournament.settings import BASE_DIR, DATABASES, Path

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

_CHECKOUT = hashlib.sha256(str(BASE_DIR).encode()).hexdigest()[:10]
# Each pytest-xdist worker collects into its own folder, so two workers never write one file at once.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
STATIC_ROOT = Path(tempfile.gettempdir()) / f"bidwhist-test-static-{_CHECKOUT}{_WORKER}"
if DATABASES["default"]["ENGINE"] == "tournament.sqlite":
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"bidwhist-test-{_CHECKOUT}-{os.getpid()}.sqlite3")
    }
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A test database is thrown away: its commits (every request of the live-server tests) need not wait for
    # PostgreSQL's flush to disk.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
