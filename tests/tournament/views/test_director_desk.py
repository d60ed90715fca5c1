"""The registration desk under pressure: a run of late teams, and a room of teams checked in at once."""

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
