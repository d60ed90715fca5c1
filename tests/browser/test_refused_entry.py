"""A hand the server refuses is never left behind on the phone (390×844): the entry opens in the form as it was
typed, the server's reason beside the field concerned and in view, later entries wait for it by name, and the
corrected entry goes first, the rest after it in order."""

import dataclasses

import pytest
from playwright.sync_api import expect

from scoring.rules import DealStyle
from tests.browser import test_phone_entry
from tests.browser.conftest import PHONE
from tests.browser.test_phone_entry import enter_offline, go_offline, in_view
from tests.browser.test_scorekeeping import tap, tap_bid
from tests.conftest import round_published
from tournament.models import Hand, Round
from tournament.services import sheets
from tournament.services.events import tournament_rules_set
from tournament.services.sheets import ChangeContext

dealt_table = test_phone_entry.dealt_table


def entered(table) -> list[tuple]:
    return [(h.hand_number, h.dealer, h.bidder, h.books) for h in Hand.objects.filter(table=table).order_by("sequence")]


def type_hand(phone, bidder, bid, books, dealer=None):
    """Tap a hand into the form (the dealer only when it differs from the proposed one): the books tap saves it."""
    form = phone.locator("#hand-form")
    if dealer:
        tap(form, "dealer", dealer)
    tap(form, "bidder", bidder)
    tap_bid(form, bid)
    form.locator("[data-field=books] label").nth(books).click()


def checked(phone, field) -> str | None:
    box = phone.locator(f"#hand-form [data-field={field}] input:checked")
    return box.get_attribute("value") if box.count() else None


def assert_opened_for_correction(phone, number, field, reason, typed):
    """The form holds hand ``number`` as typed, with the reason beside ``field`` (or atop the form), in view."""
    form = phone.locator("#hand-form")
    form.get_by_text(f"Correct hand {number}").wait_for()
    problem = form.locator(f"[data-field={field}] .queue-problem" if field else ".queue-problem")
    problem.wait_for()
    assert reason in problem.inner_text()
    assert in_view(phone, f"#hand-form [data-field={field}] .queue-problem" if field else "#hand-form .queue-problem")
    assert {name: checked(phone, name) for name in typed} == typed, "what was typed is kept"
    assert form.locator("#hand-submit").inner_text() == f"Save hand {number}"


def test_a_wrong_dealer_refused_online_opens_at_the_dealer_and_is_fixed_with_one_tap(phone, dealt_table):
    sheets.hand_record(
        table=dealt_table, entry=sheets.HandEntry("N", "N", 3, "high", 9), context=ChangeContext(version=1)
    )
    phone.goto(f"/table/{dealt_table.secret}/")
    type_hand(phone, "S ·", "4", 10, dealer="W ·")
    typed = {"dealer": "W", "bidder": "S", "bid": "4:high", "books": "10"}
    assert_opened_for_correction(phone, 2, "dealer", "Hand 2 is dealt by East", typed)
    assert "Not saved" in phone.locator("#queue .queue-item").inner_text()
    assert entered(dealt_table) == [(1, "N", "N", 9)]

    tap(phone.locator("#hand-form"), "dealer", "E ·")
    phone.locator("#hand-form #hand-submit").click()
    phone.get_by_text("Hand 2 saved").wait_for()
    assert entered(dealt_table) == [(1, "N", "N", 9), (2, "E", "S", 10)]
    assert phone.locator("#queue .queue-item").count() == 0
    assert phone.locator("#hand-form .hand-number").first.inner_text() == "3"


def test_a_third_deal_is_refused_and_saved_once_marked_out_of_turn(phone, dealt_table):
    for version, dealer in ((1, "N"), (2, "E"), (3, "S")):
        entry = sheets.HandEntry(dealer, dealer, 3, "high", 9)
        sheets.hand_record(table=dealt_table, entry=entry, context=ChangeContext(version=version))
    phone.goto(f"/table/{dealt_table.secret}/")
    type_hand(phone, "E ·", "2", 8, dealer="N ·")
    typed = {"dealer": "N", "bidder": "E", "bid": "2:high", "books": "8"}
    assert_opened_for_correction(phone, 4, "dealer", "have already dealt 2 times", typed)

    mark = phone.locator("#hand-form").get_by_label("Dealt out of turn, caught after bidding began")
    expect(mark, "the refusal opens the mark it speaks of").to_be_visible()
    mark.check()
    phone.locator("#hand-form #hand-submit").click()
    phone.get_by_text("Hand 4 saved").wait_for()
    fourth = Hand.objects.get(table=dealt_table, sequence=4)
    assert (fourth.dealer, fourth.bidder, fourth.books) == ("N", "E", 8)
    assert fourth.penalties.filter(kind="deal_out_of_turn").exists()


@pytest.fixture
def kitty_table(transactional_db, tournament, make_teams):
    tournament_rules_set(tournament=tournament, rules=dataclasses.replace(tournament.rules, deal=DealStyle.KITTY))
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    return sheets.table_first_dealer_set(table=table, seat="N", context=ChangeContext(version=0))


