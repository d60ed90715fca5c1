"""Ratings count in a tournament only where the director chooses: seeding round 1 and the last tie-break."""

import pytest
from django.urls import reverse

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import Person, PersonRating, Player
from tournament.selectors.standings import tournament_standings
from tournament.services.draws import round_draw
from tournament.services.persons import player_link
from tournament.services.ratings import tournament_rating_tie_break


def _rate(name, rating):
    person = player_link(player=Player.objects.get(name=name))
    PersonRating.objects.create(person=person, rating=rating, deviation=80, rounds=5, computed_at="2026-01-01T00:00Z")
    return person


def test_round_one_seeded_by_rating_only_when_asked(tournament, make_teams):
    make_teams(tournament, 4)
    with pytest.raises(ServiceError, match="No team has a rating yet"):
        round_draw(tournament=tournament, method="swiss", by_rating=True)
    _rate("Player 3a", 1900)  # team 4 strongest
    _rate("Player 1a", 1700)  # team 2
    _rate("Player 0a", 1500)  # team 1; team 3 unrated
    round_ = round_draw(tournament=tournament, method="swiss", by_rating=True)
    tables = [sorted(s.team.number for s in table.seatings.all()) for table in round_.tables.order_by("number")]
    assert tables == [[1, 4], [2, 3]], "4 (1900) v 1 (1500), 2 (1700) v 3 (unrated)"
    assert "seeded by rating" in round_.tournament.log.latest("pk").summary
    plain = round_draw(tournament=tournament, method="swiss")
    tables = [sorted(s.team.number for s in table.seatings.all()) for table in plain.tables.order_by("number")]
    assert tables != [[1, 4], [2, 3]], "without the choice, ratings play no part"


def test_seeding_by_rating_is_for_round_one_swiss(tournament, make_teams):
    make_teams(tournament, 4)
    _rate("Player 0a", 1600)
    with pytest.raises(ServiceError, match="round 1, drawn Swiss"):
        round_draw(tournament=tournament, method="random", by_rating=True)
    round_published(tournament, method="random", seed=1)
    with pytest.raises(ServiceError, match="round 1, drawn Swiss"):
        round_draw(tournament=tournament, method="swiss", by_rating=True, override_unsigned=True)


def test_ratings_break_ties_last_when_the_director_chooses(tournament, make_teams):
    make_teams(tournament, 3)
    before = [(str(row.place), row.team.number) for row in tournament_standings(tournament)]
    assert before == [("T-1", 1), ("T-1", 2), ("T-1", 3)]
    _rate("Player 2a", 1800)
    _rate("Player 1a", 1600)
    assert [str(row.place) for row in tournament_standings(tournament)] == ["T-1"] * 3, "never by default"
    tournament_rating_tie_break(tournament=tournament, on=True)
    tournament.refresh_from_db()
    after = [(str(row.place), row.team.number) for row in tournament_standings(tournament)]
    assert after == [("1", 3), ("2", 2), ("3", 1)]
    assert Person.objects.count() == 2


def test_the_ratings_page_is_for_directors(client, scorekeeper, director, tournament):
    address = reverse("director:tournament_ratings", args=[tournament.slug])
    assert client.post(address, {"on": "1"}).status_code == 302
    client.force_login(scorekeeper)
    assert client.post(address, {"on": "1"}).status_code == 403
    tournament.refresh_from_db()
    assert not tournament.rating_breaks_ties
    client.force_login(director)
    assert client.get(address).status_code == 200
    client.post(address, {"on": "1"})
    tournament.refresh_from_db()
    assert tournament.rating_breaks_ties
