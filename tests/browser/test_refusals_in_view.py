"""A director's refusals on a laptop screen (1280×800): the reason is in view where the page opens, never
below the fold beside a field the director cannot see."""

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import in_view
from tests.conftest import round_published
from tournament.roles import DIRECTORS, role_groups_ensure
from tournament.services import sheets
from tournament.services.draws import round_draw
from tournament.services.sheets import ChangeContext

LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture
def laptop(browser, live_server, transactional_db, tournament, make_teams):
    """The director logged in on a laptop; round 1 published, table 2 still playing."""
    make_teams(tournament, 4)
    first = round_published(tournament)
    sheets.hand_record(
        table=first.tables.get(number=2),
        entry=sheets.HandEntry("N", "N", 3, "high", 9),
        context=ChangeContext(version=0),
    )
    director = get_user_model().objects.create_user("td", password="a-long-director-password", is_staff=True)
    director.groups.add(role_groups_ensure()[DIRECTORS])
    context = browser.new_context(viewport=LAPTOP, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/login/")
    page.fill("#id_username", "td")
    page.fill("#id_password", "a-long-director-password")
    page.click("button[type=submit]")
    yield page
    context.close()


def test_a_draw_refused_over_tables_still_playing_shows_its_reason_in_view(laptop, tournament):
    laptop.goto(f"/manage/t/{tournament.slug}/rounds/new/")
    laptop.locator("form.form button[type=submit]").click()
    reason = laptop.get_by_text("Round 2 cannot be drawn yet")
    reason.wait_for()
    assert in_view(laptop, reason, height=LAPTOP["height"], enough=100), "the refusal is where the page opens"
    assert tournament.rounds.count() == 1


def test_a_publish_refused_shows_its_reason_in_view(laptop, tournament):
    round_draw(tournament=tournament, method="swiss", override_unsigned=True)
    laptop.goto(f"/manage/t/{tournament.slug}/rounds/2/")
    laptop.get_by_role("button", name="Publish round 2").click()
    reason = laptop.get_by_text("Round 2 cannot be published yet")
    reason.wait_for()
    assert in_view(laptop, reason, height=LAPTOP["height"], enough=100)


def test_on_a_phone_a_refused_sign_of_a_sheet_not_complete_is_in_view(phone, tournament, laptop):
    table = tournament.rounds.get(number=1).tables.get(number=2)
    team = table.team_at("NS")
    phone.goto(f"/table/{table.secret}/")
    phone.evaluate(
        """([url, version, player, code]) => {
            const form = document.createElement("form");
            form.method = "post"; form.action = url;
            const fields = {"sign-NS-version": version, "sign-NS-pair": "NS", "sign-NS-player": player,
                            "sign-NS-code": code,
                            csrfmiddlewaretoken: document.querySelector("input[name=csrfmiddlewaretoken]").value};
            for (const [name, value] of Object.entries(fields)) {
                const input = document.createElement("input"); input.type = "hidden";
                input.name = name; input.value = value; form.appendChild(input);
            }
            document.body.appendChild(form); form.submit();
        }""",
        [f"/table/{table.secret}/sign/", str(table.version), str(team.members[0].player.pk), team.code],
    )
    reason = phone.locator(".message-error")
    reason.wait_for()
    assert in_view(phone, reason, enough=100), "said where the sheet opens, though no signing form is drawn"
    assert not table.signatures.exists()
