"""Closing qualifying from the tournament's page (its next step; the page itself: tests/tournament/days)."""

import pytest
from django.urls import reverse

from tests.tournament.services.test_draws_closing import three_played  # noqa: F401 (a fixture)
from tournament.models import Round


@pytest.mark.parametrize("who", [None, "scorekeeper"])
def test_only_a_director_closes_qualifying(client, tournament, three_played, who, request):  # noqa: F811
    if who:
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("director:qualifying_close", args=[tournament.slug]))
    assert response.status_code == (403 if who else 302)
    assert not tournament.rounds.filter(status=Round.Status.CLOSED).exists()
