"""The registration desk under pressure: a run of late teams, and a room of teams checked in at once."""

import pytest
from django.urls import reverse

from tests.conftest import text_of


def late_team(number: int) -> dict:
    return {"player1_name": f"Late {number}a", "player2_name": f"Late {number}b", "checked_in": "on"}


def test_register_and_add_another_keeps_the_check_in_tick_and_ends_back_at_the_desk(director_client, tournament):
    desk = reverse("director:desk", args=[tournament.slug])
    form = director_client.get(desk).content.decode()
    start = reverse("director:team_create", args=[tournament.slug])
    assert f"{start}?late=1&amp;next={desk}" in form, "the desk's *Add a late team*"
    url = f"{start}?late=1&next={desk}"
    for number in (1, 2):
        page = director_client.get(url)
        assert 'name="checked_in" id="id_checked_in" checked' in page.content.decode(), "ticked as at the start"
        assert f'name="next" value="{desk}"' in page.content.decode()
        response = director_client.post(url, {**late_team(number), "next": desk, "add_another": "1"})
        url = response["Location"]
        assert url.startswith(start), "the flow stays on the register form"
    response = director_client.post(url, {**late_team(3), "next": desk}, follow=True)
    assert response.redirect_chain[-1][0] == desk and "Team #3" in text_of(response)
    assert [team.checked_in for team in tournament.teams.order_by("number")] == [True, True, True]


def test_add_another_without_the_tick_leaves_the_next_form_unticked(director_client, tournament):
    url = reverse("director:team_create", args=[tournament.slug])
    data = {"player1_name": "Ann Lee", "player2_name": "Bo Jones", "add_another": "1"}
    response = director_client.post(url, data)
    assert response["Location"] == url
    assert 'id="id_checked_in" checked' not in director_client.get(url).content.decode()


def test_a_room_of_teams_checked_in_in_one_action_and_one_undone(director_client, tournament, make_teams):
    make_teams(tournament, 6, checked_in=False)
    desk = reverse("director:desk", args=[tournament.slug])
    page = director_client.get(desk)
    assert "Check in several teams at once (6 not here yet)" in text_of(page)
    url = reverse("director:desk_check_in", args=[tournament.slug])
    response = director_client.post(url, {"teams": ["2", "5"], "shown": [str(n) for n in range(1, 7)]}, follow=True)
    assert "2 team(s) checked in: #2, #5." in text_of(response)
    assert "Check in several teams at once (4 not here yet)" in text_of(response)

    shown = {"shown": ["1", "3"], "q": "player"}
    response = director_client.post(url, {**shown, "all": "1"}, follow=True)
    assert response.redirect_chain[-1][0] == f"{desk}?q=player", "the search kept"
    assert "2 team(s) checked in: #1, #3." in text_of(response), "*Check in all*: every team the desk listed"
    assert sorted(tournament.teams.filter(checked_in=True).values_list("number", flat=True)) == [1, 2, 3, 5]

    undo = reverse("director:desk_action", args=[tournament.slug, 3])
    assert director_client.post(undo, {"action": "check_out"}).status_code == 302
    assert sorted(tournament.teams.filter(checked_in=True).values_list("number", flat=True)) == [1, 2, 5]


def test_checking_in_nobody_or_a_withdrawn_team_is_refused_with_the_reason(director_client, tournament, make_teams):
    make_teams(tournament, 3, checked_in=False)
    url = reverse("director:desk_check_in", args=[tournament.slug])
    assert "Tick the teams to check in." in text_of(director_client.post(url, {"shown": ["1"]}, follow=True))
    assert "Team #9 is not here." in text_of(director_client.post(url, {"teams": ["9"]}, follow=True))
    director_client.post(reverse("director:desk_action", args=[tournament.slug, 3]), {"action": "withdraw"})
    response = director_client.post(url, {"teams": ["1", "3"]}, follow=True)
    assert "Team #3 is withdrawn: reinstate it first." in text_of(response)
    assert not tournament.teams.filter(checked_in=True).exists()


@pytest.mark.parametrize("who", [None, "scorekeeper"])
def test_only_a_director_checks_teams_in(client, tournament, make_teams, who, request):
    make_teams(tournament, 2, checked_in=False)
    if who:
        client.force_login(request.getfixturevalue(who))
    response = client.post(reverse("director:desk_check_in", args=[tournament.slug]), {"teams": ["1"], "all": "1"})
    assert response.status_code == (403 if who else 302)
    assert not tournament.teams.filter(checked_in=True).exists()
