"""The action log: every service writes who did what, and the director reads it by round and team."""

import pytest
from django.urls import reverse

from scoring import Absent
from tests.conftest import round_published, text_of
from tournament.forms import WRONG_CHOICE
from tournament.models import LogEntry
from tournament.services.absence import table_forfeit_declare
from tournament.services.draws import draw_teams_swap, round_draw, round_publish
from tournament.services.events import announcement_post, announcement_remove, tournament_rules_set
from tournament.services.log import Actor
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.teams import team_desk_update


def actions(tournament):
    return list(LogEntry.objects.filter(tournament=tournament).order_by("pk").values_list("action", flat=True))


def test_a_tournament_from_registration_to_champion_is_in_the_log(director, tournament, make_teams, sheet):
    staff = Actor.staff(director)
    teams = make_teams(tournament, 4, checked_in=False)
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(boston_multiplier=2), actor=staff)
    for team in teams:
        team_desk_update(team=team, checked_in=True, fee_paid=True, actor=staff)
    draft = round_draw(tournament=tournament, method="manual", actor=staff)
    a, b = teams[0], teams[2]
    draw_teams_swap(round=draft, team_a=a, team_b=b, actor=staff)
    round_publish(round=draft, actor=staff)
    announcement_post(tournament=tournament, text="Round 1 is on", actor=staff)
    for table in draft.tables.all():
        sheet.play(table, "NS")
    playoff_seed(tournament=tournament, teams=2, actor=staff)
    playoff_publish(tournament=tournament, actor=staff)
    final = tournament.playoff_matches.get()
    sheet.play(final.table, "NS")

    logged = actions(tournament)
    for action in [
        LogEntry.Action.TOURNAMENT_CREATED,
        LogEntry.Action.TEAM_REGISTERED,
        LogEntry.Action.RULES_CHANGED,
        LogEntry.Action.DESK,
        LogEntry.Action.ROUND_DRAWN,
        LogEntry.Action.DRAW_CHANGED,
        LogEntry.Action.ROUND_PUBLISHED,
        LogEntry.Action.ANNOUNCEMENT_POSTED,
        LogEntry.Action.HAND_ADDED,
        LogEntry.Action.SIGNED,
        LogEntry.Action.PLAYOFF_SEEDED,
        LogEntry.Action.PLAYOFF_PUBLISHED,
        LogEntry.Action.PLAYOFF_MATCH_OPENED,
        LogEntry.Action.CHAMPION,
    ]:
        assert action in logged, action
    assert logged.index(LogEntry.Action.ROUND_PUBLISHED) < logged.index(LogEntry.Action.HAND_ADDED)
    assert logged[-1] == LogEntry.Action.CHAMPION
    entries = LogEntry.objects.filter(tournament=tournament)
    assert {e.who for e in entries.filter(action=LogEntry.Action.DESK)} == {director.username}
    assert {e.who for e in entries.filter(action=LogEntry.Action.HAND_ADDED)} == {"table link"}
    swap = entries.get(action=LogEntry.Action.DRAW_CHANGED)
    assert swap.round_number == 1 and swap.before != swap.after, "what the swap replaced is kept"
    rules = entries.get(action=LogEntry.Action.RULES_CHANGED)
    assert rules.before["boston_multiplier"] == 1 and rules.after["boston_multiplier"] == 2
    assert "Boston multiplier" in rules.summary


def test_a_script_is_logged_as_a_command(tournament, make_teams):
    make_teams(tournament, 2)
    entry = LogEntry.objects.filter(tournament=tournament).latest("pk")
    assert entry.actor == LogEntry.Actor.COMMAND and entry.who == "command"
    named = Actor.command("import_teams")
    team_desk_update(team=tournament.teams.first(), fee_paid=True, actor=named)
    assert LogEntry.objects.latest("pk").who == "import_teams"


def test_the_pages_log_the_staff_member_who_acted(director_client, director, tournament, make_teams):
    make_teams(tournament, 2, checked_in=False)
    url = reverse("director:desk_action", args=[tournament.slug, 1])
    director_client.post(url, {"action": "check_in"})
    entry = LogEntry.objects.latest("pk")
    assert (entry.action, entry.actor, entry.actor_name) == (LogEntry.Action.DESK, "staff", director.username)
    assert entry.summary.endswith("checked in") and entry.team.number == 1


@pytest.fixture
def played(director, tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_1 = round_published(tournament, method="manual", pairs="1 2\n3 4")
    for table in round_1.tables.all():
        sheet.play(table, "NS")
    round_published(tournament, method="manual", pairs="1 3\n2 4")
    return tournament


def test_the_log_page_shows_a_round_or_a_team(director_client, played):
    url = reverse("director:log", args=[played.slug])
    html = director_client.get(url).content.decode()
    assert "Round 1 drawn" in html and "Round 2 drawn" in html
    round_1 = director_client.get(url, {"round": 1}).content.decode()
    assert "Round 1 drawn" in round_1 and "Round 2 drawn" not in round_1
    team_4 = played.teams.get(number=4)
    of_team = director_client.get(url, {"team": team_4.pk}).content.decode()
    assert "Hand 1:" in of_team, "the hands at the team's table"
    assert "Team #1 " not in of_team, "not another team's registration"
    assert "Team #4 " in of_team
    refused = director_client.get(url, {"round": "x"})
    assert refused.status_code == 200 and WRONG_CHOICE in refused.content.decode()


def test_the_log_names_a_playoff_match_by_its_stage(director_client, tournament, make_teams, sheet):
    make_teams(tournament, 4)
    for table in round_published(tournament).tables.all():
        sheet.play(table, "NS")
    playoff_seed(tournament=tournament, teams=4)
    playoff_publish(tournament=tournament)
    semifinal = tournament.playoff_matches.get(code="W1-1")
    sheet.play(semifinal.table, "NS")
    html = director_client.get(reverse("director:log", args=[tournament.slug])).content.decode()
    assert f"· {semifinal.label}</span>" in html and semifinal.label.startswith("Semifinal")
    assert f"round {semifinal.table.round.number}, table" not in html, "a playoff table is not called a round's"
    assert "· round 1, table 1" in html, "a qualifying round's table still is"


def test_no_summary_repeats_its_actions_name(director, director_client, tournament, make_teams, sheet):
    """The log shows each entry as "<action>: <summary>", so a summary never starts with the action's name
    ("Announcement removed: Announcement removed: …" read twice)."""
    staff = Actor.staff(director)
    make_teams(tournament, 4)
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(boston_multiplier=2), actor=staff)
    round_ = round_published(tournament)
    announcement_remove(announcement=announcement_post(tournament=tournament, text="Room 2 opens", actor=staff))
    first, second = round_.tables.order_by("number")
    sheet.play(first, "NS")
    table_forfeit_declare(table=second, absent=Absent.EAST_WEST, actor=staff, early=True, reason="Gone home")
    entries = LogEntry.objects.filter(tournament=tournament)
    assert {LogEntry.Action.ANNOUNCEMENT_REMOVED, LogEntry.Action.FORFEIT} <= {entry.action for entry in entries}
    for entry in entries:
        label = entry.get_action_display()
        assert not entry.summary.startswith((label, label.split()[0] + ":")), entry.summary
    page = text_of(director_client.get(reverse("director:log", args=[tournament.slug])))
    assert "Announcement removed: Room 2 opens" in page
    assert "Forfeit declared: #4 " in page
