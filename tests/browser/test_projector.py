"""The projector in a hall: large type, pages that turn by themselves through every team and every table."""

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import round_published


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
