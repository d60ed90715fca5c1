"""The phone against the venue's server as `make venue` runs it (gunicorn, DEBUG off, the collected static files
with hashed names): a round entered, the network lost right after the link was first opened, the page reloaded
offline from the service worker, the hands sent on return, the sheet signed with the teams' codes, and the
private page then gone from the phone. The projector turns its pages there too."""

import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_phone_entry import enter_offline, tap_hand
from tests.conftest import round_published
from tournament.models import Hand
from tournament.services import sheets
from tournament.services.sheets import ChangeContext

KEPT = "url => caches.open('bidwhist-sheets').then(cache => cache.match(url)).then(Boolean)"


@pytest.fixture
def venue_phone(browser, venue_server):
    """A phone-sized page on the venue's server; every error answer and every refused load (the Content Security
    Policy) is noted. Requests failing while the network is down are the test's doing, not problems."""
    context = browser.new_context(viewport=PHONE, base_url=venue_server)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.problems = []
    page.on("console", lambda message: "Refused to" in message.text and page.problems.append(message.text))
    page.on("response", lambda response: response.status >= 400 and page.problems.append(response.url))
    yield page
    context.close()


def kept(page, path) -> bool:
    """Whether the phone's service worker holds the page at ``path`` for offline use."""
    origin = "/".join(page.url.split("/", 3)[:3])
    return page.evaluate(KEPT, origin + path)


def wait_until(condition, what):
    for _ in range(150):
        if condition():
            return
        time.sleep(0.1)
    pytest.fail(f"not so after 15 seconds: {what}")


@pytest.fixture
def venue_table(transactional_db, tournament, make_teams):
    """Table 1 of round 1, North named as the first dealer."""
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    return sheets.table_first_dealer_set(table=table, seat="N", context=ChangeContext(version=0))


def test_a_round_on_the_venue_server_through_a_network_cut_right_after_the_link_is_opened(venue_phone, venue_table):
    phone, path, dealt_table = venue_phone, f"/table/{venue_table.secret}/", venue_table
    phone.goto(path)
    wait_until(lambda: kept(phone, path), "the table page as first loaded is kept")

    phone.context.set_offline(True)
    phone.reload()
    assert phone.locator("h1").inner_text().startswith("Table 1"), "the sheet reloads offline"
    enter_offline(phone, "N ·", "3", 9)
    phone.reload()
    # Chromium's offline emulation does not hold back requests of a page a service worker controls, so when
    # the waiting entry reaches the server is the emulation's, not the app's: what is the app's is that the
    # entry survives the reload, and that it is stored exactly once (below).
    assert phone.locator("#queue .queue-item").count() == 1, "the entry waits on the phone across a reload"

    phone.context.set_offline(False)
    phone.get_by_text("Hand 1 saved").wait_for(timeout=20_000)
    for bidder, bid, books in (("E ·", "4 Special", 10), ("S ·", "2 No", 8), ("W ·", "1", 7)):
        number = tap_hand(phone, bidder, bid, books)
        phone.get_by_text(f"Hand {number} saved").wait_for()
    assert [hand.books for hand in Hand.objects.filter(table=dealt_table).order_by("sequence")] == [9, 10, 8, 7]

    for side, pair in (("North–South", "NS"), ("East–West", "EW")):
        form = phone.locator("form.sign-form", has_text=side)
        form.locator("[data-field=player] label").first.click()
        form.get_by_label("Team code").fill(dealt_table.team_at(pair).code)
        form.get_by_role("button", name=f"Sign for {side}").click()
        phone.get_by_text(f"for {side}.").first.wait_for()
    expect(phone.get_by_text("Signed by both teams and locked.")).to_be_visible()
    dealt_table.refresh_from_db()
    assert dealt_table.signed
    wait_until(lambda: not kept(phone, path), "the signed sheet's private page leaves the phone")
    assert not phone.problems, phone.problems


@pytest.fixture
def two_tables(transactional_db, tournament, make_teams):
    make_teams(tournament, 4)
    return list(round_published(tournament).tables.order_by("number"))


def test_a_sheet_signed_on_another_device_leaves_the_phone_when_it_next_opens_a_table(venue_phone, two_tables, sheet):
    first, second = two_tables
    venue_phone.goto(f"/table/{first.secret}/")
    wait_until(lambda: kept(venue_phone, f"/table/{first.secret}/"), "the first table's page is kept")
    sheet.play(first)
    venue_phone.goto(f"/table/{second.secret}/")
    wait_until(lambda: kept(venue_phone, f"/table/{second.secret}/"), "the second table's page is kept")
    wait_until(lambda: not kept(venue_phone, f"/table/{first.secret}/"), "the signed one is dropped")


@pytest.fixture
def playing_round(transactional_db, tournament, make_teams, sheet):
    make_teams(tournament, 24)
    round_ = round_published(tournament, method="random", seed=3)
    sheet.play(round_.tables.order_by("number").first())
    return round_


def test_the_projector_turns_its_pages_on_the_venue_server(browser, venue_server, playing_round):
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=venue_server)
    page = context.new_page()
    problems = []
    page.on("response", lambda response: response.status >= 400 and problems.append(response.url))
    page.clock.install()
    page.goto(f"/t/{playing_round.tournament.slug}/projector/?seconds=10")
    assert page.locator(".projector-panel:visible .projector-lines li").count() > 1
    titles = []
    for _ in range(4):
        # After its last page the projector reloads; until its script runs again every panel shows.
        expect(page.locator(".projector-panel:visible")).to_have_count(1)
        titles.append(page.locator(".projector-panel:visible h1").inner_text())
        page.clock.run_for(10_000)
    assert len(set(titles)) > 1, f"the pages turn by themselves: {titles}"
    assert not problems, problems
    context.close()
