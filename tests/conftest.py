import os
import re
import signal
import threading
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction

from tests.venue import venue_command, venue_said_until_serving
from tournament.factories import EventFactory, TeamFactory, TournamentFactory
from tournament.roles import DIRECTORS, SCOREKEEPERS, role_groups_ensure


def round_published(tournament, method: str = "manual", **options):
    """The tournament's next round drawn (``method`` and the draw's ``options``) and published."""
    from tournament.services.draws import round_draw, round_publish

    return round_publish(round=round_draw(tournament=tournament, method=method, **options))


def text_of(response) -> str:
    """A page's text as a reader sees it: the tags dropped, white space folded."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# What the sheet helpers pass on as the change's context (``Sheet.context``) besides its reason.
CONTEXT_KEYS = {"actor", "user", "confirm_knock_on", "director_ruling"}
ENGINE_TESTS = Path(__file__).parent / "scoring"


@pytest.fixture(scope="session")
def static_collected():
    """The static files as production has them: collected by its storage (hashed names), served by whitenoise."""
    from tournament.management.venue import static_collect

    static_collect()


@pytest.fixture(scope="module", autouse=True)
def static_for_the_app(request):
    """Every module of the app's tests has the collected static files before its first page. The engine's tests
    (tests/scoring/) are plain Python, as scoring/ is: they neither collect them nor set up a database, so
    ``pytest tests/scoring`` runs in seconds on a fresh clone. A session-wide server requests ``static_collected``
    itself, since it reads the folder when it starts."""
    if not request.path.is_relative_to(ENGINE_TESTS):
        request.getfixturevalue("static_collected")


@pytest.fixture(scope="session")
def live_server(request, static_collected):
    """Django's live server as pytest-django starts it, but with static files served by the app's own whitenoise
    (from the collected files), as in production, rather than by the development handler."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("localhost", start=False)
    server.thread.static_handler = lambda application: application
    server.start()
    yield server
    server.stop()


def _user(username, *, staff=False, group=None):
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-123")
    user.is_staff = staff
    user.save()
    if group:
        user.groups.add(role_groups_ensure()[group])
    return user


def _test_database_url() -> str:
    from django.db import connection

    database = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{database['NAME']}"
    user = f"{database['USER']}:{database['PASSWORD']}@" if database["PASSWORD"] else f"{database['USER']}@"
    return f"postgresql://{user}{database['HOST']}:{database['PORT'] or 5432}/{database['NAME']}"


@pytest.fixture(scope="session")
def venue_server_session(django_db_setup, static_collected):
    """The venue's server started by ``manage.py venue`` (gunicorn, DEBUG off, the collected static files) on the
    test database; yields its address. The command's own director account has a name no test uses."""
    from tournament.management.gunicorn import free_port

    port = free_port()
    server = venue_command(port=port, database=_test_database_url(), username="venue-director")
    venue_said_until_serving(server)
    threading.Thread(target=server.stdout.read, daemon=True).start()
    yield f"http://127.0.0.1:{port}"
    os.killpg(server.pid, signal.SIGINT)
    server.wait(timeout=60)


@pytest.fixture
def venue_server(venue_server_session, transactional_db):
    """The venue's server for one test: what the test saves (committed) is what the server reads."""
    from django.core.cache import cache

    cache.clear()
    return venue_server_session


@pytest.fixture
def director(db):
    return _user("director", staff=True, group=DIRECTORS)


@pytest.fixture
def scorekeeper(db):
    return _user("keeper", staff=True, group=SCOREKEEPERS)


@pytest.fixture
def player_user(db):
    return _user("player")


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def spring_classic():
    """The tests' event: Spring Classic at the Hall, 1 to 3 May 2026."""
    return EventFactory.create(name="Spring Classic")


def main_event(event):
    """The tests' tournament: the Main Event of four qualifying rounds."""
    return TournamentFactory.create(event=event)


@pytest.fixture
def event(db):
    return spring_classic()


@pytest.fixture
def tournament(event):
    return main_event(event)


@pytest.fixture(scope="module")
def module_transaction(django_db_setup, django_db_blocker):
    """One transaction around a module's tests, rolled back after its last test, as Django's
    ``TestCase.setUpTestData`` has one around a class's: what a module-scoped fixture builds in it once is seen by
    every test, each test running in a savepoint of its own (pytest-django nests its atomic blocks), so no test
    sees another's writes. Only for modules without ``transactional_db`` tests (their flush would empty it)."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
    yield
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


@pytest.fixture(scope="session")
def make_teams():
    """Register ``count`` teams (``TeamFactory``; checked in unless told otherwise): team ``i`` is ``Player {i}a``
    and ``Player {i}b`` of one of four cities, ``i`` counted from ``start``."""

    def make(tournament, count, *, checked_in=True, start=0):
        return [
            TeamFactory.create(tournament=tournament, index=i, checked_in=checked_in)
            for i in range(start, start + count)
        ]

    return make


@pytest.fixture
def table(tournament, make_teams):
    """Table 1 of a published round 1: team #1 North–South (Player 0a North, 0b South), #2 East–West."""
    make_teams(tournament, 2)
    return round_published(tournament).tables.get(number=1)