def test_books_out_of_range_open_at_the_books(phone, kitty_table):
    phone.goto(f"/table/{kitty_table.secret}/")
    type_hand(phone, "N ·", "3", 0)
    typed = {"dealer": "N", "bidder": "N", "bid": "3:high", "books": "0"}
    assert_opened_for_correction(phone, 1, "books", "books must be 1 to 13", typed)
    phone.locator("#hand-form [data-field=books] label").nth(9).click()
    phone.get_by_text("Hand 1 saved").wait_for()
    assert entered(kitty_table) == [(1, "N", "N", 9)]


def test_a_stale_entry_opens_on_the_sheet_as_it_now_is_with_the_dealer_now_proposed(phone, dealt_table):
    phone.goto(f"/table/{dealt_table.secret}/")
    sheets.hand_record(
        table=dealt_table, entry=sheets.HandEntry("N", "E", 5, "high", 11), context=ChangeContext(version=1)
    )
    type_hand(phone, "N ·", "3", 9)
    typed = {"dealer": "E", "bidder": "N", "bid": "3:high", "books": "9"}
    said = "changed on another device after this was entered: Hand 1: 5 Uptown by East, 11 books"
    assert_opened_for_correction(phone, 2, None, said, typed)
    problem = phone.locator("#hand-form .queue-problem").inner_text()
    assert "This entry is now hand 2, and the dealer is now East; the rest is as you typed it" in problem
    assert phone.locator("#total-ew").inner_text() != "0", "the page shows the other device's hand"
    assert entered(dealt_table) == [(1, "N", "E", 11)]

    phone.locator("#hand-form #hand-submit").click()
    phone.get_by_text("Hand 2 saved").wait_for()
    assert entered(dealt_table) == [(1, "N", "E", 11), (2, "E", "N", 9)]


def test_without_javascript_a_stale_entry_comes_back_with_the_dealer_now_proposed(browser, live_server, dealt_table):
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/table/{dealt_table.secret}/")
    form = page.locator("#hand-form")
    tap(form, "bidder", "S ·")
    tap_bid(form, "4")
    form.locator("[data-field=books] label").nth(10).click()
    form.get_by_role("button", name="Show points").click()
    sheets.hand_record(
        table=dealt_table, entry=sheets.HandEntry("N", "E", 5, "high", 11), context=ChangeContext(version=1)
    )
    page.get_by_role("button", name="Save hand 1").click()

    problem = page.locator("#hand-form").get_by_text("changed on another device after this was entered")
    expect(problem).to_contain_text("Hand 1: 5 Uptown by East, 11 books")
    expect(problem).to_contain_text("This entry is now hand 2, and the dealer is now East")
    assert in_view(page, problem)
    typed = {"dealer": "E", "bidder": "S", "bid": "4:high", "books": "10"}
    assert {name: checked(page, name) for name in typed} == typed, "the rest as typed, the dealer now proposed"
    page.locator("#hand-form").get_by_role("button", name="Show points").click()
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.get_by_text("Hand 2 saved")).to_be_visible()
    assert entered(dealt_table) == [(1, "N", "E", 11), (2, "E", "S", 10)]
    context.close()


def test_a_closed_round_refuses_the_entry_in_view_and_it_can_be_discarded(phone, dealt_table):
    phone.goto(f"/table/{dealt_table.secret}/")
    Round.objects.filter(pk=dealt_table.round_id).update(status=Round.Status.CLOSED)
    type_hand(phone, "E ·", "4", 10)
    typed = {"dealer": "N", "bidder": "E", "bid": "4:high", "books": "10"}
    assert_opened_for_correction(phone, 1, None, "signed and locked", typed)
    assert not Hand.objects.filter(table=dealt_table).exists()
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.locator("#queue").get_by_role("button", name="Discard this entry").click()
    expect(phone.locator("#queue .queue-item")).to_have_count(0, timeout=20_000)


def test_an_entry_refused_after_an_offline_period_holds_the_later_ones_until_it_is_fixed(phone, dealt_table):
    go_offline(phone, dealt_table)
    enter_offline(phone, "N ·", "3", 9)
    tap(phone.locator("#hand-form"), "dealer", "W ·")
    enter_offline(phone, "E ·", "4 Special", 10)
    tap(phone.locator("#hand-form"), "dealer", "S ·")
    enter_offline(phone, "S ·", "2", 8)
    assert phone.locator("#queue .queue-item").count() == 3

    phone.context.set_offline(False)
    typed = {"dealer": "W", "bidder": "E", "bid": "4:low", "books": "10"}
    assert_opened_for_correction(phone, 2, "dealer", "Hand 2 is dealt by East", typed)
    waiting = phone.locator("#queue .queue-item").nth(1)
    assert "Hand 3" in waiting.inner_text() and "Waits for hand 2" in waiting.inner_text()
    assert entered(dealt_table) == [(1, "N", "N", 9)], "hand 3 is not sent past the refused hand 2"

    tap(phone.locator("#hand-form"), "dealer", "E ·")
    phone.locator("#hand-form #hand-submit").click()
    phone.get_by_text("Hand 3 saved").wait_for(timeout=20_000)
    assert entered(dealt_table) == [(1, "N", "N", 9), (2, "E", "E", 10), (3, "S", "S", 8)]
    assert phone.locator("#queue .queue-item").count() == 0
