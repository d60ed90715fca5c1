"""Readable by every player: axe-core (WCAG 2.1 A and AA) finds no serious or critical fault on any kind of page,
on a phone and on a desk, with every collapsed section open, also with large text and high contrast (then at
AAA contrast); and a round is entered and signed at the table from the keyboard alone."""

import io
from dataclasses import replace

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.cache import cache
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tournament.models import Table, Tournament
from tournament.services import persons, series, sheets
from tournament.services.absence import substitute_approve
from tournament.services.clock import round_clock_start
from tournament.services.draws import round_draw, round_publish
from tournament.services.sheets import ChangeContext

DESK = {"width": 1280, "height": 800}
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# axe's AAA contrast rule (7:1), run where large text and high contrast are chosen.
AAA_CONTRAST = "color-contrast-enhanced"
OPEN_EVERYTHING = "document.querySelectorAll('details').forEach(section => { section.open = true; })"
AXE = Axe()


def faults(page, *, rules=WCAG_AA, aaa=False) -> list[str]:
    """axe's serious and critical violations on the page as it stands: rule, where, and what to do."""
    tags = rules + (["wcag2aaa"] if aaa else [])
    options = {"runOnly": {"type": "tag", "values": tags}, "resultTypes": ["violations"]}
    found = []
    for violation in AXE.run(page, options=options).response["violations"]:
        if violation["id"].endswith("-enhanced") and violation["id"] != AAA_CONTRAST:
            continue
        if violation["impact"] in ("serious", "critical") or violation["id"] == AAA_CONTRAST:
            for node in violation["nodes"]:
                found.append(f"{violation['id']} at {' '.join(node['target'])}: {violation['help']}")
    return found


def check(page, path, *, aaa=False, prepare=None) -> list[str]:
    page.goto(path)
    page.evaluate(OPEN_EVERYTHING)
    if prepare:
        prepare(page)
    size = page.viewport_size["width"]
    return [f"{path} at {size}px{' (large text)' if aaa else ''}: {fault}" for fault in faults(page, aaa=aaa)]


@pytest.fixture
def demo(transactional_db, director):
    """The demo event (a tournament played to a champion; another with round 3 in play), with a table in each
    state: first dealer to name, hands being entered, four hands waiting for signatures, disputed, signed."""
    cache.clear()
    call_command("seed_demo", stdout=io.StringIO())
    main = Tournament.objects.get(slug="main-event")
    playing = Table.objects.filter(round__tournament=main, locked_at__isnull=True)
    tables = {table.hands.count(): table for table in playing.order_by("-number")}
    disputed = tables[3]
    sheets.sheet_dispute(
        table=disputed, pair="NS", note="The third hand's books", context=ChangeContext(version=disputed.version)
    )
    # The round clock running and a substitute seated: every page that shows them is checked with them.
    # (The clock is set before the first round is published; the demo is past that, so it is stored directly.)
    Tournament.objects.filter(pk=main.pk).update(rules_data=replace(main.rules, round_minutes=50).to_dict())
    main.refresh_from_db()
    round_clock_start(round=tables[2].round)
    substitute = tables[2].seatings.order_by("pair").first().team
    substitute_approve(
        team=substitute, round=tables[2].round, replaces=substitute.members[1].player, name="Ada Stand-In"
    )
    team = main.teams.order_by("number").first()
    person = persons.player_link(player=team.members[0].player)
    league = series.series_create(name="Winter League")
    series.series_tournament_add(series=league, tournament=main)
    return {
        "main": main,
        "first": Tournament.objects.get(slug="1st-tournament"),
        "team": team,
        "person": person,
        "series": league,
        "fresh": tables[0],
        "playing": tables[2],
        "complete": tables[4],
        "disputed": disputed,
        "signed": Table.objects.filter(round__tournament=main, locked_at__isnull=False).first(),
    }


def public_pages(demo) -> list[str]:
    main, first = demo["main"], demo["first"]
    champion = first.teams.order_by("number").first().number
    return [
        "/",
        f"/e/{main.event.slug}/",
        f"/t/{main.slug}/",
        f"/t/{main.slug}/standings/",
        f"/t/{main.slug}/draw/",
        f"/t/{first.slug}/standings/",
        f"/t/{first.slug}/bracket/",
        f"/t/{first.slug}/bracket/?team={champion}",
        f"/t/{main.slug}/teams/{demo['team'].number}/",
        f"/t/{main.slug}/projector/",
        f"/t/{main.slug}/statistics/",
        f"/players/{demo['person'].pk}/",
        f"/series/{demo['series'].slug}/",
        "/my/",
        "/login/",
        "/no-such-page/",
    ]


