"""Public live pages are rendered once per change and never stale: any worker sees a signature or a
correction at once; an unchanged page is answered 304; staff are never served the public rendering."""

import gzip
import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils.http import http_date, parse_http_date

from tests.conftest import round_published
from tournament.pagecache.serving import cache_keys, serve_cached
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry, hand_update


@pytest.fixture
def playing(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = round_published(tournament)
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
        hand=hand,
        entry=HandEntry("N", "N", 3, "high", 10),
        context=ChangeContext(version=table.version, actor=Actor.staff(director), reason="Recounted"),
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


def test_a_new_release_renders_every_page_afresh(playing, settings):
    """After an upgrade the kept renderings of the old templates are not served, nor their ETags answered 304."""
    tournament, _ = playing
    client = Client()
    first, _ = page(client, tournament)
    settings.RELEASE = "another-release"
    again = client.get(reverse("public:standings", args=[tournament.slug]), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert "stored" in again["Cache-Status"]


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


def _etags(client, tournament, first, second):
    """The ETag of every live page and API answer, after one request each to store it."""
    slug = tournament.slug
    paths = {
        "standings": reverse("public:standings", args=[slug]),
        "tables": reverse("public:draw", args=[slug]),
        "projector": reverse("public:projector", args=[slug]),
        "api standings": f"/api/v1/tournaments/{slug}/standings",
        "api round": f"/api/v1/tournaments/{slug}/rounds/1",
    }
    for table, label in ((first, "signed"), (second, "playing")):
        for seating in table.seatings.select_related("team"):
            number = seating.team.number
            paths[f"team {number} ({label})"] = reverse("public:team", args=[slug, number])
            paths[f"api team {number} ({label})"] = f"/api/v1/tournaments/{slug}/teams/{number}"
    tags = {}
    for name, path in paths.items():
        response = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, name
        tags[name] = response["ETag"]
    return tags


def _changed(before, after) -> set[str]:
    return {name for name in before if before[name] != after[name]}


def test_a_hand_on_an_unsigned_sheet_changes_the_tables_and_its_teams_not_the_standings(playing, sheet):
    tournament, second = playing
    first = tournament.rounds.get().tables.get(number=1)
    client = Client()
    before = _etags(client, tournament, first, second)
    sheet.hand(second, "N", "N", 3, "high", 9)
    after = _etags(client, tournament, first, second)
    playing_teams = {name for name in before if "(playing)" in name}
    assert _changed(before, after) == {"tables", "projector", "api round"} | playing_teams
    standings = client.get(reverse("public:standings", args=[tournament.slug]), HTTP_ACCEPT_ENCODING="gzip")
    assert standings["Cache-Status"] == "whist; hit", "the standings are served as they were rendered"


def test_signing_changes_the_standings(playing, sheet):
    tournament, second = playing
    first = tournament.rounds.get().tables.get(number=1)
    client = Client()
    sheet.play(second, "EW", sign=False)
    before = _etags(client, tournament, first, second)
    sheet.sign_both(second)
    changed = _changed(before, _etags(client, tournament, first, second))
    assert {"standings", "api standings", "tables", "projector"} <= changed


def test_unknown_parameters_are_ignored_and_the_cache_stays_bounded(playing, sheet):
    from django.db import connection

    tournament, second = playing
    client = Client()

    def entries() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM tournament_page_cache")
            return cursor.fetchone()[0]

    path = reverse("public:standings", args=[tournament.slug])
    first = client.get(path)
    stored = entries()
    for n in range(50):
        response = client.get(path, {"utm": n, f"junk{n}": "x"})
        assert response["ETag"] == first["ETag"] and response["Cache-Status"] == "whist; hit"
    assert entries() == stored, "junk parameters add nothing to the cache"
    for n in range(3):
        sheet.hand(second, "NESW"[n], "NESW"[n], 3, "high", 9)
        client.get(path, {"sort": "-team"})
        client.get(reverse("public:projector", args=[tournament.slug]), {"seconds": 500 + n})
    grown = entries()
    for n in range(3, 4):
        sheet.hand(second, "NESW"[n], "NESW"[n], 3, "high", 9)
        client.get(path, {"sort": "-team"})
        client.get(reverse("public:projector", args=[tournament.slug]), {"seconds": 500 + n})
    assert entries() == grown, "a page keeps one slot whatever the number of changes and out-of-range values"


def test_one_worker_renders_a_change_the_others_serve_the_previous_rendering(rf, db):
    renders = []

    def render(text):
        def draw():
            renders.append(text)
            return HttpResponse(text)

        return draw

    request = rf.get("/somewhere/")
    request.user = AnonymousUser()
    slot = "/somewhere/?"
    cache.delete(cache_keys(slot)[0])
    assert serve_cached(request, slot=slot, version="1", render=render("first")).content == b"first"
    assert cache.add(cache_keys(slot)[1], "2", 20), "another worker is rendering version 2"
    stale = serve_cached(request, slot=slot, version="2", render=render("second"))
    assert stale.content == b"first" and stale["Cache-Status"] == "whist; hit; detail=updating"
    assert renders == ["first"]
    cache.delete(cache_keys(slot)[1])
    fresh = serve_cached(request, slot=slot, version="2", render=render("second"))
    assert fresh.content == b"second" and renders == ["first", "second"]
    assert serve_cached(request, slot=slot, version="2", render=render("third")).content == b"second"


def test_the_api_is_compressed_and_answered_from_the_cache(playing):
    tournament, _ = playing
    client = Client()
    path = f"/api/v1/tournaments/{tournament.slug}/standings"
    first = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and first["Content-Type"].startswith("application/json")
    again = client.get(path, HTTP_ACCEPT_ENCODING="gzip")
    assert again["Cache-Status"] == "whist; hit" and again.content == first.content
    assert client.get(path).json() == json.loads(gzip.decompress(first.content))


def test_an_order_the_standings_do_not_have_never_changes_the_kept_page(playing):
    tournament, _ = playing
    path = reverse("public:standings", args=[tournament.slug])

    def html(query) -> str:
        response = Client().get(path, query, HTTP_ACCEPT_ENCODING="gzip")
        return gzip.decompress(response.content).decode()

    first = html({"sort": "-team,place"})
    default = html({})
    assert first == default, "an order outside the listing's columns shows (and keeps) the standings' own order"
    by_team = html({"sort": "-team"})
    assert by_team.index('id="team-4"') < by_team.index('id="team-1"') and by_team != default
    assert html({}) == default, "the default page keeps its own order"


class Clock:
    """The time the page cache reads, set by the test (seconds since the epoch)."""

    def __init__(self, monkeypatch, now: float):
        self.now = now
        monkeypatch.setattr("tournament.pagecache.serving._clock", lambda: self.now)


@pytest.fixture
def ask(rf, db):
    """A request to one page's slot at a version, with If-Modified-Since when given; the page shows its version."""

    def get(version, since=None):
        headers = {"HTTP_IF_MODIFIED_SINCE": http_date(since)} if since is not None else {}
        request = rf.get("/page/", **headers)
        request.user = AnonymousUser()
        return serve_cached(request, slot="/page/?", version=version, render=lambda: HttpResponse(f"v{version}"))

    return get


def modified(response) -> int:
    return parse_http_date(response["Last-Modified"])


def test_last_modified_is_the_end_of_the_render_rounded_up_and_kept(ask, monkeypatch):
    clock = Clock(monkeypatch, 1000.2)
    first = ask("1")
    assert first.content == b"v1" and modified(first) == 1001, "not before the render ended"
    clock.now = 1500.0
    assert modified(ask("1")) == 1001, "every later request is answered with the kept date"
    assert ask("1", since=1001).status_code == 304 and ask("1", since=1200).status_code == 304
    assert ask("1", since=1000).content == b"v1"


def test_each_new_rendering_is_dated_after_the_one_before_even_within_a_second(ask, monkeypatch):
    clock = Clock(monkeypatch, 1000.2)
    assert modified(ask("1")) == 1001
    clock.now = 1000.5
    second = ask("2")
    assert second.content == b"v2" and modified(second) == 1002, "the next second: v1's holders ask since 1001"
    assert ask("2", since=1001).content == b"v2" and ask("2", since=1002).status_code == 304
    clock.now = 1000.8
    third = ask("3")
    assert third.content == b"v3" and modified(third) == 1002, "no date more than a second ahead"
    assert ask("3", since=1002).content == b"v3", "v2's holders get v3 in full while its date is v2's"
    clock.now = 1002.4
    settled = ask("3", since=1002)
    assert settled.content == b"v3" and modified(settled) == 1003, "its own date once v2's has passed"
    assert ask("3", since=1003).status_code == 304


def test_a_rendering_evicted_and_rendered_again_is_never_dated_back(ask, monkeypatch):
    clock = Clock(monkeypatch, 1000.2)
    assert modified(ask("1")) == 1001
    clock.now = 1000.6
    assert modified(ask("2")) == 1002
    cache.delete(cache_keys("/page/?")[0])
    clock.now = 1000.7
    again = ask("2")
    assert again.content == b"v2" and modified(again) == 1002, "not before the latest date the page gave"
    clock.now = 1000.9
    assert ask("3", since=1002).content == b"v3", "a change after it is never answered 304"
    clock.now = 1003.1
    assert cache.delete(cache_keys("/page/?")[0])
    assert modified(ask("3")) == 1004 and ask("3", since=1004).status_code == 304


def test_every_worker_gives_the_kept_date_and_a_stale_answer_keeps_its_own(ask, monkeypatch):
    clock = Clock(monkeypatch, 1000.2)
    assert modified(ask("1")) == 1001
    clock.now = 1010.0
    assert cache.add(cache_keys("/page/?")[1], "2", 20), "another worker is rendering version 2"
    stale = ask("2")
    assert stale.content == b"v1" and modified(stale) == 1001, "the previous rendering, with its own date"
    cache.delete(cache_keys("/page/?")[1])
    fresh = ask("2", since=1001)
    assert fresh.content == b"v2" and modified(fresh) == 1010
