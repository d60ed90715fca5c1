"""A director goes from signed qualifying to a champion in the browser; players follow the bracket."""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import round_published
from tournament.roles import DIRECTORS, role_groups_ensure


def test_from_qualifying_to_a_champion(phone, login, transactional_db, tournament, make_teams, sheet):
    tournament.qualifying_rounds = 1
    tournament.save()
    make_teams(tournament, 4)
    round_1 = round_published(tournament, method="manual", pairs="1 2\n3 4")
    for table in round_1.tables.all():
        sheet.play(table, "NS")
    director = get_user_model().objects.create_user("td", password="a-long-director-password", is_staff=True)
    director.groups.add(role_groups_ensure()[DIRECTORS])
    login("td", "a-long-director-password")

    phone.goto(f"/manage/t/{tournament.slug}/")
    expect(phone.get_by_text("Every qualifying sheet is signed: close round 1")).to_be_visible()
    phone.get_by_role("link", name="Playoffs").click()
    phone.fill("#id_teams", "2")
    phone.get_by_role("button", name="Seed the top teams").click()
    expect(phone.get_by_text("Top 2 seeded")).to_be_visible()
    phone.get_by_role("button", name="Publish the bracket").click()
    expect(phone.get_by_text("Bracket published")).to_be_visible()
    phone.get_by_role("link", name="Open table 1").click()

    first = phone.locator("#first-dealer-form")
    first.locator("[data-field=seat] label").first.click()
    first.get_by_role("button", name="This seat deals first").click()
    for number, (bidder, books) in enumerate(((0, 9), (1, 7), (0, 8), (1, 7)), start=1):
        form = phone.locator("#hand-form")
        form.locator("[data-field=bidder] label").nth(bidder).click()
        form.locator("[data-field=bid] label").nth(0).click()
        form.locator("[data-field=books] label").nth(books).click()
        phone.get_by_text(f"Hand {number} saved").wait_for()
    for side in ("North–South", "East–West"):
        form = phone.locator("form.sign-form", has_text=side)
        form.locator("[data-field=player] label").first.click()
        form.get_by_role("button", name=f"Sign for {side}").click()
    expect(phone.get_by_text("Signed by both teams and locked.")).to_be_visible()

    phone.goto(f"/t/{tournament.slug}/bracket/")
    expect(phone.get_by_text(re.compile(r"Champion: #1 "))).to_be_visible()
    phone.goto(f"/t/{tournament.slug}/")
    expect(phone.get_by_role("heading", name="Champion")).to_be_visible()
    placings = phone.locator(".placings-list li")
    assert placings.count() == 4 and placings.first.inner_text().startswith("1 · #1 ")
    assert placings.nth(1).inner_text().endswith("Runner-up")
    phone.goto(f"/manage/t/{tournament.slug}/")
    expect(phone.get_by_text("The tournament is finished: print the final placings")).to_be_visible()
