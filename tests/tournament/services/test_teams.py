import pytest
from django.db import IntegrityError, transaction

from tournament.errors import ServiceError
from tournament.models import Player, TeamMember
from tournament.services.events import tournament_create
from tournament.services.teams import PlayerEntry, team_desk_update, team_register, team_update

ANN, BO, CY, DEE = (
    PlayerEntry("Ann Lee", "Detroit", "555-0101"),
    PlayerEntry("Bo Jones", "Detroit"),
    PlayerEntry("Cy Young", "Chicago"),
    PlayerEntry("Dee Brooks", "Chicago"),
)


def test_register_a_team(tournament):
    team = team_register(tournament=tournament, players=[ANN, BO], fee_paid=True)
    assert team.number == 1
    assert team.display_name == "Ann Lee & Bo Jones"
    assert team.city == "Detroit"
    assert team.fee_paid and not team.checked_in
    assert [member.player.name for member in team.members] == ["Ann Lee", "Bo Jones"]
    assert team_register(tournament=tournament, players=[CY, DEE], name="Windy City").number == 2


def test_names_are_tidied_and_players_found_again_by_name_and_city(tournament, event):
    team_register(tournament=tournament, players=[PlayerEntry("  ann   lee ", "detroit"), BO])
    other = tournament_create(event=event, name="1st tournament")
    team_register(tournament=other, players=[ANN, CY])
    assert Player.objects.filter(event=event, name__iexact="ann lee").count() == 1
    assert Player.objects.get(name__iexact="ann lee").phone == "555-0101"


def test_a_player_may_enter_several_tournaments_with_other_partners(tournament, event):
    team_register(tournament=tournament, players=[ANN, BO])
    other = tournament_create(event=event, name="1st tournament")
    team = team_register(tournament=other, players=[ANN, CY])
    assert team.player_names == "Ann Lee & Cy Young"


def test_a_player_is_never_on_two_teams_of_one_tournament(tournament):
    team_register(tournament=tournament, players=[ANN, BO])
    with pytest.raises(ServiceError, match="Ann Lee already plays on team #1") as refused:
        team_register(tournament=tournament, players=[CY, ANN])
    assert refused.value.field == "player2_name"
    assert tournament.teams.count() == 1


def test_the_database_itself_refuses_a_player_on_two_teams(tournament):
    first = team_register(tournament=tournament, players=[ANN, BO])
    second = team_register(tournament=tournament, players=[CY, DEE])
    ann = first.members[0].player
    with pytest.raises(IntegrityError), transaction.atomic():
        TeamMember.objects.create(tournament=tournament, team=second, player=ann, position=1)


def test_a_team_is_two_different_players(tournament):
    with pytest.raises(ServiceError, match="two different players"):
        team_register(tournament=tournament, players=[ANN, PlayerEntry("ann lee", "DETROIT")])
    with pytest.raises(ServiceError, match="two players' names") as refused:
        team_register(tournament=tournament, players=[ANN, PlayerEntry("  ")])
    assert refused.value.field == "player2_name"


def test_team_numbers_are_unique(tournament):
    team_register(tournament=tournament, players=[ANN, BO], number=7)
    with pytest.raises(ServiceError, match="Team number 7 is taken") as refused:
        team_register(tournament=tournament, players=[CY, DEE], number=7)
    assert refused.value.field == "number"
    assert team_register(tournament=tournament, players=[CY, DEE]).number == 8


def test_team_update_renames_a_player_and_changes_the_team(tournament):
    team = team_register(tournament=tournament, players=[ANN, BO])
    team_update(team=team, players=[PlayerEntry("Ann Leigh", "Detroit"), BO], name="Aces", city="Motor City")
    team.refresh_from_db()
    assert team.name == "Aces" and team.city == "Motor City"
    assert sorted(member.player.name for member in team.memberships.all()) == ["Ann Leigh", "Bo Jones"]
    assert Player.objects.filter(name="Ann Lee").count() == 0


def test_team_update_refuses_a_player_of_another_team(tournament):
    team = team_register(tournament=tournament, players=[ANN, BO])
    team_register(tournament=tournament, players=[CY, DEE])
    with pytest.raises(ServiceError, match="Cy Young already plays on team #2"):
        team_update(team=team, players=[ANN, CY])
    assert team.player_names == "Ann Lee & Bo Jones"


def test_the_desk_switches(tournament):
    team = team_register(tournament=tournament, players=[ANN, BO])
    team_desk_update(team=team, checked_in=True, fee_paid=True, side_pot=True)
    team.refresh_from_db()
    assert team.checked_in and team.fee_paid and team.side_pot
    team_desk_update(team=team, withdrawn=True)
    team.refresh_from_db()
    assert team.withdrawn and not team.checked_in and team.fee_paid
    team_desk_update(team=team, withdrawn=False)
    team.refresh_from_db()
    assert not team.withdrawn


def test_a_name_with_a_right_to_left_override_is_refused_beside_its_field(tournament):
    from tournament.errors import ServiceError

    with pytest.raises(ServiceError) as refused:
        team_register(tournament=tournament, players=[PlayerEntry("Ann"), PlayerEntry("\u202enhoJ")])
    assert refused.value.field == "player2_name" and "reverses or hides text" in refused.value.message
    registered = team_register(tournament=tournament, players=[PlayerEntry("عائشة"), PlayerEntry("Zoë\tBrown")])
    assert registered.player_names == "عائشة & Zoë Brown", "right-to-left scripts and spacing stay welcome"
