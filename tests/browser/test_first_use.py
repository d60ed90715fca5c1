"""What a new scorekeeper, director or player meets first, at the size they meet it: a hand entered on a
phone without scrolling, the edit page's points, the public tabs on a phone, the projector's long names."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import RuleSet
from tests.browser.conftest import PHONE, in_view
from tests.browser.test_scorekeeping import tap, tap_bid
from tests.conftest import round_published
from tournament.models import PlayoffMatch, Tournament
from tournament.services import sheets
from tournament.services.clock import round_clock_start
from tournament.services.events import tournament_rules_set
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.sheets import ChangeContext
from tournament.services.teams import PlayerEntry, team_register

# Where the screenshots go, to be looked at (BROWSER_SCREENSHOTS=dir; else a temporary folder).
SCREENSHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS", "/tmp"))

COUNT_TAPS = """
window.addEventListener("pointerdown", function () {
  sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
}, true);
"""


@pytest.fixture
def fresh_table(transactional_db, tournament, make_teams):
    """Table 1 of round 1 as its phone first opens it: no first dealer named yet."""
    make_teams(tournament, 2)
    return round_published(tournament).tables.get()


def fully_in_view(page, selector) -> bool:
    return in_view(page, selector, enough=float("inf"))


def above_the_save_bar(page, selector) -> bool:
    """Wholly on screen and not under the save bar that stays at the bottom of the screen."""
    bar = page.locator("#hand-form .save-bar").bounding_box()
    box = page.locator(selector).first.bounding_box()
    return box["y"] >= 0 and box["y"] + box["height"] <= bar["y"] + 1


def taps(page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('taps') || 0)"))


def test_a_hand_is_entered_without_scrolling_from_the_first_dealer_on(phone, fresh_table):
    phone.context.add_init_script(COUNT_TAPS)
    phone.goto(f"/table/{fresh_table.secret}/")
    assert fully_in_view(phone, "#first-dealer-form button"), "the first dealer is named without scrolling"
    phone.locator("#first-dealer-form [data-field=seat] label").first.click()
    phone.get_by_role("button", name="This seat deals first").click()
    phone.get_by_text("First dealer named").wait_for()
    per_hand = []
    for number, (bidder, bid, books) in enumerate((("N ·", "3", 9), ("E ·", "4 Special", 10)), start=1):
        phone.wait_for_load_state("load")
        assert fully_in_view(phone, "#hand-submit")
        for field in ("bidder", "bid", "suit", "books"):
            assert above_the_save_bar(phone, f"#hand-form [data-field={field}]"), f"hand {number}: {field} in view"
        phone.evaluate("sessionStorage.setItem('taps', '0')")
        form = phone.locator("#hand-form")
        tap(form, "bidder", bidder)
        tap_bid(form, bid)
        form.locator("[data-field=suit] label").nth(1).click()
        form.locator("[data-field=books] label").nth(books).click()
        phone.get_by_text(f"Hand {number} saved").wait_for()
        per_hand.append(taps(phone))
    assert per_hand == [4, 4], "bidder, bid, trump, books: the books save the hand"
    hands = list(fresh_table.hands.order_by("sequence"))
    assert [(hand.bidder, hand.suit, hand.books) for hand in hands] == [("N", "hearts", 9), ("E", "hearts", 10)]

    # Tapped in another order, the hand waits for Save, its points shown clear of the books.
    phone.wait_for_load_state("load")
    start = phone.evaluate("window.scrollY")
    form = phone.locator("#hand-form")
    form.locator("[data-field=books] label").nth(8).click()
    tap(form, "bidder", "S ·")
    tap_bid(form, "2")
    phone.wait_for_selector("#hand-preview .preview-box")
    assert above_the_save_bar(phone, "#hand-form [data-field=books]"), "the points cover none of the books"
    assert fully_in_view(phone, "#hand-preview .preview-box") and fully_in_view(phone, "#hand-submit")
    assert phone.evaluate("window.scrollY") == start, "nothing scrolled while the hand was entered"
    assert fresh_table.hands.count() == 2
    form.locator("#hand-submit").click()
    phone.get_by_text("Hand 3 saved").wait_for()


def test_the_first_question_of_a_round_is_on_screen_when_the_page_opens(phone, transactional_db, tournament):
    """With the round's clock running and teams named as people name them, the phone's first screen holds the
    first dealer's question and its button: the empty sheet is not drawn above it."""
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    for name, players, city in (
        ("The Eight Mile Books", ("Bernadette Washington", "Cornelius Abernathy"), "Detroit"),
        ("Uptown Downtown Runners", ("Maximiliana Thornbury", "Jacqueline Rutherford"), "Chicago"),
    ):
        entries = [PlayerEntry(player, city) for player in players]
        team_register(tournament=tournament, name=name, players=entries, checked_in=True)
    table = round_clock_start(round=round_published(tournament)).tables.get()
    phone.goto(f"/table/{table.secret}/")
    phone.screenshot(path=str(SCREENSHOTS / "first-table-page.png"))
    expect(phone.get_by_role("timer")).to_be_visible()
    button = phone.get_by_role("button", name="This seat deals first").bounding_box()
    question = phone.get_by_text("Who was dealt the first diamond?").bounding_box()
    assert phone.evaluate("window.scrollY") == 0
    assert question["y"] >= 0 and button["y"] + button["height"] <= PHONE["height"], button
    assert phone.get_by_text("No hand entered yet").count() == 0


