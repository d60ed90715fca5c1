"""Each kind of change refreshes exactly the public pages that show it, whichever service made it; the rest stay
served as they were rendered (``services.changes``)."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from scoring import RuleSet
from tests.conftest import round_published
from tournament.models import Event, Person, PersonRating, Player
from tournament.services.clock import round_clock_start
from tournament.services.events import announcement_post, event_create, tournament_create, tournament_rules_set
from tournament.services.money import money_settings_set, payment_record
from tournament.services.persons import player_link, player_unlink
from tournament.services.ratings import ratings_recompute, tournament_rating_tie_break
from tournament.services.series import series_create
from tournament.services.teams import PlayerEntry, team_code_renew, team_desk_update, team_update


@pytest.fixture
def playing(tournament, make_teams, sheet):
    """Round 1 of four teams: table 1 (#1 v #2) signed, table 2 (#3 v #4) in play."""
    make_teams(tournament, 4)
    first, second = round_published(tournament).tables.order_by("number")
    sheet.play(first, "NS")
    return tournament, second


def _paths(slug: str) -> dict[str, str]:
    return {
        "standings": reverse("public:standings", args=[slug]),
        "tables": reverse("public:draw", args=[slug]),
        "projector": reverse("public:projector", args=[slug]),
        "team 1": reverse("public:team", args=[slug, 1]),
        "team 3": reverse("public:team", args=[slug, 3]),
        "api standings": f"/api/v1/tournaments/{slug}/standings",
        "api rounds": f"/api/v1/tournaments/{slug}/rounds",
        "api announcements": f"/api/v1/tournaments/{slug}/announcements",
    }


def _etags(tournament) -> dict[str, str]:
    tags = {}
    for name, path in _paths(tournament.slug).items():
        response = Client().get(path, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, name
        tags[name] = response["ETag"]
    return tags


def _refreshed(tournament, change) -> set[str]:
    """The pages whose rendering ``change`` moved."""
    before = _etags(tournament)
    change()
    after = _etags(tournament)
    return {name for name in before if before[name] != after[name]}


EVERY_PAGE = set(_paths("x"))
LIVE_PAGES = {"tables", "projector", "api rounds"}


def test_an_entry_on_an_unsigned_sheet_moves_the_live_pages_and_its_teams_only(playing, sheet):
    tournament, second = playing
    refreshed = _refreshed(tournament, lambda: sheet.hand(second, "N", "N", 3, "high", 9))
    assert refreshed == LIVE_PAGES | {"team 3"}


def test_a_signature_moves_every_page(playing, sheet):
    tournament, second = playing
    sheet.play(second, "EW", sign=False)
    assert _refreshed(tournament, lambda: sheet.sign_both(second)) == EVERY_PAGE


def test_a_team_renamed_moves_every_page(playing):
    tournament, _ = playing
    team = tournament.teams.get(number=1)
    players = [PlayerEntry(member.player.name, member.player.city) for member in team.members]
    assert _refreshed(tournament, lambda: team_update(team=team, players=players, name="Aces")) == EVERY_PAGE


def test_a_player_renamed_moves_the_pages_of_their_other_tournament_too(playing, make_teams):
    tournament, _ = playing
    side = tournament_create(event=tournament.event, name="Side event", qualifying_rounds=2)
    make_teams(side, 2)
    team = tournament.teams.get(number=1)
    players = [PlayerEntry("Player 0a Jr", "Detroit"), PlayerEntry(team.members[1].player.name, "Detroit")]
    side_team = side.teams.get(number=1)
    before = Client().get(reverse("public:team", args=[side.slug, 1]))["ETag"]
    assert "Player 0a" in side_team.player_names, "the same player record plays in both tournaments"
    team_update(team=team, players=players)
    after = Client().get(reverse("public:team", args=[side.slug, 1]))
    assert after["ETag"] != before and "Player 0a Jr" in after.content.decode()


def test_money_and_codes_move_no_public_page(playing):
    tournament, _ = playing
    money_settings_set(
        tournament=tournament,
        entry_fee="100",
        side_pot_fee="20",
        house_percent="0",
        payout_percents="60, 40",
        side_pot_rule="placing",
    )
    team = tournament.teams.get(number=1)

    def staff_only():
        payment_record(team=team, amount="100")
        team_desk_update(team=team, side_pot=True)
        team_code_renew(team=team)

    assert _refreshed(tournament, staff_only) == set()


def test_a_check_in_moves_every_page(playing, make_teams):
    tournament, _ = playing
    (late,) = make_teams(tournament, 1, checked_in=False, start=4)
    assert _refreshed(tournament, lambda: team_desk_update(team=late, checked_in=True)) == EVERY_PAGE


def test_the_clock_moves_the_live_pages_only(playing):
    tournament, _ = playing
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=50))
    round_ = tournament.rounds.get()
    assert _refreshed(tournament, lambda: round_clock_start(round=round_)) == LIVE_PAGES


def test_an_announcement_moves_the_answers_that_show_announcements_only(playing):
    tournament, _ = playing
    assert _refreshed(tournament, lambda: announcement_post(tournament=tournament, text="Lunch")) == {
        "api announcements"
    }


def test_the_rules_move_every_page(playing):
    tournament, _ = playing
    assert (
        _refreshed(tournament, lambda: tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=40)))
        == EVERY_PAGE
    )


def test_a_series_moves_no_tournament_page(playing):
    tournament, _ = playing
    assert _refreshed(tournament, lambda: series_create(name="Summer race")) == set()


def _elsewhere(name: str) -> Player:
    """A player of another event (the same person may have played there)."""
    event = Event.objects.filter(slug="elsewhere").first() or event_create(
        name="Elsewhere", starts_on=datetime.date(2025, 5, 1), ends_on=datetime.date(2025, 5, 1)
    )
    return Player.objects.create(event=event, name=name)


def test_a_link_moves_the_pages_of_the_players_tournaments_only(playing):
    tournament, _ = playing
    outsider = _elsewhere("Someone Else")
    assert _refreshed(tournament, lambda: player_link(player=outsider)) == set()
    player = Player.objects.get(name="Player 0a")
    assert _refreshed(tournament, lambda: player_link(player=player)) == EVERY_PAGE
    assert _refreshed(tournament, lambda: player_unlink(player=player)) == EVERY_PAGE


def test_ratings_move_the_tournaments_they_rank(playing):
    tournament, _ = playing
    assert _refreshed(tournament, ratings_recompute) == set(), "ratings rank nothing here"
    tournament_rating_tie_break(tournament=tournament, on=True)
    assert _refreshed(tournament, ratings_recompute) == EVERY_PAGE


def test_linking_a_rated_player_reranks_the_kept_standings(tournament, make_teams):
    """Ratings break the standings' last tie: linking a player to a rated person moves the page at once."""
    make_teams(tournament, 3)
    tournament_rating_tie_break(tournament=tournament, on=True)
    rated = player_link(player=_elsewhere("Player 2a"))
    PersonRating.objects.create(person=rated, rating=1800, deviation=80, rounds=5, computed_at="2026-01-01T00:00Z")
    url = reverse("public:standings", args=[tournament.slug])
    assert Client().get(url).content.decode().count("T-1") >= 3, "all three teams share first"
    player_link(player=Player.objects.get(name="Player 2a", event=tournament.event), person=rated)
    html = Client().get(url).content.decode()
    assert html.index("#3 ") < html.index("#1 ") and "T-2" in html, "team 3 first, 1 and 2 still tied"
    assert Person.objects.count() == 1
