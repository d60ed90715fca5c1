"""The read-only JSON API: every endpoint's shape, public data only, a fixed number of queries, and 304."""

import io
import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.templatetags.static import static
from django.test.utils import CaptureQueriesContext
from django.utils.http import http_date, parse_http_date

from tests.conftest import round_published
from tests.tournament.days.test_prize_giving import finished  # noqa: F401 (fixture)
from tests.tournament.services.test_playoffs import qualified  # noqa: F401 (fixture)
from tournament.api.schemas import StandingOut
from tournament.models import LogEntry
from tournament.services.draws import round_draw
from tournament.services.events import announcement_post, event_update, tournament_create, tournament_update
from tournament.services.log import Actor
from tournament.services.money import payment_record
from tournament.services.teams import team_desk_update, team_self_check_in, team_withdraw_request
from tournament.services.teams.codes import team_code_renew

API = "/api/v1"
# The teams list, the kept answers' cache aside: the tournament twice (the kept answer's version, then the
# answer), the teams, their members with their players.
TEAMS_QUERIES = 4


def get(client, path, **headers):
    response = client.get(API + path, **headers)
    assert response.status_code == 200, (path, response.status_code, response.content[:300])
    return response.json()


def endpoints(tournament):
    slug = tournament.slug
    return [
        "/events",
        f"/events/{tournament.event.slug}",
        f"/tournaments/{slug}",
        f"/tournaments/{slug}/teams",
        f"/tournaments/{slug}/teams/1",
        f"/tournaments/{slug}/rounds",
        f"/tournaments/{slug}/rounds/1",
        f"/tournaments/{slug}/standings",
        f"/tournaments/{slug}/bracket",
        f"/tournaments/{slug}/placings",
        f"/tournaments/{slug}/announcements",
    ]


def test_a_finished_tournament_hand_by_hand(client, finished):  # noqa: F811
    slug = finished.slug
    assert get(client, "/events")[0]["tournaments"][0] == {"slug": slug, "name": finished.name, "status": "finished"}
    tournament = get(client, f"/tournaments/{slug}")
    assert tournament["rules"]["hands_per_round"] == 4 and tournament["playoff"]["third_place"] is True
    round_one = get(client, f"/tournaments/{slug}/rounds/1")
    table = round_one["tables"][0]
    assert table["signed"] and len(table["hands"]) == 4 and table["rulings"] == []
    assert sum(hand["ns_points"] for hand in table["hands"]) == table["ns_total"]
    assert sum(hand["ew_points"] for hand in table["hands"]) == table["ew_total"]
    assert set(table["hands"][0]) >= {"bid", "kind", "trump", "direction", "books", "ns_points", "ew_points"}
    rounds = get(client, f"/tournaments/{slug}/rounds")
    assert [r["title"] for r in rounds] == ["Round 1", "Semifinal", "Final · Third-place match"]
    assert {t["stage"] for t in rounds[2]["tables"]} == {"Final", "Third-place match"}
    standings = get(client, f"/tournaments/{slug}/standings")
    assert standings[0]["place"] == 1 and set(standings[0]) >= {"rounds_won", "points_for", "difference", "bostons"}
    # Built without validation for speed: every row is still exactly what the schema validates.
    assert [StandingOut.model_validate(row).model_dump(mode="json") for row in standings] == standings
    team = get(client, f"/tournaments/{slug}/teams/1")
    assert [r["result"] for r in team["rounds"]] == ["won", "won", "won"] and team["standing"]["team_number"] == 1
    bracket = get(client, f"/tournaments/{slug}/bracket")
    assert bracket["champion"]["number"] == 1 and {m["code"] for m in bracket["matches"]} == {
        "W1-1",
        "W1-2",
        "W2-1",
        "3P",
    }
    placings = get(client, f"/tournaments/{slug}/placings")
    assert [(p["place"], p["team"]["number"]) for p in placings[:4]] == [(1, 1), (2, 3), (3, 5), (4, 7)]


def test_only_public_data(client, finished):  # noqa: F811
    table = finished.rounds.get(number=1).tables.first()
    team = finished.teams.get(number=1)
    player = team.memberships.first().player
    player.phone = "555-0199"
    player.save()
    answers = "".join(client.get(API + path).content.decode() for path in endpoints(finished))
    assert table.secret not in answers and team.code not in answers and "555-0199" not in answers


