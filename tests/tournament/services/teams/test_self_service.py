"""Teams help themselves on their own page, opened with the team code: "we're here" (the desk sees who checked
themselves in), "withdraw after this round" (a request the director confirms), a banner when the team's next
table is out, the clock, and the seat each player takes."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournament.errors import ServiceError
from tournament.models import LogEntry
from tournament.services.draws import round_draw, round_publish
from tournament.services.log import Actor
from tournament.services.teams import team_self_check_in, team_withdraw_request


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def teams(tournament, make_teams):
    return make_teams(tournament, 4, checked_in=False)


def opened(client, team):
    client.post(reverse("team_open"), {"code": team.code})
    return reverse("team_page", args=[team.pk])


def test_a_team_checks_itself_in_and_the_desk_sees_it(client, director_client, tournament, teams):
    team = teams[0]
    page = opened(client, team)
    said = text_of(client.post(reverse("team_here", args=[team.pk]), follow=True))
    assert "Checked in: the desk sees your team is here." in said and "We're here" not in said
    team.refresh_from_db()
    assert team.checked_in and team.self_checked_in_at is not None
    assert LogEntry.objects.get(action=LogEntry.Action.SELF_CHECK_IN).who == "team #1"
    assert "Checked in by the team itself" in text_of(
        director_client.get(reverse("director:desk", args=[tournament.slug]))
    )
    assert "Checked in" in text_of(client.get(page))


def _public_says(tournament, team) -> tuple[str, list[dict], dict]:
    """What anyone sees of the team: its public pages' text, the API's teams and the API's team record."""
    public = Client()
    pages = [
        reverse("public:team", args=[tournament.slug, team.number]),
        reverse("public:standings", args=[tournament.slug]),
        reverse("public:tournament", args=[tournament.slug]),
        reverse("public:draw", args=[tournament.slug]),
    ]
    text = " ".join(text_of(public.get(page)) for page in pages)
    teams = public.get(f"/api/v1/tournaments/{tournament.slug}/teams").json()
    record = public.get(f"/api/v1/tournaments/{tournament.slug}/teams/{team.number}").json()
    return text, teams, record


def test_a_team_asks_to_withdraw_and_only_the_director_s_confirmation_is_public(
    client, director_client, tournament, teams
):
    """The request is the team's and the desk's until the director confirms it; then the team has withdrawn,
    which every public surface says."""
    team = teams[1]
    page = opened(client, team)
    said = text_of(client.post(reverse("team_withdraw", args=[team.pk]), follow=True))
    assert "Withdrawing after this round" in said
    team.refresh_from_db()
    assert not team.withdrawn and team.withdraw_requested_at is not None
    desk = reverse("director:desk", args=[tournament.slug])
    assert "Asks to withdraw after this round" in text_of(director_client.get(desk))
    text, api_teams, record = _public_says(tournament, team)
    assert "withdraw" not in text.lower() and "withdraw" not in json.dumps(record).replace('"withdrawn": false', "")
    assert [{key for key in entry if "withdraw" in key} for entry in api_teams] == [{"withdrawn"}] * len(teams)
    assert not any(entry["withdrawn"] for entry in api_teams)

    director_client.post(reverse("director:desk_action", args=[tournament.slug, team.number]), {"action": "withdraw"})
    team.refresh_from_db()
    assert team.withdrawn
    text, api_teams, record = _public_says(tournament, team)
    assert "Withdrawn" in text and record["team"]["withdrawn"] is True
    assert [entry["number"] for entry in api_teams if entry["withdrawn"]] == [team.number]
    assert "Withdrawn" in text_of(client.get(page))


def test_refusals_of_a_teams_own_requests(teams):
    team = teams[0]
    actor = Actor.team(team)
    team_self_check_in(team=team, actor=actor)
    with pytest.raises(ServiceError, match="already checked in"):
        team_self_check_in(team=team, actor=actor)
    team_withdraw_request(team=team, actor=actor)
    with pytest.raises(ServiceError, match="already asked to withdraw"):
        team_withdraw_request(team=team, actor=actor)


def test_another_phone_without_the_code_is_refused(client, teams):
    team = teams[0]
    assert client.post(reverse("team_here", args=[team.pk])).status_code == 404
    team.refresh_from_db()
    assert not team.checked_in


def test_the_next_table_comes_with_a_banner_once(client, tournament, teams):
    team = teams[0]
    page = opened(client, team)
    for other in teams:
        other.checked_in = True
        other.save()
    assert 'data-alert="new-table"' not in client.get(page).content.decode()
    round_publish(round=round_draw(tournament=tournament, method="manual"))
    shown = client.get(page)
    assert 'data-alert="new-table"' in shown.content.decode()
    assert "Round 1 is out: your team plays at table 1 " in text_of(shown)
    assert 'data-alert="new-table"' not in client.get(page).content.decode()
    said = text_of(client.get(page))
    assert "North: Player 0a" in said and "South: Player 0b" in said
