"""The scorekeeper's phone at 390×844: taps counted by the page itself, the next form in view after each
save, a hand saved on the wrong books undone and corrected, a removal undone, and hands entered with the network
down saved exactly once when it returns."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import in_view, wait_until
from tests.browser.test_scorekeeping import tap, tap_bid
from tests.conftest import round_published
from tests.tournament.test_deal_entry import direction_listed  # noqa: F401  (a fixture)
from tournament.models import Hand
from tournament.services import sheets
from tournament.services.sheets import ChangeContext

COUNT_TAPS = """
window.addEventListener("pointerdown", function () {
  sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
}, true);
"""


@pytest.fixture
def dealt_table(transactional_db, tournament, make_teams):
    """Table 1 of round 1 with North named as the first dealer, as the table does before the first hand."""
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    return sheets.table_first_dealer_set(table=table, seat="N", context=ChangeContext(version=0))


def taps(page) -> int:
    return int(page.evaluate("Number(sessionStorage.getItem('taps') || 0)"))


FIELDS = ("bidder", "bid", "suit", "books")


def reset_taps(page):
    page.evaluate("sessionStorage.setItem('taps', '0')")


def tap_hand(page, bidder, bid, books, trump=""):
    """A hand as a scorekeeper taps it: bidder, bid, the trump if named, books; the tap on the books saves it."""
    form = page.locator("#hand-form")
    number = form.locator(".hand-number").inner_text()
    tap(form, "bidder", bidder)
    tap_bid(form, bid)
    if trump:
        tap(form, "suit", trump)
    form.locator("[data-field=books] label").nth(books).click()
    return number


def test_a_hand_takes_three_taps_four_with_the_trump_and_the_next_form_is_in_view(phone, dealt_table):
    phone.context.add_init_script(COUNT_TAPS)
    phone.goto(f"/table/{dealt_table.secret}/")
    per_hand = []
    plan = (("N ·", "3", 9, "♥"), ("E ·", "4 Special", 10, ""), ("S ·", "2 No", 8, ""), ("W ·", "1", 7, "♠"))
    for bidder, bid, books, trump in plan:
        reset_taps(phone)
        number = tap_hand(phone, bidder, bid, books, trump)
        phone.get_by_text(f"Hand {number} saved").wait_for()
        phone.wait_for_load_state("load")
        per_hand.append(taps(phone))
        assert in_view(phone, ".message-success"), f"hand {number}'s message is in view"
        undo = phone.get_by_role("button", name=f"Undo hand {number}")
        assert in_view(phone, undo) and undo.bounding_box()["height"] >= 44, "its undo is in reach"
        if number != "4":
            assert in_view(phone, "#hand-form [data-field=bidder]"), "the next hand's form is at the top"
    assert per_hand == [4, 3, 3, 4], "bidder, bid, (trump,) books"
    suits = [hand.suit for hand in Hand.objects.filter(table=dealt_table).order_by("sequence")]
    assert suits == ["hearts", "", "", "spades"]

    expect(phone.get_by_text("Round complete")).to_be_visible()
    assert in_view(phone, "#signing form"), "after the last hand the signatures are in view"
    for side, pair in (("North–South", "NS"), ("East–West", "EW")):
        reset_taps(phone)
        form = phone.locator("form.sign-form", has_text=side)
        assert in_view(phone, f"#sign-{pair}"), f"{side}'s signature is in view without scrolling back"
        form.locator("[data-field=player] label").first.click()
        code = form.get_by_label("Team code")
        code.click()
        code.press_sequentially(dealt_table.team_at(pair).code)
        form.get_by_role("button", name=f"Sign for {side}").click()
        phone.get_by_text(f"for {side}.").first.wait_for()
        per_hand.append(taps(phone))
    expect(phone.get_by_text("Signed by both teams and locked.")).to_be_visible()
    assert per_hand[4:] == [3, 3], "a signature: the player, the code field (6 characters typed), sign"
    assert sum(per_hand) == 20
    print(f"\ntaps per hand {per_hand[:4]}, per signature {per_hand[4:]} (+6 characters), per round {sum(per_hand)}")
    dealt_table.refresh_from_db()
    assert dealt_table.signed and dealt_table.hands.count() == 4


def test_a_hand_saved_on_the_wrong_books_is_undone_with_one_tap_and_corrected_with_one_more(phone, dealt_table):
    phone.context.add_init_script(COUNT_TAPS)
    phone.goto(f"/table/{dealt_table.secret}/")
    reset_taps(phone)
    tap_hand(phone, "N ·", "3", 9, "♥")
    phone.get_by_text("Hand 1 saved: North–South 3").wait_for()
    phone.get_by_role("button", name="Undo hand 1").click()
    phone.get_by_text("Hand 1 undone").wait_for()
    phone.wait_for_load_state("load")
    assert not Hand.objects.filter(table=dealt_table).exists()
    form = phone.locator("#hand-form")
    chosen = {field: form.locator(f"[data-field={field}] input:checked").get_attribute("value") for field in FIELDS}
    assert chosen == {"bidder": "N", "bid": "3:high", "suit": "hearts", "books": "9"}, "the hand as it was tapped"
    assert in_view(phone, "#hand-form [data-field=books]")
    form.locator("[data-field=books] label").nth(10).click()
    phone.get_by_text("Hand 1 saved: North–South 4").wait_for()
    assert taps(phone) == 6, "four taps, the undo, the right books"
    hand = Hand.objects.get(table=dealt_table)
    assert (hand.bidder, hand.suit, hand.books) == ("N", "hearts", 10)

    sheets.hand_record(
        table=dealt_table,
        entry=sheets.HandEntry("E", "E", 2, "high", 8),
        context=ChangeContext(version=hand.table.version),
    )
    phone.get_by_role("button", name="Undo hand 1").click()
    phone.get_by_text("There is nothing to undo").wait_for()
    assert Hand.objects.filter(table=dealt_table).count() == 2, "not once another phone entered the next hand"
    expect(phone.get_by_role("button", name="Undo hand 1")).to_have_count(0)


def test_a_choice_made_from_the_keyboard_saves_nothing_until_save(phone, dealt_table):
    phone.goto(f"/table/{dealt_table.secret}/")
    form = phone.locator("#hand-form")
    tap(form, "bidder", "N ·")
    tap_bid(form, "3")
    books = form.locator("[data-field=books] input").nth(8)
    books.focus()
    phone.keyboard.press("ArrowRight")
    phone.wait_for_selector("#hand-preview .preview-box")
    assert not Hand.objects.filter(table=dealt_table).exists(), "arrowing through the books saves nothing"
    form.locator("#hand-submit").click()
    phone.get_by_text("Hand 1 saved").wait_for()
    assert Hand.objects.get(table=dealt_table).books == 9


def test_remove_and_undo_a_hand(phone, dealt_table):
    entry = sheets.HandEntry("N", "N", 3, "high", 9)
    sheets.hand_record(table=dealt_table, entry=entry, context=ChangeContext(version=1))
    sheets.hand_record(
        table=dealt_table, entry=sheets.HandEntry("E", "E", 4, "low", 10), context=ChangeContext(version=2)
    )
    phone.goto(f"/table/{dealt_table.secret}/")
    remove = phone.get_by_role("link", name="Remove hand 2")
    edit = phone.get_by_role("link", name="Edit hand 2")
    assert remove.bounding_box()["height"] >= 44 and edit.bounding_box()["height"] >= 44
    remove.click()
    expect(phone.get_by_text("Hand 2: 4 Downtown by East, 10 books")).to_be_visible()
    assert Hand.objects.filter(table=dealt_table).count() == 2, "asking removes nothing"
    phone.get_by_role("button", name="Remove it").click()
    phone.get_by_text("Removed hand 2").first.wait_for()
    assert Hand.objects.filter(table=dealt_table).count() == 1
    undo = phone.get_by_role("button", name="Undo: put it back")
    assert in_view(phone, "#undo")
    undo.click()
    phone.get_by_text("Put back: hand 2").wait_for()
    assert Hand.objects.filter(table=dealt_table).count() == 2
    assert phone.locator("#total-ew").inner_text() == "4"


def go_offline(phone, dealt_table):
    """Open the sheet while online (the service worker keeps it), then lose the network."""
    phone.goto(f"/table/{dealt_table.secret}/")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    phone.reload()
    wait_until(phone, "navigator.serviceWorker.controller !== null")
    phone.context.set_offline(True)
    phone.get_by_text("Offline: hands entered now stay on this phone").wait_for()


def enter_offline(phone, bidder, bid, books):
    form = phone.locator("#hand-form")
    tap(form, "bidder", bidder)
    tap_bid(form, bid)
    form.locator("[data-field=books] label").nth(books).click()
    phone.get_by_text("The points show once the phone is back online").wait_for()
    form.locator("#hand-submit").click()


def test_hands_entered_offline_are_saved_exactly_once_when_the_network_returns(phone, dealt_table):
    go_offline(phone, dealt_table)
    enter_offline(phone, "N ·", "3", 9)
    enter_offline(phone, "E ·", "4 Special", 10)
    queue = phone.locator("#queue .queue-item")
    assert queue.count() == 2 and "Waiting to send" in queue.first.inner_text()
    assert phone.locator("#hand-form .hand-number").first.inner_text() == "3"
    assert phone.locator("#hand-form [data-field=dealer] input:checked").get_attribute("value") == "S"
    assert not Hand.objects.filter(table=dealt_table).exists()

    phone.reload()
    assert phone.locator("#queue .queue-item").count() == 2, "the page and the queue come back offline"

    phone.context.set_offline(False)
    phone.get_by_text("Hand 2 saved").wait_for(timeout=20_000)
    hands = list(Hand.objects.filter(table=dealt_table).order_by("sequence"))
    assert [(h.dealer, h.bidder, h.books) for h in hands] == [("N", "N", 9), ("E", "E", 10)]
    assert len({h.entry_id for h in hands}) == 2 and all(h.entry_id for h in hands)
    assert phone.locator("#queue .queue-item").count() == 0

    answer = phone.evaluate(
        """([url, id]) => fetch(url, {method: "POST", credentials: "same-origin", body: new URLSearchParams({
            csrfmiddlewaretoken: document.querySelector("input[name=csrfmiddlewaretoken]").value,
            "hand-version": "1", "hand-dealer": "N", "hand-bidder": "N", "hand-bid": "3:high", "hand-books": "9",
            entry_id: id})}).then(r => r.json())""",
        [f"/table/{dealt_table.secret}/hands/sync/", hands[0].entry_id],
    )
    assert answer["status"] == "saved", "a repeated send is recognised"
    assert Hand.objects.filter(table=dealt_table).count() == 2


def test_an_offline_entry_is_not_forced_over_another_devices_change(phone, second_phone, dealt_table):
    go_offline(phone, dealt_table)
    enter_offline(phone, "N ·", "3", 9)

    second_phone.goto(f"/table/{dealt_table.secret}/")
    form = second_phone.locator("#hand-form")
    tap(form, "bidder", "N ·")
    tap_bid(form, "5")
    form.locator("[data-field=books] label").nth(11).click()
    second_phone.get_by_text("Hand 1 saved").wait_for()

    phone.context.set_offline(False)
    refused = phone.locator("#queue .queue-item.refused")
    refused.wait_for(timeout=20_000)
    assert "changed on another device" in refused.inner_text()
    assert [h.books for h in Hand.objects.filter(table=dealt_table)] == [11], "nothing overwritten or added"
    kept = Hand.objects.get(table=dealt_table)
    assert phone.locator("#total-ns").inner_text() == str(kept.ns_points), "the sheet shows the other device's hand"
    phone.once("dialog", lambda dialog: dialog.accept())
    refused.get_by_role("button", name="Discard this entry").click()
    expect(phone.locator("#queue .queue-item")).to_have_count(0, timeout=20_000)
    assert phone.locator("#hand-form .hand-number").first.inner_text() == "2"


KEPT_DISPLAY = """async () => {
  for (const name of await caches.keys()) {
    const hit = await (await caches.open(name)).match("/display.css");
    if (hit) return await hit.text();
  }
  return null;
}"""


def test_large_text_stays_on_a_phone_that_loses_the_network(phone, dealt_table, live_server):
    """The phone keeps the reader's last text size with the table page, so the sheet reloads offline in it."""
    phone.context.add_cookies([{"name": "display", "value": "large", "url": live_server.url}])
    go_offline(phone, dealt_table)
    assert ".when-normal" in (phone.evaluate(KEPT_DISPLAY) or ""), "the large-text styles are kept on the phone"
    phone.reload()
    expect(phone.get_by_role("link", name="Normal text")).to_be_visible()
    phone.context.set_offline(False)


