"""Two phones at one table, each team on its own: signing with team codes, and blind double entry."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorekeeping import enter_hand, tap, tap_bid
from tests.conftest import round_published
from tournament.models import LogEntry, Tournament


@pytest.fixture
def table_of_two(transactional_db, tournament, make_teams):
    make_teams(tournament, 2)
    return round_published(tournament).tables.get()


def open_team_page(phone, team):
    phone.goto("/my/")
    phone.get_by_label("Your team code").fill(team.code.lower())
    phone.get_by_role("button", name="Open my team's page").click()
    phone.wait_for_url(re.compile(r"/my/\d+/$"))


def sign_on_team_page(phone):
    form = phone.locator("#sign")
    form.locator("[data-field=player] label").first.click()
    form.get_by_role("button", name="Sign for your team").click()
    phone.wait_for_selector(".message-success")


def test_each_team_signs_on_its_own_phone(phone, second_phone, table_of_two):
    ns, ew = table_of_two.team_at("NS"), table_of_two.team_at("EW")
    phone.goto(f"/table/{table_of_two.secret}/")
    first = phone.locator("#first-dealer-form")
    tap(first, "seat", "N ·")
    first.get_by_role("button", name="This seat deals first").click()
    for bidder, bid, trump, books in (
        ("N ·", "3", "♠", 9),
        ("E ·", "2 Special", "♥", 8),
        ("S ·", "4", "♦", 9),
        ("W ·", "1 No", "Up", 8),
    ):
        enter_hand(phone, bidder, bid, trump, books)
    expect(phone.get_by_text("Round complete")).to_be_visible()

    open_team_page(phone, ns)
    sign_on_team_page(phone)
    expect(phone.get_by_text("Your team signed")).to_be_visible()
    open_team_page(second_phone, ew)
    expect(second_phone.get_by_text("Round 1 · Table 1")).to_be_visible()
    sign_on_team_page(second_phone)
    expect(second_phone.get_by_text("Signed by both teams and locked")).to_be_visible()

    table_of_two.refresh_from_db()
    assert table_of_two.signed
    devices = set(table_of_two.signatures.values_list("device", flat=True))
    assert len(devices) == 2 and all(device.startswith("phone ") for device in devices), devices
    signed = table_of_two.changes.filter(action=LogEntry.Action.SIGNED)
    assert {entry.actor_name for entry in signed} == {f"team #{ns.number}", f"team #{ew.number}"}


def enter_on_team_page(phone, dealer, bidder, level, books):
    form = phone.locator("form[action$='/enter/']")
    tap(form, "dealer", dealer)
    tap(form, "bidder", bidder)
    tap_bid(form, str(level))
    tap(form, "suit", "♣")
    form.locator("[data-field=books] label").nth(books).click()
    form.get_by_role("button", name=re.compile("^Enter hand")).click()
    phone.wait_for_selector(".message-success")


def test_blind_double_entry_with_a_mismatch_the_teams_fix(phone, second_phone, table_of_two):
    Tournament.objects.filter(pk=table_of_two.round.tournament_id).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    ns, ew = table_of_two.team_at("NS"), table_of_two.team_at("EW")
    open_team_page(phone, ns)
    open_team_page(second_phone, ew)
    plan = [("N ·", "N ·", 3, 9), ("E ·", "E ·", 2, 8), ("S ·", "S ·", 4, 10), ("W ·", "W ·", 1, 7)]
    for number, (dealer, bidder, level, books) in enumerate(plan, start=1):
        enter_on_team_page(phone, dealer, bidder, level, books)
        expect(phone.get_by_text("It goes on the sheet when the other team's entry agrees").first).to_be_visible()
        second_phone.reload()
        assert str(books) + " books" not in second_phone.locator("#entry").inner_text(), "blind until both are in"
        if number == 2:
            enter_on_team_page(second_phone, dealer, bidder, level, books - 1)
            expect(second_phone.get_by_text("differ").first).to_be_visible()
            phone.reload()
            entry = phone.locator("#entry").inner_text()
            assert "8 books" in entry and "7 books" in entry, "both phones show both versions"
        enter_on_team_page(second_phone, dealer, bidder, level, books)
        expect(second_phone.get_by_text(f"hand {number} is on the sheet")).to_be_visible()
        phone.reload()
    table_of_two.refresh_from_db()
    assert table_of_two.complete and [h.books for h in table_of_two.hands.order_by("sequence")] == [9, 8, 10, 7]
    sign_on_team_page(phone)
    second_phone.reload()
    sign_on_team_page(second_phone)
    table_of_two.refresh_from_db()
    assert table_of_two.signed
    assert table_of_two.changes.filter(action=LogEntry.Action.ENTRIES_DIFFER).count() == 1
