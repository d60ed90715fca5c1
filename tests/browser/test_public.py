"""A player on a phone finds their table, their team's hands and the standings, also in large text."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_first_use import SCREENSHOTS, long_named_field  # noqa: F401 (fixture)
from tests.conftest import round_published


def test_a_player_finds_their_table_and_their_teams_hands(phone, transactional_db, tournament, make_teams, sheet):
    errors = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    make_teams(tournament, 6)
    round_1 = round_published(tournament)
    for table, winner in zip(round_1.tables.order_by("number"), ["NS", "EW", "tie"], strict=True):
        sheet.play(table, winner)
    round_2 = round_published(tournament, method="swiss")
    my_table = round_2.seatings.get(team__number=4).table

    phone.goto("/")
    phone.get_by_role("link", name="Main Event").click()
    phone.get_by_role("link", name="Find my table").click()
    phone.get_by_label("Find my table").fill("player 3b")
    phone.get_by_role("button", name="Find my table").click()
    cards = phone.locator(".draw-card")
    assert cards.count() == 1
    assert cards.first.get_by_role("heading").inner_text() == f"Table {my_table.number}"

    cards.first.get_by_role("link", name=re.compile("#4 ")).click()
    expect(phone.get_by_role("heading", name="#4 Player 3a & Player 3b")).to_be_visible()
    expect(phone.get_by_text("Round 1 · table 2")).to_be_visible()
    expect(phone.get_by_text("Won 4–2")).to_be_visible()

    phone.get_by_role("link", name="Standings").click()
    first_row = phone.locator("table.standings tbody tr").first
    assert first_row.locator("td").first.inner_text() in {"1", "T-1"}
    assert phone.locator("table.standings tbody tr").count() == 6
    assert errors == []


def test_the_links_a_player_taps_are_44_px_tall(phone, transactional_db, tournament, make_teams):
    """The standings' sort headers and exports, the draw's team links and the header's title are tapped on a
    phone: each is at least 44 px tall."""
    make_teams(tournament, 4)
    round_published(tournament)
    phone.goto(f"/t/{tournament.slug}/standings/")
    targets = [phone.locator(".data-table th a").first, phone.get_by_role("link", name="CSV", exact=True)]
    targets += [phone.get_by_role("link", name="XLSX", exact=True), phone.locator("a.brand")]
    heights = [target.bounding_box()["height"] for target in targets]
    phone.goto(f"/t/{tournament.slug}/draw/")
    heights.append(phone.locator(".draw-side a").first.bounding_box()["height"])
    assert min(heights) >= 44, heights


# Each word of the cells' text as the browser lays it out: a word drawn on more than one line is broken.
BROKEN_WORDS = """table => {
  const broken = [];
  for (const cell of table.querySelectorAll("th, td")) {
    if (!cell.offsetParent) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const found of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        const lines = new Set(Array.from(range.getClientRects()).map(rect => Math.round(rect.top)));
        if (lines.size > 1) broken.push(found[0]);
      }
    }
  }
  return broken;
}"""


def test_large_text_standings_keep_words_whole_on_a_phone(browser, live_server, long_named_field):  # noqa: F811
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_cookies([{"name": "display", "value": "large", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"/t/{long_named_field.slug}/standings/")
    table = page.locator("table.standings")
    table.screenshot(path=str(SCREENSHOTS / "standings-large-text-390x844.png"))
    assert float(table.locator("td").first.evaluate("cell => parseFloat(getComputedStyle(cell).fontSize)")) >= 24
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"
    assert page.locator(".table-wrap").evaluate("wrap => wrap.scrollWidth <= wrap.clientWidth"), "the table does"
    assert table.evaluate(BROKEN_WORDS) == [], "a word is broken across lines"
    assert table.locator("tbody tr").count() == 16
    for row in table.locator("tbody tr").all():
        for part in ("td:first-child", "td:nth-child(2)", "td.nowrap", "td.num >> nth=0"):
            box = row.locator(part).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{row.inner_text()}: {part} is cut"
    context.close()
