"""A director goes from an empty database to a published round-1 draw, in the browser alone."""

import re

from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tournament.models import Round, Tournament
from tournament.roles import DIRECTORS, role_groups_ensure

CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis"]


def teams_csv():
    lines = ["player1,player1_city,player2,player2_city,fee_paid,checked_in"]
    for i in range(16):
        city = CITIES[i % 4]
        # Teams 1-12 are checked in by the file; the desk checks in the last four.
        lines.append(f"First {i},{city},Second {i},{city},yes,{'yes' if i < 12 else 'no'}")
    return ("\n".join(lines) + "\n").encode()


def test_empty_database_to_a_published_draw(phone, login, transactional_db):
    director = get_user_model().objects.create_user("td", password="a-long-director-password", is_staff=True)
    director.groups.add(role_groups_ensure()[DIRECTORS])
    login("td", "a-long-director-password")

    phone.get_by_role("link", name="Manage").click()
    phone.get_by_role("link", name="New event").click()
    phone.fill("#id_name", "Summer Whist Weekend")
    phone.fill("#id_venue", "Grand Hotel")
    phone.fill("#id_starts_on", "2026-07-10")
    phone.fill("#id_ends_on", "2026-07-12")
    phone.get_by_role("button", name="Create event").click()
    phone.get_by_role("link", name="New tournament").click()
    phone.fill("#id_name", "Main Event")
    phone.fill("#id_qualifying_rounds", "4")
    phone.get_by_role("button", name="Create tournament").click()
    phone.get_by_role("button", name="Save rules").click()
    expect(phone.get_by_text("Rules saved.")).to_be_visible()

    phone.get_by_role("link", name="Import teams (CSV)").click()
    phone.set_input_files("#id_file", {"name": "teams.csv", "mimeType": "text/csv", "buffer": teams_csv()})
    phone.get_by_role("button", name="Import").click()
    expect(phone.get_by_text("16 teams imported.")).to_be_visible()

    phone.get_by_role("link", name="Main Event").click()
    phone.get_by_role("link", name="Registration desk").click()
    for _ in range(4):
        phone.get_by_role("button", name="Check in", exact=True).first.click()
    expect(phone.get_by_text("16 of 16 teams checked in")).to_be_visible()

    phone.get_by_role("link", name="Main Event").click()
    phone.get_by_role("link", name="Draw the next round").click()
    phone.fill("#id_seed", "2026")
    phone.get_by_role("button", name="Draw").click()
    expect(phone.get_by_text("Round 1 drawn as a draft")).to_be_visible()
    phone.get_by_role("button", name="Publish round 1").click()
    expect(phone.get_by_text("Round 1 published: the table links work now.")).to_be_visible()

    tournament = Tournament.objects.get(name="Main Event")
    round_ = tournament.rounds.get()
    assert round_.status == Round.Status.PUBLISHED and round_.seed == 2026
    assert round_.tables.count() == 8 and round_.seatings.count() == 16

    phone.get_by_role("link", name="Open table").first.click()
    assert re.search(r"/table/[\w-]+/$", phone.url)
    expect(phone.get_by_role("heading", name=re.compile("Table 1"))).to_be_visible()
    expect(phone.get_by_text(re.compile(r"^North: First \d+$"))).to_be_visible()