def test_the_edit_page_shows_the_points_as_the_hand_is_changed(phone, fresh_table, sheet):
    sheets.table_first_dealer_set(table=fresh_table, seat="N", context=ChangeContext(version=0))
    sheet.hand(fresh_table, "N", "N", 3, "high", 9)
    sheet.hand(fresh_table, "E", "E", 4, "low", 10)
    phone.goto(f"/table/{fresh_table.secret}/")
    phone.get_by_role("link", name="Edit hand 1").click()
    preview = phone.locator("#hand-preview .preview-box")
    preview.wait_for()
    assert "This hand: North–South 3, East–West 0 (made)" in preview.inner_text(), "the hand as it stands"
    phone.locator("[data-field=books] label").nth(7).click()
    phone.get_by_text("This hand: North–South 0, East–West 3 (set).").wait_for()
    assert "Totals after it: North–South 0, East–West 7" in preview.inner_text()
    assert fresh_table.hands.get(sequence=1).books == 9, "nothing changes before Save"
    phone.get_by_role("button", name="Save hand 1").click()
    phone.get_by_text("Hand 1 changed").wait_for()
    assert fresh_table.hands.get(sequence=1).books == 7


def test_a_round_counted_as_a_person_does_it(phone, fresh_table):
    """First dealer, four hands with the trump named, and both signatures; North–South opened its team page on
    this phone from its slip's QR code before the round, so only East–West types its code."""
    ns, ew = fresh_table.team_at("NS"), fresh_table.team_at("EW")
    phone.goto(f"/my/?code={ns.code}")
    phone.get_by_role("button", name="Open my team's page").click()
    phone.wait_for_url("**/my/*/")
    phone.context.add_init_script(COUNT_TAPS)
    phone.goto(f"/table/{fresh_table.secret}/")
    phone.evaluate("sessionStorage.setItem('taps', '0')")
    phone.locator("#first-dealer-form [data-field=seat] label").first.click()
    phone.get_by_role("button", name="This seat deals first").click()
    phone.get_by_text("First dealer named").wait_for()
    first_dealer = taps(phone)
    hands = []
    for number, (bidder, bid, books) in enumerate(
        (("N ·", "3", 9), ("E ·", "4 Special", 10), ("S ·", "2", 8), ("W ·", "1", 7)), start=1
    ):
        phone.evaluate("sessionStorage.setItem('taps', '0')")
        form = phone.locator("#hand-form")
        tap(form, "bidder", bidder)
        tap_bid(form, bid)
        form.locator("[data-field=suit] label").nth(0).click()
        form.locator("[data-field=books] label").nth(books).click()
        phone.get_by_text(f"Hand {number} saved").wait_for()
        phone.wait_for_load_state("load")
        hands.append(taps(phone))
    signatures, characters = [], 0
    for side, pair in (("North–South", "NS"), ("East–West", "EW")):
        phone.evaluate("sessionStorage.setItem('taps', '0')")
        form = phone.locator("form.sign-form", has_text=side)
        form.locator("[data-field=player] label").first.click()
        if pair == "EW":
            code = form.get_by_label("Team code")
            code.click()
            code.press_sequentially(ew.code)
            characters += len(ew.code)
        else:
            assert form.get_by_label("Team code").count() == 0, "North–South showed its code on this phone"
        form.get_by_role("button", name=f"Sign for {side}").click()
        phone.get_by_text(f"for {side}.").first.wait_for()
        signatures.append(taps(phone))
    expect(phone.get_by_text("Signed by both teams and locked.")).to_be_visible()
    assert (first_dealer, hands, signatures, characters) == (2, [4, 4, 4, 4], [2, 3], 6)
    total = first_dealer + sum(hands) + sum(signatures)
    print(f"\nround: first dealer {first_dealer}, hands {hands}, signatures {signatures}: {total} taps + {characters}")