def test_a_phone_with_hands_waiting_shows_only_the_hand_being_entered(phone, dealt_table):
    sheets.hand_record(
        table=dealt_table, entry=sheets.HandEntry("N", "N", 3, "high", 9), context=ChangeContext(version=1)
    )
    go_offline(phone, dealt_table)
    expect(phone.locator("#next-hand")).to_contain_text("Hand 2")
    enter_offline(phone, "E ·", "4 Special", 10)
    expect(phone.locator("#hand-form h2")).to_have_text("Enter hand 3")
    expect(phone.locator("#sheet-status"), "no stale 'Hand 2 · dealer' line above 'Enter hand 3'").to_be_hidden()
    phone.reload()
    expect(phone.locator("#hand-form h2")).to_have_text("Enter hand 3")
    expect(phone.locator("#sheet-status"), "nor once the page is reloaded offline").to_be_hidden()

    phone.context.set_offline(False)
    phone.get_by_text("Hand 2 saved").wait_for(timeout=20_000)
    expect(phone.locator("#hand-form h2")).to_have_text("Enter hand 3")
    expect(phone.locator("#next-hand")).to_contain_text("Hand 3 · dealer: South")
    assert phone.locator("#entry").inner_text().count("Hand 2 ·") == 0


def test_a_waiting_entry_lists_the_deals_other_entries_as_the_sheet_does(phone, dealt_table, direction_listed):  # noqa: F811
    """An entry the contract does not show (``DealEntry``) is named in the words of a hand waiting on the phone,
    as the saved sheet lists it."""
    go_offline(phone, dealt_table)
    form = phone.locator("#hand-form")
    tap(form, "bidder", "E ·")
    tap_bid(form, "4 NT")
    tap(form, "direction", "Downtown")
    form.locator("[data-field=books] label").nth(10).click()
    form.locator("#hand-submit").click()
    expect(phone.locator("#queue .queue-item")).to_contain_text(
        "Hand 1: 4 No Trump by E, 10 books · No Trump played: Downtown"
    )
    assert not form.locator("[data-field=direction] input:checked").count(), "the next hand's form is cleared"
    phone.context.set_offline(False)
    phone.get_by_text("Hand 1 saved").wait_for(timeout=20_000)
    expect(phone.locator(".sheet")).to_contain_text("No Trump played: Downtown")
