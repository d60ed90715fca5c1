import io
import re
from html import unescape

import pytest
from django.db import connection
from django.templatetags.static import static
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tests.conftest import round_published, text_of
from tournament.services.draws import round_draw
from tournament.services.events import announcement_post, tournament_create


@pytest.fixture
def played(tournament, make_teams, sheet):
    """Round 1 signed at both tables, round 2 drawn Swiss and in play at table 1."""
    make_teams(tournament, 4)
    round_1 = round_published(tournament)
    first, second = round_1.tables.order_by("number")
    sheet.play(first, "NS")
    sheet.play(second, "EW")
    round_2 = round_published(tournament, method="swiss")
    sheet.hand(round_2.tables.get(number=1), "N", "N", 2, "high", 8)
    return tournament


def public_urls(tournament):
    slug = tournament.slug
    return [
        reverse("home"),
        reverse("public:event", args=[tournament.event.slug]),
        reverse("public:tournament", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:standings_fragment", args=[slug]),
        reverse("public:draw", args=[slug]),
        reverse("public:draw_fragment", args=[slug]),
        reverse("public:team", args=[slug, 1]),
        reverse("public:projector", args=[slug]),
    ]


def test_public_pages_need_no_login_and_show_nothing_private(client, played):
    from tournament.models import Player, Table

    Player.objects.filter(name="Player 0a").update(phone="555-0199")
    secrets = list(Table.objects.values_list("secret", flat=True))
    for url in public_urls(played):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "555-0199" not in html, url
        assert not any(secret in html for secret in secrets), url
        assert "/manage/" not in html and "/table/" not in html, url


def test_standings_page_and_exports(client, played):
    url = reverse("public:standings", args=[played.slug])
    text = text_of(client.get(url))
    assert "T-1 #1 Player 0a &amp; Player 0b" in text or "T-1 #1 Player 0a & Player 0b" in text
    csv_text = client.get(url, {"_export": "csv"}).content.decode()
    assert csv_text.splitlines()[0] == "Place,Team,Players,City,W-L-T,Points for,Against,Diff.,Hands won,Bostons,Byes"
    assert "<a" not in csv_text
    assert csv_text.splitlines()[1].startswith("T-1,#1 Player 0a & Player 0b,"), "the team is named with its number"
    xlsx = client.get(url, {"_export": "xlsx"})
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")
    assert load_workbook(io.BytesIO(xlsx.content)).active.title == "Standings"


def test_find_my_table_by_player_or_team_name(client, played):
    url = reverse("public:draw", args=[played.slug])
    text = text_of(client.get(url, {"q": "player 3B"}))
    assert "Round 2" in text and text.count("Table ") == 1 and "Player 3a" in text
    assert "No table matches" in text_of(client.get(url, {"q": "nobody here"}))


def test_find_my_table_shows_each_players_seat(client, played):
    table = played.rounds.get(number=2).tables.get(number=1)
    ns, ew = (table.team_at(pair).members for pair in ("NS", "EW"))
    text = text_of(client.get(reverse("public:draw", args=[played.slug]), {"q": ns[1].player.name}))
    assert f"South: {ns[1].player.name}" in text and f"North: {ns[0].player.name}" in text
    assert f"East: {ew[0].player.name}" in text and f"West: {ew[1].player.name}" in text


def test_a_teams_page_lists_every_hand_round_by_round(client, played):
    text = text_of(client.get(reverse("public:team", args=[played.slug, 1])))
    assert "Round 1 · table 1" in text and "Round 2 · table" in text
    assert "3 Uptown ♥ by North" in text and "Signed" in text and "In play" in text
    assert client.get(reverse("public:team", args=[played.slug, 99])).status_code == 404


def test_the_tournament_home_shows_current_announcements(client, played):
    announcement_post(tournament=played, text="Round 2 starts at 2 pm")
    expired = announcement_post(tournament=played, text="Old news", hours=1)
    expired.expires_at = expired.created_at.replace(year=2000)
    expired.save()
    text = text_of(client.get(reverse("public:tournament", args=[played.slug])))
    assert "Round 2 starts at 2 pm" in text and "Old news" not in text
    assert "Round 2 is being played" in text


def test_live_pages_refresh_themselves_while_a_round_is_played(client, played):
    html = client.get(reverse("public:standings", args=[played.slug])).content.decode()
    fragment = reverse("public:standings_fragment", args=[played.slug])
    assert f'hx-get="{fragment}" hx-trigger="every 20s"' in html and static("django_htmx/htmx-2.min.js") in html
    assert "Player" in client.get(fragment).content.decode(), "the fragment it fetches is the standings"


def test_drafts_are_not_public(client, tournament, make_teams):
    make_teams(tournament, 4)
    round_draw(tournament=tournament, method="manual")
    text = text_of(client.get(reverse("public:draw", args=[tournament.slug])))
    assert "first round has not been drawn" in text and "Player 0a" not in text


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "page",
    [
        "standings",
        "draw",
        "team",
        "projector",
        "tournament",
        "bracket",
        "standings_fragment",
        "draw_fragment",
        "rules",
    ],
)
def test_public_page_query_counts_do_not_grow_with_the_field(client, event, big_field, page):
    counts = []
    for size in (8, 512):
        tournament = tournament_create(event=event, name=f"Field of {size}")
        big_field(tournament, size, rounds=2)
        round_published(tournament, method="swiss")
        args = [tournament.slug, 1] if page == "team" else [tournament.slug]
        counts.append(count_queries(client, reverse(f"public:{page}", args=args)))
    assert counts[0] == counts[1], counts


