"""The factories the demo, the tests and the benchmarks make their data with (tournament/factories.py)."""

from bench.fields import entries
from tournament.factories import TeamFactory, TournamentFactory
from tournament.models import LogEntry


def test_a_factory_team_is_registered_as_the_desk_registers_one(db):
    """Through team_register: numbered, given a code, checked in and logged, its players named by its index."""
    team = TeamFactory.create(tournament=TournamentFactory.create(), index=5)
    assert team.player_name_list == ["Player 5a", "Player 5b"]
    assert (team.number, team.checked_in, len(team.code) > 0) == (1, True, True)
    assert team.log.filter(action=LogEntry.Action.TEAM_REGISTERED).count() == 1


def test_teams_made_one_after_another_never_share_a_player(db):
    """Left to the sequence, each team has two players of its own (no registration refused as a clash)."""
    teams = TeamFactory.create_batch(3, tournament=TournamentFactory.create())
    assert len({name for team in teams for name in team.player_name_list}) == 6


def test_a_bulk_field_names_its_players_as_the_factory_does(db):
    """The benchmarks' bulk fields and the tests' teams are the same players."""
    tournament = TournamentFactory.create()
    made = TeamFactory.create(tournament=tournament, index=3, label="Field")
    assert [(entry.name, entry.city) for entry in entries(4, label="Field")[6:]] == [
        (member.player.name, member.player.city) for member in made.members
    ]
