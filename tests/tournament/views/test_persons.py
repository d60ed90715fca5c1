"""The pages of players across events: who may open them, what they show, and their fixed query counts."""

import datetime
import io
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import text_of
from tournament.models import LogEntry, Person, Player, Team
from tournament.services.events import event_create, tournament_create
from tournament.services.persons import person_update, player_link
from tournament.services.ratings import ratings_recompute
from tournament.services.series import series_create, series_tournament_add


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


@pytest.fixture
def series(tournament):
    found = series_create(name="Champions Race")
    series_tournament_add(series=found, tournament=tournament)
    return found


@pytest.fixture
def person(tournament, make_teams):
    make_teams(tournament, 2)
    return player_link(player=Player.objects.get(name="Player 0a"))


def staff_pages(event, series, person):
    return [
        ("get", reverse("director:event_persons", args=[event.slug])),
        ("post", reverse("director:event_person_link", args=[event.slug])),
        ("post", reverse("director:event_person_unlink", args=[event.slug])),
        ("get", reverse("director:persons")),
        ("post", reverse("director:person_merge")),
        ("post", reverse("director:ratings_recompute")),
        ("get", reverse("director:person_edit", args=[person.pk])),
        ("get", reverse("director:series")),
        ("get", reverse("director:series_edit", args=[series.slug])),
        ("post", reverse("director:series_tournament_add", args=[series.slug])),
        ("post", reverse("director:series_tournament_remove", args=[series.slug, series.entries.get().tournament_id])),
    ]


def test_only_directors_open_the_persons_and_series_pages(client, scorekeeper, director, event, series, person):
    for method, address in staff_pages(event, series, person):
        response = getattr(client, method)(address)
        assert response.status_code == 302 and "/login/" in response["Location"], address
    client.force_login(scorekeeper)
    for method, address in staff_pages(event, series, person):
        assert getattr(client, method)(address).status_code == 403, address
    assert Person.objects.count() == 1 and not LogEntry.objects.filter(action="ratings_recomputed").exists()
    client.force_login(director)
    for method, address in staff_pages(event, series, person):
        assert getattr(client, method)(address).status_code in (200, 302), address


def test_the_series_pdf_is_for_staff(client, scorekeeper, series, person):
    address = reverse("director:series_pdf", args=[series.slug])
    assert client.get(address).status_code == 302
    client.force_login(scorekeeper)
    response = client.get(address)
    assert response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Champions Race: standings" in text and "Player 0a" in text


def test_the_director_links_from_a_suggestion_and_sees_a_refusal(director_client, tournament, make_teams):
    make_teams(tournament, 2)
    ann = Person.objects.create(name="Player 0a", city="Detroit")
    page = text_of(director_client.get(reverse("director:event_persons", args=[tournament.event.slug])))
    assert f"Link to Player 0a (Detroit) #{ann.pk} same name and city" in page
    player = Player.objects.get(name="Player 0a")
    address = reverse("director:event_person_link", args=[tournament.event.slug])
    response = director_client.post(address, {"player": player.pk, "person": ann.pk}, follow=True)
    assert "Linked to Player 0a (Detroit)" in text_of(response)
    other = Player.objects.get(name="Player 1a")
    response = director_client.post(address, {"player": other.pk, "person": ann.pk}, follow=True)
    assert "already plays in Spring Classic: Main Event" in text_of(response)
    assert Player.objects.get(pk=other.pk).person is None
    response = director_client.post(address, {"player": other.pk, "person": 99999}, follow=True)
    assert "a person number that exists" in text_of(response)


def test_a_person_suggested_by_phone(director_client, tournament):
    from tournament.services.teams import PlayerEntry, team_register

    day = datetime.date(2026, 9, 1)
    earlier = tournament_create(event=event_create(name="Earlier", starts_on=day, ends_on=day), name="Open")
    team_register(tournament=earlier, players=[PlayerEntry("Bobby Diaz", "Memphis", "901-555-0101"), PlayerEntry("X")])
    bobby = player_link(player=Player.objects.get(name="Bobby Diaz"))
    team_register(
        tournament=tournament, players=[PlayerEntry("Bob Diaz", "Memphis", "(901) 555 0101"), PlayerEntry("Y")]
    )
    page = text_of(director_client.get(reverse("director:event_persons", args=[tournament.event.slug])))
    assert f"Link to Bobby Diaz (Memphis) #{bobby.pk} same phone" in page


def test_the_person_page_and_a_hidden_person(client, tournament, person):
    series = series_create(name="Race")
    series_tournament_add(series=series, tournament=tournament)
    page = text_of(client.get(reverse("public:person", args=[person.pk])))
    assert "Player 0a" in page and "Spring Classic: Main Event" in page and "Player 0b" in page
    assert "No rating yet" in page and "Race : 0 points from 1 tournament" in page
    person_update(person=person, hidden=True)
    assert client.get(reverse("public:person", args=[person.pk])).status_code == 404
    standings = text_of(client.get(reverse("public:series", args=[series.slug])))
    assert "a player" in standings and "Player 0a" not in standings