def test_drafts_are_not_in_the_api(client, tournament, make_teams):
    make_teams(tournament, 4)
    round_draw(tournament=tournament, method="manual")
    assert get(client, f"/tournaments/{tournament.slug}/rounds") == []
    assert client.get(f"{API}/tournaments/{tournament.slug}/rounds/1").status_code == 404
    assert client.get(f"{API}/tournaments/{tournament.slug}/placings").status_code == 404
    assert client.get(f"{API}/tournaments/nothing-here").status_code == 404


def test_every_answer_carries_last_modified_and_if_modified_since_is_answered_304(client, finished):  # noqa: F811
    for path in [*endpoints(finished), f"/tournaments/{finished.slug}/statistics"]:
        first = client.get(API + path)
        modified = first["Last-Modified"]
        assert first.status_code == 200 and parse_http_date(modified), path
        for since in (modified, http_date(parse_http_date(modified) + 3600)):
            again = client.get(API + path, HTTP_IF_MODIFIED_SINCE=since)
            assert again.status_code == 304 and again["Last-Modified"] == modified, path
            assert again["ETag"] == first["ETag"], path
        earlier = client.get(API + path, HTTP_IF_MODIFIED_SINCE=http_date(parse_http_date(modified) - 1))
        assert earlier.status_code == 200 and earlier.content == first.content, path
        assert client.get(API + path, HTTP_IF_MODIFIED_SINCE="yesterday").status_code == 200, "a date HTTP has not"