def table_pages(demo) -> list[str]:
    pages = []
    for state in ("fresh", "playing", "complete", "disputed", "signed"):
        pages.append(f"/table/{demo[state].secret}/")
    playing = demo["playing"].secret
    pages += [f"/table/{playing}/hands/1/", f"/table/{playing}/hands/2/remove/", f"/table/{playing}/history/"]
    return pages


def staff_pages(demo) -> list[str]:
    main, first, event = demo["main"], demo["first"], demo["main"].event
    t, e = f"/manage/t/{main.slug}", f"/manage/events/{event.slug}"
    return [
        "/manage/",
        "/manage/logins/",
        "/manage/team-codes/",
        "/manage/events/new/",
        f"{e}/",
        f"{e}/edit/",
        f"{e}/tournaments/new/",
        f"{e}/persons/",
        f"{t}/",
        f"{t}/edit/",
        f"{t}/rules/",
        f"{t}/teams/",
        f"{t}/teams/new/",
        f"{t}/teams/import/",
        f"{t}/teams/1/edit/",
        f"{t}/desk/",
        f"{t}/announcements/",
        f"{t}/log/",
        f"{t}/money/",
        f"{t}/payouts/",
        f"{t}/rounds/new/",
        f"{t}/rounds/3/",
        f"{t}/rounds/3/live/",
        f"{t}/ratings/",
        f"/manage/t/{first.slug}/playoffs/",
        "/manage/persons/",
        f"/manage/persons/{demo['person'].pk}/",
        "/manage/series/",
        f"/manage/series/{demo['series'].slug}/",
        f"/table/{demo['playing'].secret}/",
        f"/table/{demo['disputed'].secret}/",
    ]


def open_team_page(page, team):
    page.goto(f"/my/?code={team.code}")
    page.get_by_role("button", name="Open my team's page").click()
    page.wait_for_url(f"**/my/{team.pk}/")


def open_api_operations(page, count=3):
    """The first few operations of the API docs opened, and as many schemas expanded: each kind of part the
    docs draw (parameters, examples, responses, nested schemas) is then on the page; all of them make axe slow."""
    operations = page.locator(".opblock-summary-control")
    operations.first.wait_for()
    for index in range(count):
        operations.nth(index).click()
    page.locator(".opblock-body").nth(count - 1).wait_for()
    schemas = page.locator(".json-schema-2020-12-expand-deep-button")
    for index in range(count):
        schemas.nth(index).click()


