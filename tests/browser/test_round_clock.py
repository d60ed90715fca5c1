"""The round clock counted from the server's time: a phone whose own clock is minutes wrong and the projector in
the hall show the same seconds."""

import re
import time
from datetime import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import RuleSet
from tests.browser.conftest import PHONE
from tests.browser.test_phone_entry import enter_offline, go_offline
from tournament.models import Hand, LogEntry, Table
from tournament.services import sheets
from tournament.services.absence import substitute_approve
from tournament.services.clock import round_clock_start
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import tournament_rules_set
from tournament.services.sheets import ChangeContext
from tournament.services.sheets.time import clock_time

PROJECTOR = {"width": 1280, "height": 720}
SHOWN_SECONDS = """clock => {
  const [minutes, seconds] = clock.querySelector('.clock-time').textContent.trim().split(':').map(Number);
  return minutes * 60 + seconds;
}"""


@pytest.fixture
def clocked_round(transactional_db, tournament, make_teams):
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    make_teams(tournament, 16)
    round_ = round_publish(round=round_draw(tournament=tournament, method="manual"))
    return round_clock_start(round=round_)


def opened(browser, live_server, viewport, path, *, wrong_by_seconds=0):
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    if wrong_by_seconds:  # the phone's own clock, off by this much (its fake clock can then be moved on)
        page.clock.install(time=time.time() + wrong_by_seconds)
    page.goto(path)
    expect(page.locator("html")).to_have_attribute("data-clock-synced", "1", timeout=20_000)
    return page


def test_a_phone_with_a_wrong_clock_and_the_projector_agree_within_a_second(browser, live_server, clocked_round):
    table = clocked_round.tables.get(number=1)
    phone = opened(browser, live_server, PHONE, f"/table/{table.secret}/", wrong_by_seconds=-7 * 60)
    projector = opened(browser, live_server, PROJECTOR, f"/t/{clocked_round.tournament.slug}/projector/")
    phone_clock = phone.locator(".round-clock")
    projector_clock = projector.locator(".round-clock")
    before = phone_clock.evaluate(SHOWN_SECONDS)
    on_projector = projector_clock.evaluate(SHOWN_SECONDS)
    after = phone_clock.evaluate(SHOWN_SECONDS)
    assert after - 1 <= on_projector <= before + 1
    truth = (clocked_round.clock_ends_at - timezone.now()).total_seconds()
    assert abs(on_projector - truth) <= 2, "the projector counts the server's time"
    box = phone_clock.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], "the clock fits the phone"
    size = float(projector_clock.locator(".clock-time").evaluate("e => getComputedStyle(e).fontSize")[:-2])
    assert size >= 60, f"{size}px is too small for a hall"
    phone.context.close()
    projector.context.close()


def test_the_warnings_come_as_the_clock_runs_down(browser, live_server, clocked_round):
    """Six minutes left is the first warning (10 minutes); two minutes on, the last (5 minutes); then time."""
    ends = timezone.now() + timezone.timedelta(minutes=6)
    type(clocked_round).objects.filter(pk=clocked_round.pk).update(clock_ends_at=ends)
    clocked_round.tables.update(clock_ends_at=ends)
    table = clocked_round.tables.get(number=1)
    phone = opened(browser, live_server, PHONE, f"/table/{table.secret}/", wrong_by_seconds=0.001)
    clock = phone.locator(".round-clock")
    assert "clock-warning" in clock.get_attribute("class")
    phone.clock.fast_forward(120_000)
    expect(phone.locator(".round-clock").first).to_have_class(re.compile(r"\bclock-last\b"), timeout=20_000)
    phone.clock.fast_forward(300_000)
    expect(phone.locator(".round-clock").first).to_have_class(re.compile(r"\bclock-up\b"), timeout=20_000)
    assert "Time: finish this hand; no new hand" in clock.inner_text()
    phone.context.close()


def test_the_live_views_clock_and_absent_team_buttons_are_a_thumbs_size_on_a_phone(
    phone, login, staff, clocked_round, tournament
):
    """The director walks the room with the live view: every button of the clock, the absent teams and the
    substitutes is at least 44 px tall at 390×844."""
    team = tournament.teams.get(number=1)
    substitute_approve(team=team, round=clocked_round, replaces=team.members[1].player, name="Jo Lee", actor=staff)
    login("director", "pw-for-tests-123")
    for path in (f"/manage/t/{tournament.slug}/rounds/1/live/", f"/manage/t/{tournament.slug}/rounds/1/"):
        phone.goto(path)
        buttons = phone.locator("#round-clock button, #absent-teams button, #substitutes button")
        assert buttons.count() >= 5, path
        for index in range(buttons.count()):
            button = buttons.nth(index)
            if button.is_visible():
                assert button.bounding_box()["height"] >= 44, f"{path}: {button.inner_text()}"