@pytest.fixture(scope="session")
def sheet():
    """Helpers that enter a sheet through the services, always at the table's current version."""
    from tournament.services import sheets
    from tournament.services.log import TABLE_LINK, Actor

    class Sheet:
        def version(self, table):
            table.refresh_from_db()
            return table.version

        def context(self, table, *, actor=None, user=None, reason="", **flags):
            """A change at the table's current version by ``actor``, else by a logged-in ``user`` (staff), else
            by the table link."""
            actor = actor or (Actor.staff(user) if user is not None else TABLE_LINK)
            return sheets.ChangeContext(version=self.version(table), actor=actor, reason=reason, **flags)

        def _split(self, table, kwargs, reason="reason"):
            """The service's own keyword arguments, and the change's context made of the rest."""
            given = {
                "reason" if key == reason else key: kwargs.pop(key) for key in (CONTEXT_KEYS | {reason}) & set(kwargs)
            }
            return {**kwargs, "context": self.context(table, **given)}

        def hand(
            self, table, dealer, bidder, level, kind, books, suit="hearts", direction="", out_of_turn=False, **kwargs
        ):
            if kind == "nt":
                suit = ""
            entry = sheets.HandEntry(dealer, bidder, level, kind, books, suit, direction, out_of_turn)
            return sheets.hand_record(table=table, entry=entry, **self._split(table, kwargs))

        def redeal(self, table, dealer, reason="misdeal", team="", **kwargs):
            more = self._split(table, kwargs, reason="note")
            return sheets.redeal_record(table=table, dealer=dealer, reason=reason, team=team, **more)

        def penalty(self, table, **kwargs):
            return sheets.penalty_add(table=table, **self._split(table, kwargs))

        def sign(self, table, pair, player, **kwargs):
            """A player signs for their team with the team's code (the code on its check-in slip)."""
            kwargs.setdefault("code", table.seatings.get(pair=pair).team.code)
            return sheets.sheet_sign(table=table, pair=pair, player=player, **self._split(table, kwargs))

        def full_round(self, table):
            """North deals first: NS make 3 Uptown (+3), EW make 4 Downtown (+4), NS set on 2 Uptown (EW +2), EW make 1
            No Trump (+4)."""
            self.hand(table, "N", "N", 3, "high", 9)
            self.hand(table, "E", "E", 4, "low", 10)
            self.hand(table, "S", "S", 2, "high", 7)
            self.hand(table, "W", "W", 1, "nt", 8)
            table.refresh_from_db()
            return table

        def play(self, table, winner="NS", sign=True):
            """Four hands won 4–2 by ``winner`` (or a 4–4 tie), then both teams sign."""
            loser = {"NS": "EW", "EW": "NS"}.get(winner)
            seat = {"NS": "N", "EW": "E"}
            if winner == "tie":
                plan = [("N", "N", 3), ("E", "E", 3), ("S", "S", 1), ("W", "W", 1)]
            else:
                plan = [("N", seat[winner], 3), ("E", seat[loser], 1), ("S", seat[winner], 1), ("W", seat[loser], 1)]
            for dealer, bidder, level in plan:
                self.hand(table, dealer, bidder, level, "high", 6 + level)
            if sign:
                self.sign_both(table)
            table.refresh_from_db()
            return table

        def sign_both(self, table):
            for pair in ("NS", "EW"):
                self.sign(table, pair, table.team_at(pair).members[0].player)

    return Sheet()


@pytest.fixture
def big_field():
    """A large field in bulk, for query-count tests: ``teams`` checked-in teams, then ``rounds`` rounds drawn,
    published and recorded as signed (the stored totals a signed sheet leaves; no hands)."""
    from bench.fields import entries, rounds_signed, teams_bulk

    def build(tournament, teams, *, rounds=1):
        created = teams_bulk(tournament, entries(teams, label=tournament.slug))
        rounds_signed(tournament, rounds, hands=False)
        return created

    return build


@pytest.fixture
def staff(director):
    """The director as the services name who acted."""
    from tournament.services.log import Actor

    return Actor.staff(director)