@pytest.mark.parametrize("opened", [False, True])
def test_in_accept_mode_the_acceptance_then_the_next_hand_are_in_view(phone, fresh_table, opened):
    """The opponents accept with their code, or with one tap when they opened their team's page on this phone."""
    Tournament.objects.filter(pk=fresh_table.round.tournament_id).update(sheet_mode=Tournament.SheetMode.ACCEPT)
    sheets.table_first_dealer_set(table=fresh_table, seat="N", context=ChangeContext(version=0))
    if opened:
        phone.goto(f"/my/?code={fresh_table.team_at('EW').code}")
        phone.get_by_role("button", name="Open my team's page").click()
        phone.wait_for_url("**/my/*/")
    phone.goto(f"/table/{fresh_table.secret}/")
    form = phone.locator("#hand-form")
    tap(form, "bidder", "N ·")
    tap_bid(form, "3")
    form.locator("[data-field=books] label").nth(9).click()
    phone.get_by_text("Hand 1 saved").wait_for()
    phone.wait_for_load_state("load")
    accept = phone.locator("#accept-1")
    assert fully_in_view(phone, "#accept-1"), "after a save the other team's acceptance is in view"
    if opened:
        assert accept.get_by_label("East–West's team code").count() == 0
        expect(accept.get_by_text("no need to type it again")).to_be_visible()
    else:
        accept.get_by_label("East–West's team code").fill(fresh_table.team_at("EW").code)
    accept.get_by_role("button", name="Accept hand 1").click()
    phone.get_by_text("Hand 1 accepted.").wait_for()
    phone.wait_for_load_state("load")
    assert phone.locator("#accept-1").count() == 0
    for field in ("bidder", "bid", "books"):
        assert above_the_save_bar(phone, f"#hand-form [data-field={field}]"), f"then hand 2's {field} is in view"
    assert fresh_table.hands.get().accepted_at is not None


LONG_NAMES = [
    "The Magnificent Uptown Bid Whist Brothers of Greater Detroit",
    "Sisters of the Downtown No-Trump Boston Society",
    "Chicago South Side Card Sharks and Friends",
    "Bartholomew Washington-Jefferson & Maximiliana Okonkwo-Richardson",
]


@pytest.fixture
def long_named_field(transactional_db, tournament, sheet):
    """16 teams, many with names far longer than a projector line, round 1 signed at every table."""
    for number in range(16):
        players = [PlayerEntry(f"Player {number}a", "Detroit"), PlayerEntry(f"Player {number}b", "Detroit")]
        name = LONG_NAMES[number % len(LONG_NAMES)] if number % 2 == 0 else ""
        team_register(tournament=tournament, players=players, name=name, checked_in=True)
    for table in round_published(tournament, method="random", seed=3).tables.all():
        sheet.play(table, "NS")
    return tournament


