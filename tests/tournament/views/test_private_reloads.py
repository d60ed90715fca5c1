"""The table page and the team's page answer a phone's reload with 304 while nothing they show changed, and draw
themselves again after any change; never for a browser without the link, a message to show, or another CSRF
secret."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoring import RuleSet
from tests.conftest import round_published, text_of
from tournament.models import Round
from tournament.services.clock import round_clock_start
from tournament.services.draws.publishing import round_close
from tournament.services.events import tournament_rules_set
from tournament.services.log import Actor
from tournament.services.money import payment_record
from tournament.services.teams import team_withdraw_request


def loaded(client, url):
    """The page as a phone holds it after its first visits (the first one sets the CSRF cookie)."""
    client.get(url)
    response = client.get(url)
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-cache", response
    assert "Cookie" in response["Vary"]
    return response


def reload(client, url, response):
    return client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])


def changed_after(client, url, response) -> str:
    """The page after a change: drawn again (200) with a new ETag; its text."""
    again = reload(client, url, response)
    assert again.status_code == 200 and again["ETag"] != response["ETag"]
    return text_of(again)


@pytest.fixture
def drawn(tournament, make_teams):
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    teams = make_teams(tournament, 4)
    round_published(tournament, method="manual", pairs="1 2\n3 4")
    return teams


@pytest.fixture
def phone():
    return Client()


def team_page(phone, team) -> str:
    assert phone.post(reverse("team_open"), {"code": team.code}).status_code == 302
    return reverse("team_page", args=[team.pk])


def test_a_table_page_reloaded_unchanged_is_304_and_every_change_draws_it_again(phone, tournament, drawn, sheet):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    url = reverse("table", args=[table.secret])
    page = loaded(phone, url)
    unchanged = reload(phone, url, page)
    assert unchanged.status_code == 304 and unchanged["ETag"] == page["ETag"] and not unchanged.content

    sheet.hand(table, "N", "N", 3, "high", 9)
    assert "9 books" in changed_after(phone, url, page)
    page = phone.get(url)
    sheet.penalty(table, kind="renege", team="EW", hand=table.hands.get())
    assert "Renege" in changed_after(phone, url, page)
    page = phone.get(url)
    round_clock_start(round=tournament.rounds.get(number=1))
    assert re.search(r"(20:00|19:[0-9]{2}) left", changed_after(phone, url, page)), "the clock runs"


def test_a_phones_first_visit_gives_the_etag_its_first_reload_is_answered_with(phone, tournament, drawn):
    """The draw's release: a phone opens its table's link for the first time (no cookie yet) and asks again:
    304, the page it has being the page (its forms carry the CSRF secret it was given)."""
    table = tournament.rounds.get(number=1).tables.get(number=1)
    url = reverse("table", args=[table.secret])
    first = phone.get(url)
    assert first.status_code == 200 and first["ETag"] and settings.CSRF_COOKIE_NAME in first.cookies
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first.content.decode()).group(1)
    assert reload(phone, url, first).status_code == 304
    assert (
        phone.post(
            reverse("table_first_dealer", args=[table.secret]),
            {"csrfmiddlewaretoken": token, "first-version": "0", "first-seat": "N"},
        ).status_code
        == 302
    ), "the page kept is one whose forms are taken"
    assert reload(phone, url, first).status_code == 200, "the sheet changed"

    stranger = Client()
    assert stranger.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200, "another phone's first visit"


def test_a_table_page_with_a_message_is_drawn_and_keeps_it_for_the_page(phone, tournament, drawn):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    url = reverse("table", args=[table.secret])
    page = loaded(phone, url)
    phone.post(reverse("table_sign", args=[table.secret]), {})
    shown = reload(phone, url, page)
    assert shown.status_code == 200 and "Choose the team you sign for." in text_of(shown)
    assert reload(phone, url, page).status_code == 304, "said once; then the page the phone holds stands"


def test_no_reload_of_a_private_page_is_answered_for_another_browser(phone, tournament, drawn):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    url = reverse("table", args=[table.secret])
    page = loaded(phone, url)
    mine = team_page(phone, drawn[0])
    held = loaded(phone, mine)

    stranger = Client()
    stranger.cookies[settings.CSRF_COOKIE_NAME] = phone.cookies[settings.CSRF_COOKIE_NAME].value
    assert reload(stranger, mine, held).status_code == 404, "without the team's code: nothing, not even a 304"
    wrong = reverse("table", args=[table.secret[:-1] + ("A" if table.secret[-1] != "A" else "B")])
    assert stranger.get(wrong, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 404

    other = Client()
    loaded(other, url)
    assert reload(other, url, page).status_code == 200, "another CSRF secret: the forms must carry its tokens"


def test_a_team_page_reloaded_unchanged_is_304_and_every_change_draws_it_again(phone, tournament, drawn, sheet):
    url = team_page(phone, drawn[0])
    page = loaded(phone, url)
    assert reload(phone, url, page).status_code == 304

    round_clock_start(round=tournament.rounds.get(number=1))
    assert re.search(r"(20:00|19:[0-9]{2}) left", changed_after(phone, url, page)), "the clock runs"
    page = phone.get(url)
    table = tournament.rounds.get(number=1).tables.get(number=1)
    sheet.play(table, "NS", sign=False)
    assert "Sign your sheet" in changed_after(phone, url, page)
    page = phone.get(url)
    team_withdraw_request(team=drawn[0], actor=Actor.team(drawn[0], "phone"))
    assert "Withdrawing after this round" in changed_after(phone, url, page)
    page = phone.get(url)
    payment_record(team=drawn[3], amount="20")
    changed_after(phone, url, page)
    page = phone.get(url)
    sheet.sign_both(table)
    sheet.play(tournament.rounds.get(number=1).tables.get(number=2), "NS")
    text = changed_after(phone, url, page)
    assert "Signed by both teams and locked" in text
    assert re.search(r"table 1 against #2 .* · won 4–2 · signed", text), (
        "its rounds, kept drawn between changes, follow"
    )
    round_published(tournament, method="manual", pairs="1 3\n2 4")
    assert "Round 2 is out: your team plays at table" in changed_after(phone, url, page)
    after = phone.get(url)
    assert after.status_code == 200 and "is out:" not in text_of(after), "the banner is shown once"
    assert reload(phone, url, after).status_code == 304


def test_a_team_page_with_a_message_is_drawn(phone, tournament, drawn):
    url = team_page(phone, drawn[0])
    page = loaded(phone, url)
    phone.post(reverse("team_here", args=[drawn[0].pk]))
    shown = reload(phone, url, page)
    assert shown.status_code == 200 and "Your team is already checked in." in text_of(shown)
    assert reload(phone, url, page).status_code == 304, "said once; then the page the phone holds stands"


def test_a_closed_round_draws_the_table_page_again(phone, tournament, drawn, sheet):
    round_ = tournament.rounds.get(number=1)
    table = round_.tables.get(number=1)
    url = reverse("table", args=[table.secret])
    for each in round_.tables.all():
        sheet.play(each, "NS")
    page = loaded(phone, url)
    round_close(round=round_)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    changed_after(phone, url, page)
