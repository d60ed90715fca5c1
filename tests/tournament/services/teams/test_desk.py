import pytest

from tournament.errors import ServiceError
from tournament.models import LogEntry
from tournament.services.events import tournament_create
from tournament.services.teams import team_desk_update, teams_check_in


def test_a_room_of_teams_is_checked_in_at_once_each_logged(tournament, make_teams, staff):
    teams = make_teams(tournament, 5, checked_in=False)
    team_desk_update(team=teams[1], checked_in=True)
    arrived = teams_check_in(tournament=tournament, teams=[teams[3], teams[0], teams[1], teams[0]], actor=staff)
    assert [team.number for team in arrived] == [1, 4], "by number, once each; #2 was already here"
    assert list(tournament.teams.order_by("number").values_list("checked_in", flat=True)) == [1, 1, 0, 1, 0]
    logged = LogEntry.objects.filter(action=LogEntry.Action.DESK, actor_name="director").order_by("pk")
    assert [entry.summary for entry in logged] == [
        f"Team {teams[0]} at the desk: checked in",
        f"Team {teams[3]} at the desk: checked in",
    ]


def test_a_withdrawn_team_or_another_tournaments_refuses_the_whole_lot(tournament, make_teams):
    teams = make_teams(tournament, 3, checked_in=False)
    team_desk_update(team=teams[2], withdrawn=True)
    with pytest.raises(ServiceError, match=r"Team #3 is withdrawn: reinstate it first"):
        teams_check_in(tournament=tournament, teams=teams)
    other = tournament_create(event=tournament.event, name="Side Event", qualifying_rounds=3)
    with pytest.raises(ServiceError, match="is not in Side Event"):
        teams_check_in(tournament=other, teams=teams[:1])
    with pytest.raises(ServiceError, match="Tick the teams"):
        teams_check_in(tournament=tournament, teams=[])
    assert not tournament.teams.filter(checked_in=True).exists(), "nothing half-written"
