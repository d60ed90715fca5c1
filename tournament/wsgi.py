"""WSGI entry point for gunicorn: ``gunicorn tournament.wsgi``."""

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

application = get_wsgi_application()

# Django's checks do not run under gunicorn: refuse to start rather than fail every save.
from tournament.checks import sqlite_location_problem  # noqa: E402  (needs the settings loaded above)

if problem := sqlite_location_problem(settings.DATABASES["default"]):
    raise ImproperlyConfigured(problem)
