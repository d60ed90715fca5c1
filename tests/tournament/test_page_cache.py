"""Public live pages are rendered once per change and never stale: any worker sees a signature or a
correction at once; an unchanged page is answered 304; staff are never served the public rendering."""

import gzip

import pytest
from django.test import Client
from django.urls import reverse

from tournament.services.draws import round_draw, round_publish
from tournament.services.sheets import HandEntry, hand_update


@pytest.fixture
def playing(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = round_publish(round=round_draw(tournament=tournament, method="manual"))
    first, second = round_.tables.order_by("number")
    sheet.play(first, "NS")
    return tournament, second


def page(client, tournament, name="standings"):
    response = client.get(reverse(f"public:{name}", args=[tournament.slug]), HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    body = gzip.decompress(response.content) if response.get("Content-Encoding") == "gzip" else response.content
    return response, body.decode()


def test_a_signature_shows_at_once_on_every_worker(playing, sheet):
    tournament, second = playing
    one, two = Client(), Client()
    before, html = page(one, tournament)
    assert "#3 Player 2a" in html and page(two, tournament)[0]["ETag"] == before["ETag"], "one rendering, shared"
    sheet.play(second, "EW")
    after, html = page(two, tournament)
    assert after["ETag"] != before["ETag"]
    assert html.index("#4 Player 3a") < html.index("#3 Player 2a"), "the new result is in the standings"
    assert page(one, tournament)[1] == html


def test_a_correction_shows_at_once(playing, sheet, director):
    tournament, _ = playing
    client = Client()
    before = page(client, tournament, "draw")[1]
    table = tournament.rounds.get().tables.get(number=1)
    hand = table.hands.get(sequence=1)
    table.refresh_from_db()
    hand_update(
        hand=hand, version=table.version, entry=HandEntry("N", "N", 3, "high", 10), reason="Recounted", user=director
    )
    assert page(client, tournament, "draw")[1] != before


def test_an_unchanged_page_is_answered_304_and_compressed(playing):
    tournament, _ = playing
    client = Client()
    for name in ("standings", "draw", "projector", "bracket", "standings_fragment", "draw_fragment"):
        first, _ = page(client, tournament, name)
        assert first["Content-Encoding"] == "gzip" and first["Cache-Control"] == "no-cache", name
        again = client.get(reverse(f"public:{name}", args=[tournament.slug]), HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, name


def test_staff_get_their_own_rendering(playing, director):
    tournament, _ = playing
    page(Client(), tournament)
    staff = Client()
    staff.force_login(director)
    response, html = page(staff, tournament)
    assert "Log out" in html and "ETag" not in response, "the public rendering is not served to staff"
    assert "Log out" not in page(Client(), tournament)[1], "nor the staff's to the public"


def test_exports_are_not_cached(playing):
    tournament, _ = playing
    response = Client().get(reverse("public:standings", args=[tournament.slug]), {"_export": "csv"})
    assert response["Content-Disposition"].startswith("attachment") and "ETag" not in response


def test_a_player_jumps_to_their_own_team(playing):
    tournament, _ = playing
    response = Client().get(reverse("public:standings", args=[tournament.slug]), {"team": "3"})
    assert response.status_code == 302 and response.url.endswith("/standings/#team-3")
    assert 'id="team-3"' in page(Client(), tournament)[1]