@pytest.fixture
def four_team_round(transactional_db, tournament, make_teams):
    """A 20-minute clock running over round 1 of four teams (two tables)."""
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    make_teams(tournament, 4)
    return round_clock_start(round=round_publish(round=round_draw(tournament=tournament, method="manual")))


def test_the_projector_stops_counting_once_every_sheet_is_signed(browser, live_server, four_team_round, sheet):
    """The projector counts the round's time; once the last sheet is signed it reloads itself (after its pages)
    onto the round complete, and its script counts nothing more."""
    slug = four_team_round.tournament.slug
    projector = opened(browser, live_server, PROJECTOR, f"/t/{slug}/projector/?seconds=4")
    clock = projector.locator(".round-clock")
    expect(clock.locator(".clock-words")).to_have_text("left")
    for table in four_team_round.tables.all():
        sheet.play(table)
    expect(clock.locator(".clock-words")).to_have_text("Complete: every sheet is signed", timeout=60_000)
    assert clock.locator(".clock-time").count() == 0 and clock.get_attribute("data-clock-ends") is None
    shown = clock.inner_text()
    projector.wait_for_timeout(1_500)
    assert clock.inner_text() == shown, "nothing ticks over a complete round"
    projector.context.close()


def test_the_live_view_left_open_stops_its_clock_when_the_last_sheet_is_signed(
    phone, login, director, four_team_round, sheet
):
    """The live view refreshes its tables by itself (every 15 seconds): the refresh that finds the round complete
    brings the clock's section stopped, without its buttons."""
    login("director", "pw-for-tests-123")
    phone.goto(f"/manage/t/{four_team_round.tournament.slug}/rounds/1/live/")
    section = phone.locator("#round-clock")
    round_clock = section.locator(".round-clock").first
    expect(round_clock.locator(".clock-words")).to_have_text("left")
    for table in four_team_round.tables.all():
        sheet.play(table)
    expect(round_clock.locator(".clock-words")).to_have_text("Complete: every sheet is signed", timeout=40_000)
    assert section.locator("[data-clock-ends]").count() == 0
    assert section.locator("button").count() == 0, "no clock button is offered over a complete round"


@pytest.fixture
def clocked_table(transactional_db, tournament, make_teams):
    """The one table of a round whose 20-minute clock runs, North named as the first dealer."""
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    make_teams(tournament, 2)
    round_ = round_clock_start(round=round_publish(round=round_draw(tournament=tournament, method="manual")))
    return sheets.table_first_dealer_set(table=round_.tables.get(), seat="N", context=ChangeContext(version=0))


def test_hands_entered_offline_before_time_was_called_count_once_back(browser, live_server, clocked_table, staff):
    """A phone whose own clock is 7 minutes fast enters two hands with the network down; the director calls time
    at the table meanwhile. Back online, both hands count as played before the call (their entry times read
    against the server's clock), and the table's history says when each was entered."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    phone.clock.install(time=time.time() + 7 * 60)
    go_offline(phone, clocked_table)
    enter_offline(phone, "N ·", "3", 9)
    enter_offline(phone, "E ·", "4 Special", 10)
    clocked_table.refresh_from_db()
    sheets.table_time_call(table=clocked_table, context=ChangeContext(version=clocked_table.version, actor=staff))

    phone.context.set_offline(False)
    phone.get_by_text("Hand 2 saved").wait_for(timeout=20_000)
    expect(phone.locator("#sheet-status")).to_contain_text("Time called after hand 2")
    assert [(h.dealer, h.books) for h in Hand.objects.filter(table=clocked_table)] == [("N", 9), ("E", 10)]
    assert phone.locator("#queue .queue-item").count() == 0, "nothing kept back for staff"
    entries = LogEntry.objects.filter(table=clocked_table, action=LogEntry.Action.HAND_ADDED)
    called_at = clock_time(Table.objects.get(pk=clocked_table.pk).time_called_at)
    for entry in entries:
        entered, call = (datetime.fromisoformat(entry.after[key]) for key in ("entered_at", "before_the_call"))
        assert entered < call, "entered before the call, on the server's clock (the phone's is 7 minutes fast)"
    phone.goto(f"/table/{clocked_table.secret}/history/")
    history = phone.locator("main").inner_text()
    assert history.count(f"before time was called at {called_at}") == 2, history
    context.close()
