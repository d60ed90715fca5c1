"""A player on a phone finds their table, their team's hands and the standings."""

import re

from playwright.sync_api import expect

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
