"""The same director form posted from two desks at the same moment (two forms drawn, each with its own token):
never a server error; one desk does it, the other is told what was done. On PostgreSQL both posts really run at
once; each service's insert waits at a barrier for the other desk, so both have made their checks first."""

import contextlib
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.series import SERIES_POINTS_DEFAULT
from tests.conftest import round_published
from tests.tournament.views.test_refusals import text_of
from tournament.models import LogEntry, PersonRating, Series, SitOut, Substitute, Team
from tournament.services import persons
from tournament.services import series as series_services

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="two desks at once need PostgreSQL")


def at_once(director, monkeypatch, model, posts: list[tuple[str, dict]]) -> list:
    """Post each of ``posts`` from its own desk, at the same moment; the pages they land on. ``model``'s
    inserts wait (a short while) for the other desk to reach its insert too."""
    barrier = threading.Barrier(len(posts), timeout=3)
    create = model.objects.bulk_create if model is PersonRating else model.objects.create
    manager = type(model.objects)

    def waiting(self, *args, **kwargs):
        # The other desk may wait for this one's lock: then it never reaches its insert.
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()
        return create.__func__(self, *args, **kwargs)

    monkeypatch.setattr(manager, create.__name__, waiting)
    answers = [None] * len(posts)

    def desk(index, url, data):
        client = Client(raise_request_exception=False)
        client.force_login(director)
        response = client.post(url, data)
        landed = client.get(response["Location"]) if response.status_code == 302 else response
        answers[index] = (response.status_code, text_of(landed.content.decode()))
        connection.close()

    threads = [threading.Thread(target=desk, args=(i, *post)) for i, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.fixture
def drawn(transactional_db, tournament, make_teams, sheet):
    """Four teams; round 1 published, table 2 played out and signed."""
    make_teams(tournament, 4)
    round_1 = round_published(tournament)
    sheet.play(round_1.tables.get(number=2), "NS")
    return tournament


def assert_one_did_it(answers, done: str, told: str):
    assert all(status < 500 for status, _ in answers), f"a desk was not answered: {answers}"
    pages = [page for _, page in answers]
    assert sum(done in page for page in pages) == 1, pages
    assert sum(told in page for page in pages) == 1, pages


def test_a_sit_out_from_two_desks(director, drawn, monkeypatch):
    post = (reverse("director:sit_out", args=[drawn.slug]), {"team": "3", "reason": "late"})
    answers = at_once(director, monkeypatch, SitOut, [post, post])
    assert SitOut.objects.count() == 1
    assert_one_did_it(answers, "Player 2b sits out round 2", "Player 2b already sits out round 2")


def test_a_substitute_from_two_desks(director, drawn, monkeypatch):
    team = drawn.teams.get(number=1)
    url = reverse("director:substitute_add", args=[drawn.slug, 1])
    post = (url, {"replaces": str(team.members[0].player.pk), "name": "Jo"})
    answers = at_once(director, monkeypatch, Substitute, [post, post])
    assert Substitute.objects.count() == 1
    assert_one_did_it(answers, "Jo plays Round 1 for Player 0a", "already plays round 1 with a substitute")


def test_a_series_created_from_two_desks(director, drawn, monkeypatch):
    points = {key: str(value) for key, value in SERIES_POINTS_DEFAULT.items()}
    post = (reverse("director:series"), {"name": "Spring", **points})
    answers = at_once(director, monkeypatch, Series, [post, post])
    assert Series.objects.count() == 1
    assert_one_did_it(answers, "created", "There is already a series named Spring.")


def test_ratings_recomputed_from_two_desks(director, drawn, monkeypatch):
    for team in drawn.teams.all():
        for member in team.members:
            persons.player_link(player=member.player)
    post = (reverse("director:ratings_recompute"), {})
    answers = at_once(director, monkeypatch, PersonRating, [post, post])
    assert all(status == 302 for status, _ in answers), answers
    assert PersonRating.objects.count() == 4, "the four players of the signed table, rated once"
    assert LogEntry.objects.filter(action=LogEntry.Action.RATINGS_RECOMPUTED).count() == 2


def test_a_team_registered_from_two_desks(director, drawn, monkeypatch):
    """Registrations of one tournament take turns: the second desk is told the number is the first's team's."""
    url = reverse("director:team_create", args=[drawn.slug])
    post = (url, {"player1_name": "Ann Lee", "player2_name": "Bo Ray", "number": "9"})
    answers = at_once(director, monkeypatch, Team, [post, post])
    assert drawn.teams.filter(number=9).count() == 1 and drawn.teams.count() == 5
    assert_one_did_it(answers, "Team #9 Ann Lee & Bo Ray registered.", "Team number 9 is taken in this tournament.")


def test_a_clash_no_lock_foresaw_is_refused_not_a_server_error(director, drawn, monkeypatch):
    """Without the series' own check, the unique name stored first by the other desk: the second is refused."""
    monkeypatch.setattr(series_services, "_name_free", lambda name, series=None: None)
    monkeypatch.setattr(series_services, "IntegrityError", type("Unforeseen", (Exception,), {}))
    points = {key: str(value) for key, value in SERIES_POINTS_DEFAULT.items()}
    post = (reverse("director:series"), {"name": "Spring", **points})
    answers = at_once(director, monkeypatch, Series, [post, post])
    assert Series.objects.count() == 1
    assert_one_did_it(answers, "created", "was being saved from another desk or phone at that moment")
