"""Calling time at a table beside its clock, on the round's page and the director's live view."""

import pytest
from django.urls import reverse

from tests.conftest import round_published, text_of
from tournament.models import LogEntry
from tournament.services import clock
from tournament.services.events import tournament_rules_set


@pytest.fixture
def timed(tournament, make_teams, sheet, staff):
    """Round 1 of four teams on a 40-minute clock, started; table 1 has two hands."""
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(round_minutes=40))
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    clock.round_clock_start(round=round_, actor=staff)
    table = round_.tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 4, "low", 10)
    return round_


@pytest.mark.parametrize("page", ["round", "round_live"])
def test_the_director_calls_time_at_a_table_beside_its_clock(director_client, tournament, timed, page):
    url = reverse(f"director:{page}", args=[tournament.slug, 1])
    html = director_client.get(url).content.decode()
    assert "Call time at table 1" in html and "Call time at table 2" in html
    call = reverse("director:table_clock", args=[tournament.slug, 1, 1])
    back = {"back": "live"} if page == "round_live" else {}
    response = director_client.post(call, {"action": "call_time", **back}, follow=True)
    assert response.redirect_chain[-1][0] == url, "back on the page it was called from"
    assert "Table 1: Time called after hand 2: both teams sign the sheet." in text_of(response)
    assert "Call time at table 1" not in text_of(response) and "Call time at table 2" in text_of(response)
    table = timed.tables.get(number=1)
    assert table.time_called_after == 2
    assert LogEntry.objects.get(table=table, action=LogEntry.Action.TIME_CALLED).actor_name == "director"
    response = director_client.post(call, {"action": "call_time", **back}, follow=True)
    assert "Time was already called at table 1." in text_of(response)


def test_a_scorekeeper_watching_the_round_is_offered_no_time_call_and_is_refused_one(client, scorekeeper, timed):
    client.force_login(scorekeeper)
    slug = timed.tournament.slug
    assert "Call time" not in client.get(reverse("director:round_live", args=[slug, 1])).content.decode()
    response = client.post(reverse("director:table_clock", args=[slug, 1, 1]), {"action": "call_time"})
    assert response.status_code == 403 and timed.tables.get(number=1).time_called_at is None