def test_the_projectors_standings_show_every_rows_figures_however_long_the_name(browser, live_server, long_named_field):
    page = browser.new_page(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    # The clock stands still but for run_for: on a busy machine real seconds must not turn the pages too.
    page.clock.install(time=0)
    page.clock.pause_at(1_000)
    page.goto(f"/t/{long_named_field.slug}/projector/?seconds=10")
    page.screenshot(path=str(SCREENSHOTS / "projector-standings-1280x720.png"))
    seen, shortened = set(), 0
    for _ in range(4):  # the pages turn every 10 seconds; the standings come first
        rows = page.locator("#panel-standings:visible .projector-lines li:visible")
        for index in range(rows.count()):
            row = rows.nth(index)
            line = row.bounding_box()
            assert line["y"] + line["height"] <= 720
            for part in (".place", ".name", ".figures"):
                box = row.locator(part).bounding_box()
                assert box and box["width"] > 0, f"{row.inner_text()}: no {part}"
                inside = line["x"] <= box["x"] and box["x"] + box["width"] <= line["x"] + line["width"] + 0.5
                on_the_line = line["y"] <= box["y"] and box["y"] + box["height"] <= line["y"] + line["height"] + 0.5
                assert inside and on_the_line, f"{row.inner_text()}: its {part} is cut"
            figures = row.locator(".figures").inner_text()
            assert re.fullmatch(r"\d+-\d+(-\d+)? · \d+", figures), figures
            cut = row.locator(".name .fit").evaluate("name => name.scrollWidth > name.clientWidth + 1")
            one_column = row.evaluate("row => getComputedStyle(row.parentElement).columnCount") != "2"
            assert one_column or not cut, f"{row.inner_text()}: shortened where one column would hold it"
            shortened += cut
            seen.add(row.locator(".number").inner_text())
        page.clock.run_for(10_000)
    assert len(seen) == 16, "every team's row was shown"
    assert shortened <= 4, "only the longest names are shortened, never the figures"
    page.close()


def test_every_public_tab_is_seen_on_a_phone_without_scrolling_sideways(phone, transactional_db, tournament, sheet):
    tournament.qualifying_rounds = 1
    tournament.name = "Spring Classic Main Event"
    tournament.save()
    for number in range(4):
        team_register(tournament=tournament, players=[PlayerEntry(f"P{number}a"), PlayerEntry(f"P{number}b")])
    tournament.teams.update(checked_in=True)
    for table in round_published(tournament).tables.all():
        sheet.play(table, "NS")
    playoff_seed(tournament=tournament, teams=2)
    playoff_publish(tournament=tournament)
    for path in ("", "standings/", "draw/", "bracket/", "statistics/", "rules/"):
        phone.goto(f"/t/{tournament.slug}/{path}")
        tabs = phone.locator("nav.tabs")
        assert tabs.evaluate("nav => nav.scrollWidth <= nav.clientWidth"), f"{path}: the tabs scroll sideways"
        links = tabs.get_by_role("link")
        assert links.count() == 7, "home, standings, tables, playoff, statistics, rules, my team"
        for index in range(links.count()):
            box = links.nth(index).bounding_box()
            name = links.nth(index).inner_text()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{path}: {name} is cut"
            assert box["y"] + box["height"] <= PHONE["height"] and box["height"] >= 44, f"{path}: {name}"
        expect(tabs.get_by_role("link", name="My team")).to_be_visible()
    phone.screenshot(path=str(SCREENSHOTS / "public-tabs-390x844.png"))


TEXT_BOXES = """match => Array.from(match.querySelectorAll("text")).map(text => {
  const box = text.getBBox();
  return {cls: text.getAttribute("class"), text: text.textContent, x: box.x, right: box.x + box.width,
          condensed: text.hasAttribute("textLength")};
})"""


@pytest.mark.parametrize("double", [False, True])
def test_bracket_names_fit_clear_of_the_score_and_every_drop_in_has_its_line(
    browser, live_server, long_named_field, sheet, double
):
    long_named_field.qualifying_rounds = 1
    long_named_field.save()
    playoff_seed(tournament=long_named_field, teams=8, third_place=not double, double=double)
    playoff_publish(tournament=long_named_field)
    for code in ("W1-1", "W1-2", "W1-3"):
        sheet.play(PlayoffMatch.objects.get(tournament=long_named_field, code=code).table, "NS")
    page = browser.new_page(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    page.goto(f"/t/{long_named_field.slug}/bracket/")
    page.screenshot(path=str(SCREENSHOTS / f"bracket-{'double' if double else 'single'}-1280x800.png"), full_page=True)
    names = {f"#{team.number} {team.display_name}" for team in long_named_field.teams.all()}
    shown, shortened = set(), set()
    for index in range(page.locator("g.match").count()):
        match = page.locator("g.match").nth(index)
        texts = match.evaluate(TEXT_BOXES)
        width = float(match.locator("rect").get_attribute("width"))
        teams = [t for t in texts if t["cls"].startswith("team")]
        points = [t for t in texts if t["cls"] == "points" and t["text"]]
        for team in teams:
            assert team["right"] <= width - 7, f"{team['text']} runs out of its box"
            for score in points:
                assert team["right"] + 8 <= score["x"], f"{team['text']} touches the score {score['text']}"
            if team["text"] in names:
                shown.add(team["text"])
            elif team["text"].endswith("…"):
                assert team["condensed"], f"{team['text']}: shortened before it was condensed"
                (full,) = [name for name in names if name.startswith(team["text"][:-1])]
                assert len(full) > 38, f"{full}: shortened although condensed it would fit"
                shortened.add(full)
    seeded = {f"#{seed.team.number} {seed.team.display_name}" for seed in long_named_field.playoff_seeds.all()}
    assert {name for name in seeded if len(name) <= 38} <= shown, "every name of up to 38 characters is whole"
    assert shown | shortened == seeded, "every seed's name is on the bracket"
    if double:
        losers = page.locator("figure", has_text="Losers' bracket")
        matches = PlayoffMatch.objects.filter(tournament=long_named_field, bracket="losers")
        drops = sum(source.startswith("loser") for m in matches for source in (m.top_source, m.bottom_source))
        assert losers.locator("g.leaf").count() == drops == 7, "each team dropping in comes in on its own line"
        assert losers.locator("path.bracket-line").count() >= drops
    page.close()