def test_standings_sort_by_a_column(client, played):
    url = reverse("public:standings", args=[played.slug])
    html = client.get(url, {"sort": "-points_against"}).content.decode()
    against = [int(v) for v in re.findall(r'<td class="num wide-only">(\d+)</td>\s*<td class="num">', html)]
    assert against == sorted(against, reverse=True) and len(against) == 4


def test_a_standings_row_shows_a_withdrawn_team_and_its_name_as_text(client, played):
    """Each cell as its column declares it: the team linked and marked withdrawn, a name that looks like markup
    shown as text, a missing city as a dash, the difference signed."""
    team = played.teams.get(number=2)
    team.name, team.city, team.withdrawn = "<b>Aces</b> & Co", "", True
    team.save()
    html = client.get(reverse("public:standings", args=[played.slug])).content.decode()
    row = re.search(r'<tr id="team-2" class="withdrawn">(.*?)</tr>', html).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    team_url = reverse("public:team", args=[played.slug, 2])
    assert cells[1] == f'<a href="{team_url}">#2 &lt;b&gt;Aces&lt;/b&gt; &amp; Co</a> (withdrawn)'
    assert cells[3] == "—"
    assert re.fullmatch(r"[+-]\d+|0", cells[7])
    headers = re.search(r'<table class="data-table standings">\s*<thead>(.*?)</thead>', html, re.S).group(1)
    assert len(cells) == headers.count("<th "), "a cell under each header"


def test_favicon_address_gives_the_apps_icon(client, db):
    """Browsers, bookmarks and feed readers ask /favicon.ico of the site without reading a page: the app's icon,
    served from the collected static files as production serves them, and named on every page too."""
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == static("img/favicon.ico")
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content if icon.streaming else [icon.content])[:4] == b"\x00\x00\x01\x00"
    page = client.get(reverse("home")).content.decode()
    assert f'<link rel="icon" href="{static("img/favicon.ico")}"' in page


def test_the_projector_names_each_named_teams_players_under_it(client, tournament, sheet):
    """The standings' own players' names, whole and as surnames (the projector's script shows the surnames only
    where a line cannot hold the whole names); a team named by its players has no second line."""
    from tournament.services.teams import PlayerEntry, team_register

    team_register(
        tournament=tournament,
        players=[PlayerEntry("Ada King Lovelace"), PlayerEntry("Grace Hopper")],
        name="Eight Mile Books",
        checked_in=True,
    )
    team_register(
        tournament=tournament, players=[PlayerEntry("Alan Turing"), PlayerEntry("Edsger Dijkstra")], checked_in=True
    )
    sheet.play(round_published(tournament).tables.get(), "NS")
    html = client.get(reverse("public:projector", args=[tournament.slug])).content.decode()
    standings = html[html.index('id="panel-standings"') :].split("</section>")[0]
    lines = [text_of_html(line) for line in re.findall(r"<li>(.*?)</li>", standings, re.S)]
    assert lines == [
        "1 #1 Eight Mile Books Ada King Lovelace & Grace Hopper Lovelace & Hopper 1-0-0 · 4",
        "2 #2 Alan Turing & Edsger Dijkstra Turing & Dijkstra 0-1-0 · 2",
    ]
    assert standings.count('class="players"') == 1


def text_of_html(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
