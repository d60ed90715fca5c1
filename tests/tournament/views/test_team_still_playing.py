"""A round published with the logged override while a table of the previous round still plays: that table's
teams see their unsigned sheet first, and the tournament's next step names every unsigned table."""

import re

import pytest
from django.urls import reverse

from tests.conftest import round_published, text_of
from tests.tournament.views.test_team import open_team
from tournament.services.draws import round_draw, round_publish


def next_step(client, tournament):
    page = client.get(reverse("director:tournament", args=[tournament.slug])).content.decode()
    return re.search(r"<p><strong>Next:</strong> (.*?)</p>", page).group(1)


@pytest.fixture
def overridden(tournament, make_teams, sheet):
    """Round 1: table 1 signed, table 2 (teams #3 and #4) still playing; round 2 published over it."""
    teams = make_teams(tournament, 4)
    first = round_published(tournament, method="manual", pairs="1 2\n3 4")
    sheet.play(first.tables.get(number=1), "NS")
    sheet.hand(first.tables.get(number=2), "N", "N", 3, "high", 9)
    draft = round_draw(tournament=tournament, method="manual", pairs="3 1\n4 2", override_unsigned=True)
    second = round_publish(round=draft, override_unsigned=True)
    return teams, first, second


def test_a_team_still_playing_sees_its_unsigned_sheet_before_its_next_table(client, overridden, sheet):
    teams, first, _ = overridden
    page = open_team(client, teams[2])
    html = text_of(client.get(page))
    assert "Round 1 · Table 2" in html and "Against #4" in html
    assert html.index("Round 1 · Table 2") < html.index("Finish and sign this sheet first")
    assert "next, your team plays at table 1 , North–South, against #1" in html
    unsigned = first.tables.get(number=2)
    sheet.hand(unsigned, "E", "E", 4, "low", 10)
    sheet.hand(unsigned, "S", "S", 2, "high", 8)
    sheet.hand(unsigned, "W", "W", 1, "nt", 7)
    unsigned.refresh_from_db()
    player = teams[2].memberships.order_by("position").first().player
    signed = client.post(
        reverse("team_sign", args=[teams[2].pk]), {"version": unsigned.version, "player": player.pk}, follow=True
    )
    assert "Signed by Player 2a for your team" in text_of(signed), "the team signs the sheet it still plays"
    assert unsigned.signatures.filter(pair="NS").exists()


def test_a_team_whose_sheet_is_signed_sees_its_next_table(client, overridden):
    teams, _, _ = overridden
    html = text_of(client.get(open_team(client, teams[0])))
    assert "Round 2 · Table 1" in html and "Finish and sign this sheet first" not in html


def test_the_next_step_names_every_unsigned_table_of_every_round(director_client, tournament, overridden, sheet):
    _, _, second = overridden
    assert next_step(director_client, tournament) == (
        "Round 2 is being played: 0 of 2 sheets signed. Not signed yet: round 1 table 2 and round 2 tables 1 and 2."
    )
    for table in second.tables.all():
        sheet.play(table, "NS")
    assert next_step(director_client, tournament) == "Round 1 is still being played. Not signed yet: round 1 table 2."
