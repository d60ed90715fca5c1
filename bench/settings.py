"""The app's settings with the benchmark commands installed: ``make bench`` and ``make bench-load`` run them
(``manage.py bench_scale --settings bench.settings``); the app itself never lists them among its commands."""

from tournament.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "bench"]  # noqa: F405
