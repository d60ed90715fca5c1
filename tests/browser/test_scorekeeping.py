"""A table scorekeeper runs a whole round on a phone through the table's private link."""

import re

import pytest
from playwright.sync_api import expect

import scoring
from scoring import Bid, Deal, Penalty, PenaltyKind, Seat
from tests.conftest import round_published


@pytest.fixture
def live_table(transactional_db, tournament, make_teams):
    make_teams(tournament, 2)
    return round_published(tournament).tables.get()


def tap(form, field, label):
    form.locator(f"[data-field={field}] label", has_text=re.compile(f"^{re.escape(label)}")).first.click()


def tap_bid(form, bid):
    """One tap on the bid grid, whose buttons read "4 Uptown", "4 Downtown", "4 No Trump"; ``bid`` in any spelling
    a scorekeeper writes ("4", "4 downtown", "4 NT")."""
    label = str(Bid.parse(bid))
    form.locator("[data-field=bid] label", has_text=re.compile(f"^{re.escape(label)}$")).click()


def enter_hand(page, bidder, bid, trump, books):
    """Bidder, bid, (trump or direction,) books: the tap on the books saves it. Waits for the saved sheet."""
    form = page.locator("#hand-form")
    number = form.locator(".hand-number").inner_text()
    tap(form, "bidder", bidder)
    tap_bid(form, bid)
    if trump:
        tap(form, "direction" if Bid.parse(bid).is_no_trump else "suit", trump)
    form.locator("[data-field=books] label").nth(books).click()
    page.get_by_text(f"Hand {number} saved").wait_for()


def test_a_full_round_with_a_renege_and_a_re_deal(phone, live_table):
    phone.goto(f"/table/{live_table.secret}/")
    first = phone.locator("#first-dealer-form")
    tap(first, "seat", "N ·")
    first.get_by_role("button", name="This seat deals first").click()
    expect(phone.get_by_text("dealer: North")).to_be_visible()

    enter_hand(phone, "E ·", "3 Downtown", "♥", 10)
    assert phone.locator(".message-success").inner_text().startswith("Hand 1 saved")

    phone.get_by_text("Re-deal (misdeal").click()
    redeal = phone.locator("form[action$='/redeal/']")
    redeal.get_by_label("Misdeal").check()
    redeal.get_by_role("button", name="Record the re-deal").click()
    expect(phone.get_by_text("Re-deal recorded: hand 2 is dealt again.")).to_be_visible()

    enter_hand(phone, "N ·", "4 Uptown", "♠", 9)
    phone.get_by_text("Penalty", exact=True).click()
    penalty = phone.locator("form[action$='/penalties/']")
    expect(penalty.locator("[data-field=team]"), "the offence comes first").to_be_hidden()
    penalty.get_by_text("Renege (books move before scoring)").click()
    expect(penalty.locator("[data-field=count]")).to_be_visible()
    expect(penalty.locator("[data-field=choice]"), "only the offence's own fields show").to_be_hidden()
    tap(penalty, "team", "East–West")
    penalty.get_by_role("button", name="Record the penalty").click()
    expect(phone.get_by_text("Penalty recorded: Renege by East–West.")).to_be_visible()

    enter_hand(phone, "S ·", "2 No Trump", "Downtown", 8)
    enter_hand(phone, "W ·", "1 Uptown", "", 6)
    expect(phone.get_by_text("Round complete")).to_be_visible()

    for side, pair in (("North–South", "NS"), ("East–West", "EW")):
        form = phone.locator("form.sign-form", has_text=side)
        form.locator("[data-field=player] label").first.click()
        form.get_by_label("Team code").fill(live_table.team_at(pair).code)
        form.get_by_role("button", name=f"Sign for {side}").click()
    expect(phone.get_by_text("Signed by both teams and locked.")).to_be_visible()

    expected = scoring.score_round(
        live_table.round.tournament.rules,
        [
            Deal(Seat.NORTH, Seat.EAST, Bid.parse("3 Downtown"), 10),
            Deal(Seat.EAST, misdeal=True),
            Deal(Seat.EAST, Seat.NORTH, Bid.parse("4 Uptown"), 9, penalties=(Penalty(PenaltyKind.RENEGE, "EW"),)),
            Deal(Seat.SOUTH, Seat.SOUTH, Bid.parse("2 No Trump"), 8),
            Deal(Seat.WEST, Seat.WEST, Bid.parse("1 Uptown"), 6),
        ],
    )
    assert phone.locator("#total-ns").inner_text() == str(expected.totals["NS"])
    assert phone.locator("#total-ew").inner_text() == str(expected.totals["EW"])
    assert (expected.totals["NS"], expected.totals["EW"]) == (6 + 4 + 1, 4)
    live_table.refresh_from_db()
    assert live_table.signed and (live_table.ns_total, live_table.ew_total) == (11, 4)
    assert phone.locator("#hand-form").count() == 0, "a locked sheet offers no entry form"


