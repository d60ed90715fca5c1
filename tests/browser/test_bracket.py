"""The bracket on a desk and on a phone: the final reached by scrolling the bracket sideways, a team's path
marked, an 8-team double elimination's both brackets whole on a desk, and on the projector the whole 16-seed
tree on one screen."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_first_use import SCREENSHOTS, long_named_field  # noqa: F401 (fixture)
from tests.conftest import round_published
from tournament.models import PlayoffMatch
from tournament.services.playoffs import playoff_publish, playoff_seed


@pytest.fixture
def sixteen(transactional_db, tournament, make_teams, sheet):
    tournament.qualifying_rounds = 1
    tournament.save()
    make_teams(tournament, 32)
    for table in round_published(tournament).tables.all():
        sheet.play(table, "NS")
    playoff_seed(tournament=tournament, teams=16, third_place=True)
    playoff_publish(tournament=tournament)
    for code in ("W1-1", "W1-2"):
        sheet.play(PlayoffMatch.objects.get(tournament=tournament, code=code).table, "NS")
    return tournament


@pytest.mark.parametrize("screen", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_final_is_in_view_after_scrolling_and_a_path_is_marked(browser, live_server, sixteen, screen):
    page = browser.new_page(viewport=screen, base_url=live_server.url)
    page.goto(f"/t/{sixteen.slug}/bracket/")
    final = page.locator('g.match[data-code="W4-1"]')
    page.locator(".bracket-scroll").first.evaluate("box => box.scrollTo(box.scrollWidth, 0)")
    final.scroll_into_view_if_needed()
    box = final.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= screen["width"], box
    if screen["width"] >= 1280:
        assert page.locator(".bracket-scroll").first.evaluate("box => box.scrollWidth <= box.clientWidth"), (
            "a 16-seed bracket fits a desktop without scrolling"
        )
    expect(page.locator(".round-name", has_text="Semifinal").first).to_be_visible()
    page.select_option("#follow-team", label=page.locator("#follow-team option").nth(1).inner_text())
    page.get_by_role("button", name="Show its path").click()
    page.wait_for_url("**/bracket/?team=*")
    assert page.locator("g.match.on-path").count() == 2, "the seed's first match and the one it went on to"
    assert page.locator("path.bracket-line.on-path").count() == 1
    page.close()


def test_an_8_team_double_elimination_shows_both_brackets_whole_on_a_desk(browser, live_server, long_named_field):  # noqa: F811
    long_named_field.qualifying_rounds = 1
    long_named_field.save()
    playoff_seed(tournament=long_named_field, teams=8, double=True)
    playoff_publish(tournament=long_named_field)
    page = browser.new_page(viewport={"width": 1280, "height": 800}, base_url=live_server.url)
    page.goto(f"/t/{long_named_field.slug}/bracket/")
    page.screenshot(path=str(SCREENSHOTS / "bracket-double-8-1280x800.png"), full_page=True)
    for title in ("Winners' bracket", "Losers' bracket"):
        scroll = page.get_by_role("region", name=f"{title}: scrolls sideways with the arrow keys")
        assert scroll.evaluate("box => box.scrollWidth <= box.clientWidth"), f"the {title} scrolls sideways"
        for index in range(scroll.locator("g.match").count()):
            box = scroll.locator("g.match").nth(index).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1280, f"a match of the {title} is off the screen"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"
    page.close()


def test_the_projector_shows_the_whole_tree(browser, live_server, sixteen):
    page = browser.new_page(viewport={"width": 1280, "height": 720}, base_url=live_server.url)
    page.clock.install()
    page.goto(f"/t/{sixteen.slug}/projector/?seconds=10")
    for _ in range(6):
        if page.locator(".projector-bracket:visible").count():
            break
        page.clock.run_for(10_000)
    svg = page.locator(".projector-bracket:visible svg").bounding_box()
    assert svg["x"] >= 0 and svg["y"] >= 0 and svg["x"] + svg["width"] <= 1280 and svg["y"] + svg["height"] <= 720
    assert page.locator(".projector-bracket:visible g.match").count() == 16, "15 matches and the third-place match"
    page.close()