@pytest.mark.parametrize("screen", [PHONE, DESK], ids=["phone", "desk"])
def test_no_serious_fault_on_any_page_on_a_phone_or_a_desk(browser, live_server, demo, screen):
    context = browser.new_context(viewport=screen, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(20_000)
    found, team = [], demo["team"]
    for path in public_pages(demo) + table_pages(demo):
        found += check(page, path)
    open_team_page(page, team)
    found += check(page, f"/my/{team.pk}/")
    page.goto("/login/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("pw-for-tests-123")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/manage/**")
    for path in staff_pages(demo):
        found += check(page, path)
    context.close()
    assert not found, "\n".join(found)


def test_the_api_docs_have_no_serious_fault_with_operations_open(browser, live_server, demo):
    page = browser.new_page(viewport=PHONE, base_url=live_server.url)
    page.set_default_timeout(20_000)
    found = check(page, "/api/v1/docs", prepare=open_api_operations)
    page.set_viewport_size(DESK)
    found += check(page, "/api/v1/docs", prepare=open_api_operations)
    page.close()
    assert not found, "\n".join(found)


def test_large_text_and_high_contrast_on_a_phone(browser, live_server, demo):
    """Chosen with the header's link (no JavaScript needed), kept by the phone: type 1.5× larger, AAA contrast
    on a phone and on a desk, nothing wider than the phone, and the hand form still works."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    playing = f"/table/{demo['playing'].secret}/"
    page.goto(playing)
    normal = float(page.locator("h1").evaluate("h => parseFloat(getComputedStyle(h).fontSize)"))
    normal_body = float(page.locator("main").evaluate("m => parseFloat(getComputedStyle(m).fontSize)"))
    page.get_by_role("link", name="Large text").click()
    page.wait_for_url(f"**{playing}")
    expect(page.get_by_role("link", name="Normal text")).to_be_visible()
    assert float(page.locator("h1").evaluate("h => parseFloat(getComputedStyle(h).fontSize)")) >= 1.5 * normal
    assert float(page.locator("main").evaluate("m => parseFloat(getComputedStyle(m).fontSize)")) >= 1.5 * normal_body
    context.close()

    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_cookies([{"name": "display", "value": "large", "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    found, wide = [], []
    open_team_page(page, demo["team"])
    for path in public_pages(demo) + table_pages(demo) + [f"/my/{demo['team'].pk}/"]:
        found += check(page, path, aaa=True)
        if page.evaluate("document.documentElement.scrollWidth") > PHONE["width"]:
            wide.append(path)
    page.set_viewport_size(DESK)
    for path in public_pages(demo) + table_pages(demo):
        found += check(page, path, aaa=True)
    page.set_viewport_size(PHONE)
    assert not found, "\n".join(found)
    assert not wide, f"wider than the phone: {wide}"

    page.goto(playing)
    form = page.locator("#hand-form")
    form.locator("[data-field=bidder] label").nth(1).click()
    form.locator("[data-field=bid] label", has_text="4").first.click()
    assert form.locator("#hand-submit").bounding_box()["x"] + 10 < PHONE["width"]
    form.locator("[data-field=books] label").nth(10).click()
    page.get_by_text("Hand 3 saved").wait_for()
    page.wait_for_load_state("load")
    assert page.get_by_role("button", name="Undo hand 3").bounding_box()["height"] >= 44
    assert not faults(page, aaa=True), "the saved hand's points and its undo, in large text"
    page.get_by_role("link", name="Normal text").click()
    expect(page.get_by_role("link", name="Large text")).to_be_visible()
    context.close()


def test_the_projector_type_reads_from_the_back_of_a_hall(browser, live_server, demo):
    page = browser.new_page(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    page.goto(f"/t/{demo['main'].slug}/projector/")
    expect(page.locator(".projector-panel:not([hidden])")).to_have_count(1, timeout=20_000)
    panel = page.locator(".projector-panel:visible")
    for part in (".name", ".figures"):
        size = panel.locator(f".projector-lines li {part}").first.evaluate("e => getComputedStyle(e).fontSize")
        assert float(size.removesuffix("px")) >= 32, f"{part}: {size}"
    page.close()


# The keyboard alone


@pytest.fixture
def dealt_table(transactional_db, tournament, make_teams):
    make_teams(tournament, 2)
    table = round_publish(round=round_draw(tournament=tournament, method="manual")).tables.get()
    return sheets.table_first_dealer_set(table=table, seat="N", context=ChangeContext(version=0))


def focused(page, script: str):
    return page.evaluate(f"(element => {script})(document.activeElement)")


def tab_to(page, script: str, *, limit=120):
    """Tab until the focused element satisfies ``script`` (``element`` is the focused element)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused(page, script):
            return
    raise AssertionError(f"Tab never reached {script}")


def named(name: str) -> str:
    """A script true when the focused element is the field ``name`` (forms prefix their fields' names)."""
    return f"(element.name === {name!r} || (element.name || '').endsWith('-' + {name!r}))"


def choose(page, name: str, value: str):
    """A radio group from the keyboard: Tab into it, then arrows until ``value`` is chosen."""
    tab_to(page, f"{named(name)} && element.closest('#hand-form') !== null")
    if not focused(page, "element.checked"):
        page.keyboard.press("Space")
    for _ in range(30):
        if focused(page, f"element.value === {value!r} && element.checked"):
            break
        page.keyboard.press("ArrowRight")
    assert focused(page, f"element.value === {value!r} && element.checked"), f"{name}={value}"
    outline = focused(page, "getComputedStyle(element.nextElementSibling).outlineStyle")
    assert outline != "none", "the chosen button shows the focus"


def test_a_round_entered_and_signed_from_the_keyboard_alone(phone, dealt_table):
    phone.goto(f"/table/{dealt_table.secret}/")
    for suit in ("Spades", "Hearts", "Diamonds", "Clubs"):
        assert phone.get_by_role("radio", name=suit, exact=True).count() == 1, f"{suit} named, not only drawn"
    for number, (bidder, bid, books) in enumerate(
        [("N", "3:high", "9"), ("E", "4:low", "10"), ("S", "2:nt", "8"), ("W", "1:high", "7")], start=1
    ):
        choose(phone, "bidder", bidder)
        choose(phone, "bid", bid)
        choose(phone, "books", books)
        phone.wait_for_selector("#hand-preview .preview-box")
        tab_to(phone, "element.id === 'hand-submit'")
        assert focused(phone, "getComputedStyle(element).outlineStyle") != "none"
        phone.keyboard.press("Enter")
        phone.get_by_text(f"Hand {number} saved").wait_for()
        phone.wait_for_load_state("load")
    for side in ("NS", "EW"):
        tab_to(phone, f"{named('player')} && element.closest('#sign-{side}') !== null")
        phone.keyboard.press("Space")
        tab_to(phone, f"{named('code')} && element.closest('#sign-{side}') !== null")
        phone.keyboard.type(dealt_table.team_at(side).code)
        with phone.expect_navigation():
            phone.keyboard.press("Enter")
    phone.get_by_text("Signed by both teams and locked.").wait_for()
    dealt_table.refresh_from_db()
    assert dealt_table.signed and dealt_table.hands.count() == 4
