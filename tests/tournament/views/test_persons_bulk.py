"""Linking an event's players in one action from its *Players and persons* page."""

import pytest
from django.urls import reverse

from tests.conftest import text_of
from tournament.models import Person, Player


@pytest.fixture
def waiting(tournament, make_teams):
    """Four players: Player 0a and 1a each match one person known from before; 0b and 1b match nobody."""
    make_teams(tournament, 2)
    for name, city in (("Player 0a", "Detroit"), ("Player 1a", "Chicago")):
        Person.objects.create(name=name, city=city)
    return tournament.event


def test_every_suggestion_then_every_unmatched_player_in_two_actions(director_client, waiting):
    page = reverse("director:event_persons", args=[waiting.slug])
    shown = text_of(director_client.get(page))
    assert "Accept every suggestion (2 players with one)" in shown
    assert "Make every unmatched player a new person (2)" in shown
    url = reverse("director:event_persons_link_all", args=[waiting.slug])
    response = director_client.post(url, {"which": "suggested"}, follow=True)
    assert response.redirect_chain[-1][0] == page
    said = "Linked 2 player(s) to the one person suggested, each in the log; 2 still not linked."
    assert said in text_of(response)
    assert "Accept every suggestion" not in text_of(response)
    response = director_client.post(url, {"which": "new"}, follow=True)
    assert "Linked 2 player(s) each to a new person, each in the log." in text_of(response)
    assert not Player.objects.filter(event=waiting, person=None).exists()
    assert "0 of 4 not linked" in text_of(response) and "Make every unmatched" not in text_of(response)


def test_a_bulk_link_with_nothing_to_do_says_why(director_client, waiting):
    url = reverse("director:event_persons_link_all", args=[waiting.slug])
    director_client.post(url, {"which": "new"})
    response = director_client.post(url, {"which": "new"}, follow=True)
    assert "Every player waiting has a suggested person: choose among the suggestions below." in text_of(response)
    response = director_client.post(url, {"which": "everything"}, follow=True)
    assert "Choose what to link: every suggestion, or every unmatched player." in text_of(response)


@pytest.mark.parametrize("who", [None, "scorekeeper"])
def test_only_a_director_links_in_bulk(client, waiting, who, request):
    if who:
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("director:event_persons_link_all", args=[waiting.slug]), {"which": "new"})
    assert response.status_code == (403 if who else 302)
    assert not Player.objects.filter(event=waiting, person__isnull=False).exists()
