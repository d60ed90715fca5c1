"""A wrong code typed to open a team's page comes back empty and focused, with the reason beside it."""

from django.urls import reverse

from tests.conftest import text_of
from tests.tournament.views.test_table_wrong_code import code_input


def test_a_wrong_code_opening_the_team_page_is_emptied_and_focused(client, tournament, make_teams):
    make_teams(tournament, 2)
    response = client.post(reverse("team_open"), {"code": "AAAAAA"})
    html = response.content.decode()
    field = code_input(html, "code")
    assert "AAAAAA" not in html and 'value="' not in field and "autofocus" in field
    assert "That is not a team code" in text_of(response)
