"""Substitutes: the director approves one for one player of a team for one round; the other player stays. The
sheet, the table page's seats, the team's page, the history, the archive and the API name the substitute for that
round only."""

import json
import re

import pytest
from django.urls import reverse

from tests.tournament.test_printing import pdf_pages
from tournament.errors import ServiceError
from tournament.models import LogEntry, Substitute
from tournament.printing import round_sheets_pdf
from tournament.services.absence import substitute_approve, substitute_remove
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw, round_publish


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def round_1(tournament, make_teams):
    make_teams(tournament, 4)
    return round_publish(round=round_draw(tournament=tournament, method="manual"))


@pytest.fixture
def jo(tournament, round_1, staff):
    """Jo Lee plays round 1 for Player 0b (team #1, South at table 1)."""
    team = tournament.teams.get(number=1)
    return substitute_approve(
        team=team, round=round_1, replaces=team.members[1].player, name="  Jo   Lee ", reason="Flight late", actor=staff
    )


def test_the_substitute_takes_the_players_seat_for_that_round_only(client, tournament, round_1, jo, sheet):
    table = round_1.tables.get(number=1)
    said = text_of(client.get(reverse("table", args=[table.secret])))
    assert "South: Jo Lee (substitute for Player 0b)" in said and "North: Player 0a" in said
    for played in round_1.tables.all():
        sheet.play(played)
    round_2 = round_publish(round=round_draw(tournament=tournament, method="manual"))
    other = round_2.seatings.get(team__number=1).table
    assert "Jo Lee" not in text_of(client.get(reverse("table", args=[other.secret])))
    entry = LogEntry.objects.get(action=LogEntry.Action.SUBSTITUTE)
    assert entry.summary == f"{jo.team}, round 1: Jo Lee plays for Player 0b" and entry.reason == "Flight late"


def test_the_seat_buttons_name_the_substitute_not_the_player_replaced(client, round_1, jo):
    table = round_1.tables.get(number=1)
    page = client.get(reverse("table", args=[table.secret])).content.decode()
    first_dealer_buttons = page[page.index('name="first-seat"') - 200 :]
    assert "Jo Lee</small>" in first_dealer_buttons and "Player 0b</small>" not in first_dealer_buttons
    client.post(reverse("table_first_dealer", args=[table.secret]), {"first-seat": "S", "first-version": table.version})
    said = text_of(client.get(reverse("table", args=[table.secret])))
    assert "dealer: South (Jo Lee)" in said


def test_only_a_team_at_a_table_of_the_round_has_a_substitute(director_client, tournament, round_1, make_teams, staff):
    late = make_teams(tournament, 1, start=4)[0]
    with pytest.raises(ServiceError, match="has no table in round 1: a substitute plays at the team's table"):
        substitute_approve(team=late, round=round_1, replaces=late.members[0].player, name="Sam", actor=staff)
    assert Substitute.objects.count() == 0
    page = director_client.get(reverse("director:round", args=[tournament.slug, 1])).content.decode()
    assert "#1: Player 0a" in page and "Player 4a" not in page


def test_at_least_one_own_player_stays(tournament, round_1, jo, staff):
    team = jo.team
    with pytest.raises(ServiceError, match="already plays round 1 with a substitute: at least one of its own players"):
        substitute_approve(team=team, round=round_1, replaces=team.members[0].player, name="Sam", actor=staff)
    other = tournament.teams.get(number=2)
    with pytest.raises(ServiceError, match="is not a player of"):
        substitute_approve(team=other, round=round_1, replaces=team.members[0].player, name="Sam", actor=staff)
    with pytest.raises(ServiceError, match="Give the substitute's name") as refused:
        substitute_approve(team=other, round=round_1, replaces=other.members[0].player, name="  ", actor=staff)
    assert refused.value.field == "name"
    assert Substitute.objects.count() == 1


def test_no_substitute_change_on_a_signed_sheet(tournament, round_1, jo, sheet, staff):
    sheet.play(round_1.tables.get(number=1))
    with pytest.raises(ServiceError, match="signed"):
        substitute_remove(substitute=jo, actor=staff)
    team = tournament.teams.get(number=2)
    with pytest.raises(ServiceError, match="signed"):
        substitute_approve(team=team, round=round_1, replaces=team.members[0].player, name="Sam", actor=staff)


def test_the_director_approves_and_takes_back_from_the_round_page(director_client, tournament, round_1):
    player = tournament.teams.get(number=3).members[0].player
    url = reverse("director:substitute_add", args=[tournament.slug, 1])
    response = director_client.post(url, {"replaces": player.pk, "name": "Ann Roe", "reason": "Ill"}, follow=True)
    said = text_of(response)
    assert "Ann Roe plays Round 1 for Player 2a." in said and "#3: Ann Roe for Player 2a · Ill" in said
    substitute = Substitute.objects.get()
    remove = reverse("director:substitute_remove", args=[tournament.slug, 1, substitute.pk])
    assert "Player 2a plays for" in text_of(director_client.post(remove, follow=True))
    assert not Substitute.objects.exists()


def test_only_the_director_approves(client, scorekeeper, tournament, round_1):
    client.force_login(scorekeeper)
    player = tournament.teams.get(number=3).members[0].player
    url = reverse("director:substitute_add", args=[tournament.slug, 1])
    assert client.post(url, {"replaces": player.pk, "name": "Ann"}).status_code == 403
    assert not Substitute.objects.exists()


def test_the_team_page_the_api_the_sheet_and_the_archive_name_the_substitute(client, tournament, round_1, jo, sheet):
    team = jo.team
    client.post(reverse("team_open"), {"code": team.code})
    assert "South: Jo Lee (substitute for Player 0b)" in text_of(client.get(reverse("team_page", args=[team.pk])))
    rounds = client.get(f"/api/v1/tournaments/{tournament.slug}/rounds").json()
    assert rounds[0]["substitutes"] == [{"team": 1, "replaces": "Player 0b", "name": "Jo Lee"}]
    page = pdf_pages(round_sheets_pdf(round_1, blank=True, base_url="http://127.0.0.1:8000/"))[0]
    assert "South: Jo Lee (substitute for Player 0b)" in " ".join(page.split())
    exported = event_export(tournament.event)
    tournament.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported)))
    assert event_export(imported) == exported
    again = Substitute.objects.get(round__tournament__event=imported)
    assert (again.name, again.replaces.name, again.team.number, again.round.number) == ("Jo Lee", "Player 0b", 1, 1)
