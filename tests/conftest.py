import datetime

import pytest
from django.contrib.auth import get_user_model

from tournament.roles import DIRECTORS, SCOREKEEPERS, role_groups_ensure
from tournament.services.events import event_create, tournament_create
from tournament.services.teams import PlayerEntry, team_register

CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis"]


def _user(username, *, staff=False, group=None):
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-123")
    user.is_staff = staff
    user.save()
    if group:
        user.groups.add(role_groups_ensure()[group])
    return user


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


@pytest.fixture
def event(db):
    return event_create(
        name="Spring Classic", venue="Hall", starts_on=datetime.date(2026, 5, 1), ends_on=datetime.date(2026, 5, 3)
    )


@pytest.fixture
def tournament(event):
    return tournament_create(event=event, name="Main Event", qualifying_rounds=4)


@pytest.fixture
def make_teams():
    """Register ``count`` teams (checked in unless told otherwise) with players from four cities."""

    def make(tournament, count, *, checked_in=True, start=0):
        teams = []
        for i in range(start, start + count):
            city = CITIES[i % len(CITIES)]
            players = [PlayerEntry(f"Player {i}a", city), PlayerEntry(f"Player {i}b", city)]
            teams.append(team_register(tournament=tournament, players=players, checked_in=checked_in))
        return teams

    return make