def test_the_person_page_shows_the_rating_with_its_uncertainty(client, table, sheet):
    sheet.play(table, "NS")
    person = player_link(player=Player.objects.get(name="Player 0a"))
    ratings_recompute()
    page = text_of(client.get(reverse("public:person", args=[person.pk])))
    rating = person.rating
    assert f"{rating.rating:.0f} ± {2 * rating.deviation:.0f}" in page and "from 1 signed round" in page


def test_the_statistics_page_names_the_awards(client, table, sheet):
    sheet.full_round(table)
    sheet.sign_both(table)
    page = text_of(client.get(reverse("public:statistics", args=[table.round.tournament.slug])))
    assert "Most no-trump bids made : #2" in page
    assert "Statistics and awards" in page


def test_the_projector_ends_with_the_awards(client, table, sheet):
    address = reverse("public:projector", args=[table.round.tournament.slug])
    assert 'id="panel-awards"' not in client.get(address).content.decode(), "no award before a signed table"
    sheet.full_round(table)
    sheet.sign_both(table)
    page = client.get(address).content.decode()
    panels = re.findall(r'<section class="projector-panel[^"]*" id="([^"]+)"', page)
    assert panels[-1] == "panel-awards", panels
    awards = text_of(client.get(address)).split("Main Event: awards")[1]
    assert "Most no-trump bids made #2 Player 1a &amp; Player 1b 1 made" in awards


@pytest.mark.parametrize(
    "page", ["statistics", "series", "person", "link", "persons", "api-series", "api-person", "api-statistics"]
)
def test_the_pages_cost_the_same_at_8_and_512_teams(client, director, event, big_field, page):
    counts = []
    for size in (8, 512):
        day = datetime.date(2026, 5, 1)
        own = event_create(name=f"Event of {size}", starts_on=day, ends_on=day)
        tournaments = [tournament_create(event=own, name=f"T{n}") for n in (1, 2)]
        for tournament in tournaments:
            big_field(tournament, size, rounds=2)
        players = list(Player.objects.filter(event=own).order_by("pk")[:3])
        someone = player_link(player=players[0])
        player_link(player=players[1])
        Person.objects.create(name=players[2].name, city=players[2].city)
        found = series_create(name=f"Series {size}")
        for tournament in tournaments:
            series_tournament_add(series=found, tournament=tournament)
        if page == "statistics":
            address = reverse("public:statistics", args=[tournaments[0].slug])
        elif page == "series":
            address = reverse("public:series", args=[found.slug])
        elif page == "person":
            address = reverse("public:person", args=[someone.pk])
        elif page == "api-series":
            address = f"/api/v1/series/{found.slug}"
        elif page == "api-person":
            address = f"/api/v1/persons/{someone.pk}"
        elif page == "api-statistics":
            address = f"/api/v1/tournaments/{tournaments[0].slug}/statistics"
        elif page == "link":
            client.force_login(director)
            address = reverse("director:event_persons", args=[own.slug])
        else:
            client.force_login(director)
            address = reverse("director:persons")
        counts.append(queries(lambda address=address: client.get(address)))
        assert Team.objects.filter(tournament__event=own).count() == 2 * size
    assert counts[0] == counts[1], counts


def test_importing_teams_points_to_the_players_who_may_be_persons(director_client, tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    Person.objects.create(name="Ann Lee", city="Detroit")
    upload = SimpleUploadedFile(
        "teams.csv", b"player1,player1_city,player2\nAnn Lee,Detroit,Bo Jones\nCy Young,Memphis,Dee Brooks\n"
    )
    response = director_client.post(
        reverse("director:team_import", args=[tournament.slug]), {"file": upload}, follow=True
    )
    assert "1 player(s) of this event may be persons who played before" in text_of(response)
    assert Player.objects.filter(person__isnull=False).count() == 0, "suggested, never linked silently"


def test_a_hidden_partner_is_a_player_wherever_the_person_names_them(client, tournament, person):
    """Hidden at their request: "a player" on their partner's page, in the API and in the series; the event's
    own standings keep the team's names as registered for the event (docs/players-across-events.md)."""
    series = series_create(name="Race")
    series_tournament_add(series=series, tournament=tournament)
    partner = person_update(person=player_link(player=Player.objects.get(name="Player 0b")), hidden=True)
    page = text_of(client.get(reverse("public:person", args=[person.pk])))
    assert "a player" in page and "Player 0b" not in page
    answer = client.get(f"/api/v1/persons/{person.pk}").json()
    assert [row["partner"] for row in answer["tournaments"]] == ["a player"]
    assert "Player 0b" not in text_of(client.get(reverse("public:series", args=[series.slug])))
    assert client.get(f"/api/v1/persons/{partner.pk}").status_code == 404
    assert "Player 0b" not in str(client.get(f"/api/v1/series/{series.slug}").json())
    assert "Player 0b" in text_of(client.get(reverse("public:standings", args=[tournament.slug])))