def test_without_javascript_a_confirmation_page_shows_the_points(browser, live_server, live_table):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=live_server.url, java_script_enabled=False
    )
    page = context.new_page()
    page.goto(f"/table/{live_table.secret}/")
    first = page.locator("#first-dealer-form")
    first.locator("[data-field=seat] label").nth(2).click()
    first.get_by_role("button", name="This seat deals first").click()
    page.get_by_text("Enter hand 1").wait_for()
    page.wait_for_load_state("load")
    form = page.locator("#hand-form")
    loads = []
    page.on("load", lambda loaded: loads.append(loaded.url))
    form.locator("[data-field=bidder] label").nth(0).click()
    tap_bid(form, "5 No Trump")
    form.locator("[data-field=books] label").nth(11).click()
    form.get_by_role("button", name="Show points").click()
    expect(page.get_by_text("This hand: North–South 10, East–West 0 (made).")).to_be_visible()
    expect(page.locator(".card strong").first, "the bid read back in the players' words").to_have_text(
        "5 No Trump (uptown)"
    )
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_text("Hand 1 saved: North–South 10, East–West 0.")).to_be_visible()
    # The sheet shows before its load event fires (a stylesheet still coming on a loaded machine): count after it.
    page.wait_for_load_state("load")
    assert len(loads) == 2, f"a hand without JavaScript: the check page, then the sheet ({loads})"
    assert page.locator("#total-ns").inner_text() == "10"
    context.close()


def test_the_bid_grid_names_each_kind_whole_in_its_button_on_a_phone(phone, live_table):
    """At 390 px the 21 bids keep three rows, each button reading its level and the players' word for its kind
    ("Uptown", "Downtown", "No Trump"): none running past its button (a word too wide goes on two lines between
    its parts, "Down" and "town")."""
    phone.goto(f"/table/{live_table.secret}/")
    first = phone.locator("#first-dealer-form")
    tap(first, "seat", "N ·")
    first.get_by_role("button", name="This seat deals first").click()
    grid = phone.locator("#hand-form [data-field=bid] .bid-grid")
    grid.wait_for()
    words = grid.locator("label small").all_inner_texts()
    assert words[:3] == ["Uptown", "Downtown", "No Trump"] and len(words) == 21
    spilling = phone.evaluate(
        """[...document.querySelectorAll('#hand-form .bid-grid label')].filter(label => {
            const small = label.querySelector('small'), box = label.getBoundingClientRect();
            const word = small.getBoundingClientRect();
            return small.scrollWidth > small.clientWidth + 1 || word.left < box.left - 1 || word.right > box.right + 1;
        }).map(label => label.innerText)"""
    )
    assert not spilling, spilling
    rows = {round(box["y"]) for box in (label.bounding_box() for label in grid.locator("label").all())}
    assert len(rows) == 3, rows
    grid.screenshot(path="/tmp/words-bid-grid.png")
