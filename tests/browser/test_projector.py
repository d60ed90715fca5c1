"""The projector in a hall: large type, pages that turn by themselves through every team and every table, each
team's name whole wherever the width allows and its players' names under it."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_first_use import SCREENSHOTS
from tests.conftest import round_published
from tournament.services.teams import PlayerEntry, team_register


@pytest.fixture
def big_round(transactional_db, tournament, make_teams, sheet):
    """64 teams, round 1 published with a few sheets signed."""
    make_teams(tournament, 64)
    round_ = round_published(tournament, method="random", seed=4)
    for table in round_.tables.order_by("number")[:6]:
        sheet.play(table)
    return round_


@pytest.mark.parametrize("screen", [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}])
def test_every_team_and_table_shows_without_anyone_touching_it(browser, live_server, big_round, screen):
    context = browser.new_context(viewport=screen, base_url=live_server.url)
    page = context.new_page()
    # The clock stands still but for run_for: on a busy machine real seconds must not turn the pages too.
    page.clock.install(time=0)
    page.clock.pause_at(1_000)
    page.goto(f"/t/{big_round.tournament.slug}/projector/?seconds=10")
    seen_lines, seen_panels = set(), []
    for _ in range(12):
        # After the last page the projector reloads itself: wait until its script shows one panel again.
        expect(page.locator(".projector-panel:not([hidden])")).to_have_count(1, timeout=20_000)
        panel = page.locator(".projector-panel:visible")
        title = panel.locator("h1").inner_text()
        if title in seen_panels:
            break
        seen_panels.append(title)
        lines = panel.locator(".projector-lines li:visible")
        assert lines.count() > 1
        for index in range(lines.count()):
            box = lines.nth(index).bounding_box()
            assert box["y"] + box["height"] <= screen["height"] + 1, f"{title}: a line below the screen"
            assert lines.nth(index).evaluate("line => line.scrollWidth <= line.clientWidth"), f"{title}: a line cut"
            seen_lines.add(" ".join(lines.nth(index).inner_text().split()))
        size = float(lines.first.evaluate("line => getComputedStyle(line).fontSize").removesuffix("px"))
        assert size >= 24, f"{size}px is too small for a hall"
        assert lines.first.evaluate("line => getComputedStyle(line).textDecorationLine") == "none"
        page.clock.run_for(10_000)
    text = "\n".join(seen_lines)
    for number in range(1, 65):
        assert re.search(rf"#{number} Player", text), f"team #{number} never shown"
    tables = {int(line.split()[0]) for line in seen_lines if re.match(r"^\d+ #\d+ .* v #\d+", line)}
    assert tables == set(range(1, 33)), "every table of the round is shown"
    assert any("standings" in title for title in seen_panels) and any("tables" in title for title in seen_panels)
    assert any("1 of" in title for title in seen_panels), "a long list is cut into pages"
    context.close()


WHOLE_PLAYERS = ["Bartholomew Alexander Washington-Jefferson", "Maximiliana Theodora Okonkwo-Richardson"]
SURNAMES = "Washington-Jefferson & Okonkwo-Richardson"


@pytest.fixture
def named_field(transactional_db, tournament, sheet):
    """20 teams: short names, long names, and players' names too long for a line at 1280 px."""
    for number in range(20):
        players = [PlayerEntry(f"Player {number}a"), PlayerEntry(f"Player {number}b")]
        name = ["Eight Mile Books", "", "The Magnificent Uptown Bid Whist Brothers of Greater Detroit", ""][number % 4]
        if number in (2, 3):
            players = [PlayerEntry(whole, f"City {number}") for whole in WHOLE_PLAYERS]
        team_register(tournament=tournament, players=players, name=name, checked_in=True)
    for table in round_published(tournament, method="random", seed=3).tables.all():
        sheet.play(table, "NS")
    return tournament


# A line's team as shown: its number, name and players' names (the whole ones or their surnames, as shown),
# and whether each is whole on the screen.
SHOWN = """line => {
  const visible = element => element && element.getClientRects().length > 0;
  const shown = element => Array.from(element.querySelectorAll(".whole, .surnames")).filter(visible)
    .map(part => part.textContent).join("") || element.textContent;
  const fits = Array.from(line.querySelectorAll(".fit")).filter(visible);
  const players = line.querySelector(".players");
  return {number: line.querySelector(".number").textContent, name: shown(line.querySelector(".name .fit")),
          players: players ? shown(players) : null, whole: fits.every(fit => fit.scrollWidth <= fit.clientWidth + 1),
          columns: getComputedStyle(line.parentElement).columnCount};
}"""


@pytest.mark.parametrize("screen", [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}])
def test_the_standings_show_whole_names_and_the_players_under_them(browser, live_server, named_field, screen):
    page = browser.new_page(viewport=screen, base_url=live_server.url)
    page.clock.install(time=0)
    page.clock.pause_at(1_000)
    page.goto(f"/t/{named_field.slug}/projector/?seconds=10")
    size = f"{screen['width']}x{screen['height']}"
    teams = {team.number: team for team in named_field.teams.prefetch_related("memberships__player")}
    seen = {}
    for turn in range(6):
        lines = page.locator("#panel-standings:visible .projector-lines li:visible")
        if not lines.count():
            break
        page.screenshot(path=str(SCREENSHOTS / f"projector-names-{size}-{turn}.png"))
        for line in lines.all():
            shown = line.evaluate(SHOWN)
            number = int(shown["number"].removeprefix("#"))
            team = teams[number]
            box, number_box = line.bounding_box(), line.locator(".number").bounding_box()
            assert box["x"] <= number_box["x"] and number_box["x"] + number_box["width"] <= box["x"] + box["width"]
            if shown["columns"] == "2":
                assert shown["whole"], f"#{number}: shortened on a page of two columns, which one column would show"
            if team.name:
                assert shown["players"] in (team.player_names, team.player_surnames), f"#{number}: {shown}"
                assert shown["name"] == team.name or not shown["whole"], f"#{number}: {shown}"
            else:
                assert shown["players"] is None and shown["name"] in (team.player_names, team.player_surnames)
            seen[number] = shown
        page.clock.run_for(10_000)
    assert set(seen) == set(teams), "every team's line was shown"
    books = [shown for number, shown in seen.items() if teams[number].name == "Eight Mile Books"]
    assert all(shown["whole"] and shown["name"] == "Eight Mile Books" for shown in books), books
    assert all(shown["players"] == teams[number].player_names for number, shown in seen.items() if number % 4 == 1)
    assert seen[3]["name"] == teams[3].name and seen[3]["whole"], "a long team name is whole on a line of its own"
    if screen["width"] == 1280:
        assert seen[3]["players"] == SURNAMES and seen[4]["name"] == SURNAMES, "a line too short keeps the surnames"
    else:
        assert seen[3]["players"] == teams[3].player_names, "a line long enough holds the players' whole names"
    page.close()