def test_a_change_is_answered_with_a_later_last_modified_never_before_the_change(client, finished):  # noqa: F811
    path = f"{API}/tournaments/{finished.slug}/announcements"
    first = client.get(path)
    announcement_post(tournament=finished, text="Prizes at 6 pm", hours=2)
    posted = LogEntry.objects.latest("pk").created_at.timestamp()
    changed = client.get(path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert changed.status_code == 200 and changed.json()[0]["text"] == "Prizes at 6 pm"
    modified = parse_http_date(changed["Last-Modified"])
    assert modified > parse_http_date(first["Last-Modified"]) and modified >= posted
    assert client.get(path, HTTP_IF_MODIFIED_SINCE=changed["Last-Modified"]).status_code == 304


def test_the_events_validators_move_with_what_the_events_show_and_nothing_else(client, finished):  # noqa: F811
    paths = ["/events", f"/events/{finished.event.slug}"]

    def validators():
        return {path: (client.get(API + path)["ETag"], client.get(API + path)["Last-Modified"]) for path in paths}

    before = validators()
    logged = LogEntry.objects.count()
    team = finished.teams.get(number=2)
    payment_record(team=team, amount="20", method="cash")
    team_code_renew(team=team)
    announcement_post(tournament=finished, text="Prizes at 6 pm", hours=2)
    assert LogEntry.objects.count() == logged + 3, "staff acted"
    assert validators() == before, "a payment, a code and an announcement show nowhere in the events"
    for path in paths:
        assert client.get(API + path, HTTP_IF_NONE_MATCH=before[path][0]).status_code == 304
        assert client.get(API + path, HTTP_IF_MODIFIED_SINCE=before[path][1]).status_code == 304

    tournament_update(tournament=finished, name="Main Open", qualifying_rounds=1, paper_size="letter")
    renamed_at = LogEntry.objects.latest("pk").created_at.timestamp()
    renamed = validators()
    for path in paths:
        assert parse_http_date(renamed[path][1]) >= renamed_at, "never dated before the change it shows"
        assert renamed[path][0] != before[path][0] and parse_http_date(renamed[path][1]) > parse_http_date(
            before[path][1]
        )
        answer = client.get(API + path, HTTP_IF_MODIFIED_SINCE=before[path][1])
        assert answer.status_code == 200 and "Main Open" in answer.content.decode()
    tournament_create(event=finished.event, name="Side Event")
    added = validators()
    for path in paths:
        assert added[path][0] != renamed[path][0] and added[path][1] >= renamed[path][1]
        answer = client.get(API + path, HTTP_IF_MODIFIED_SINCE=renamed[path][1])
        assert answer.status_code == 200 and "Side Event" in answer.content.decode()
    event_update(
        event=finished.event,
        name="Autumn Classic",
        venue=finished.event.venue,
        starts_on=finished.event.starts_on,
        ends_on=finished.event.ends_on,
    )
    assert all(validators()[path][0] != added[path][0] for path in paths), "the event renamed"


def test_unchanged_data_is_answered_304_and_a_change_is_seen(client, finished):  # noqa: F811
    for path in endpoints(finished):
        first = client.get(API + path)
        assert first["ETag"], path
        again = client.get(API + path, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, path
    path = f"/tournaments/{finished.slug}/announcements"
    etag = client.get(API + path)["ETag"]
    announcement_post(tournament=finished, text="Prizes at 6 pm", hours=2)
    changed = client.get(API + path, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()[0]["text"] == "Prizes at 6 pm"


@pytest.mark.parametrize("path", ["standings", "rounds", "rounds/1", "teams", "bracket", "teams/1"])
def test_each_endpoint_costs_the_same_queries_for_any_field(client, event, make_teams, sheet, path):
    from tournament.services.events import tournament_create

    counts = []
    for size in (4, 24):
        tournament = tournament_create(event=event, name=f"Field of {size}")
        make_teams(tournament, size, start=size * 10)
        round_ = round_published(tournament, method="random", seed=2)
        for table in round_.tables.all():
            sheet.play(table)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"{API}/tournaments/{tournament.slug}/{path}").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_commands_print_the_apis_json(client, finished):  # noqa: F811
    out = io.StringIO()
    call_command("standings", finished.slug, "--format", "json", stdout=out)
    assert json.loads(out.getvalue()) == get(client, f"/tournaments/{finished.slug}/standings")
    out = io.StringIO()
    call_command("playoff", finished.slug, "--format", "json", stdout=out)
    assert json.loads(out.getvalue()) == get(client, f"/tournaments/{finished.slug}/bracket")


def test_the_docs_are_served_without_a_cdn(client):
    page = client.get(f"{API}/docs").content.decode()
    assert static("ninja/swagger-ui-bundle.js") in page and "cdn" not in page.lower()
    assert client.get(static("ninja/swagger-ui-bundle.js")).status_code == 200
    schema = get(client, "/openapi.json")
    assert "/api/v1/tournaments/{slug}/standings" in schema["paths"]


def test_nothing_of_a_seeded_but_unpublished_playoff_shows(client, qualified):  # noqa: F811
    from tournament.services.playoffs import playoff_publish, playoff_seed

    playoff_seed(tournament=qualified, teams=4, third_place=True)
    slug = qualified.slug
    bracket = get(client, f"/tournaments/{slug}/bracket")
    assert bracket == {
        "tournament": slug,
        "published": False,
        "double_elimination": False,
        "third_place": False,
        "seeds": [],
        "matches": [],
        "champion": None,
    }
    assert get(client, f"/tournaments/{slug}")["playoff"] == {
        "seeded": False,
        "published": False,
        "third_place": False,
        "double_elimination": False,
    }
    playoff_publish(tournament=qualified)
    bracket = get(client, f"/tournaments/{slug}/bracket")
    assert [seed["team"]["number"] for seed in bracket["seeds"]] == [1, 3, 5, 7] and bracket["third_place"]
    assert get(client, f"/tournaments/{slug}")["playoff"]["seeded"] is True


def test_the_teams_say_who_is_checked_in_by_whom_and_who_has_withdrawn(client, tournament, make_teams):
    """A request to withdraw is the team's and the director's until confirmed: the answer says only withdrawn."""
    one, two, three, four = make_teams(tournament, 4, checked_in=False)
    team_self_check_in(team=one, actor=Actor.team(one))
    team_desk_update(team=two, checked_in=True)
    team_withdraw_request(team=three, actor=Actor.team(three))
    team_self_check_in(team=four, actor=Actor.team(four))
    team_withdraw_request(team=four, actor=Actor.team(four))
    team_desk_update(team=four, withdrawn=True)
    with CaptureQueriesContext(connection) as queries:
        teams = get(client, f"/tournaments/{tournament.slug}/teams")
    answer = [query["sql"] for query in queries.captured_queries if "page_cache" not in query["sql"]]
    assert len([sql for sql in answer if "SAVEPOINT" not in sql]) == TEAMS_QUERIES, answer
    shown = {
        team["number"]: (
            team["checked_in"],
            team["checked_in_by_team"],
            team["withdrawn"],
        )
        for team in teams
    }
    assert shown == {
        one.number: (True, True, False),
        two.number: (True, False, False),
        three.number: (False, False, False),
        four.number: (False, False, True),
    }
    assert not any("withdrawal_requested" in team for team in teams)
    one.refresh_from_db(), four.refresh_from_db()
    team_desk_update(team=one, checked_in=False)
    team_desk_update(team=one, checked_in=True)
    team_desk_update(team=four, withdrawn=False)
    teams = {team["number"]: team for team in get(client, f"/tournaments/{tournament.slug}/teams")}
    assert not teams[one.number]["checked_in_by_team"], "checked in again at the desk"
    assert not teams[four.number]["withdrawn"], "reinstated"
