"""The team's own page on its phone, the check-in slips, and where codes are never shown."""

import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import round_published, text_of
from tournament.models import Tournament
from tournament.services.teams import team_code_renew


def open_team(client, team):
    response = client.post(reverse("team_open"), {"code": team.code.lower()})
    assert response.status_code == 302, text_of(response)
    return response["Location"]


@pytest.fixture
def drawn(tournament, make_teams):
    teams = make_teams(tournament, 4)
    round_published(tournament, method="manual", pairs="1 2\n3 4")
    return teams


def test_the_code_opens_the_teams_page_with_its_table_seats_and_opponents(client, tournament, drawn):
    page = open_team(client, drawn[0])
    html = text_of(client.get(page))
    assert "Round 1 · Table 1" in html and "You sit North–South" in html
    assert "Your team keeps the score sheet." in html
    assert "North: Player 0a" in html and "Against #2" in html
    other = Client()
    assert other.get(page).status_code == 404, "another phone without the code sees nothing"


def test_the_page_follows_the_team_to_its_next_table(client, tournament, drawn, sheet):
    page = open_team(client, drawn[2])
    for table in tournament.rounds.get(number=1).tables.all():
        sheet.play(table, "NS")
    round_published(tournament, method="manual", pairs="3 1\n4 2")
    html = text_of(client.get(page))
    assert "Round 2 · Table 1" in html and "Against #1" in html
    assert "Round 1: table 2 against #4" in html, "the rounds played so far"


def test_a_wrong_code_is_refused_beside_the_field_and_guessing_is_slowed(client, db):
    for _ in range(5):
        response = client.post(reverse("team_open"), {"code": "AAAAAA"})
        assert 'id="id_code_error"' in response.content.decode()
    assert "Too many wrong team codes" in text_of(client.post(reverse("team_open"), {"code": "AAAAAA"}))


def test_a_new_code_closes_the_page_on_every_phone_with_the_old_one(client, drawn, director):
    page = open_team(client, drawn[0])
    team_code_renew(team=drawn[0])
    assert client.get(page).status_code == 404
    drawn[0].refresh_from_db()
    assert open_team(client, drawn[0]) == page


def test_one_phone_cannot_sign_for_both_teams_without_both_codes(client, tournament, drawn, sheet):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    sheet.full_round(table)
    ns_page = open_team(client, drawn[0])
    player = drawn[0].memberships.first().player
    response = client.post(ns_page + "sign/", {"version": table.version, "player": player.pk}, follow=True)
    assert "Signed by Player 0a for your team." in text_of(response)
    ew_player = drawn[1].memberships.first().player
    data = {"sign-EW-version": table.version + 1, "sign-EW-pair": "EW", "sign-EW-player": ew_player.pk}
    refused = client.post(reverse("table_sign", args=[table.secret]), data, follow=True)
    assert 'id="id_sign-EW-code_error"' in refused.content.decode()
    assert not table.signatures.filter(pair="EW").exists()
    wrong = client.post(
        reverse("table_sign", args=[table.secret]), {**data, "sign-EW-code": drawn[0].code}, follow=True
    )
    assert 'id="id_sign-EW-code_error"' in wrong.content.decode()
    assert not table.signatures.filter(pair="EW").exists()
    client.post(reverse("table_sign", args=[table.secret]), {**data, "sign-EW-code": drawn[1].code})
    table.refresh_from_db()
    assert table.signed


def test_a_team_whose_page_this_phone_opened_signs_on_the_sheet_without_typing_its_code(
    client, tournament, drawn, sheet
):
    table = sheet.full_round(tournament.rounds.get(number=1).tables.get(number=1))
    open_team(client, drawn[0])
    html = client.get(reverse("table", args=[table.secret])).content.decode()
    assert 'name="sign-NS-code"' not in html and "no need to type it again" in html
    assert 'name="sign-EW-code"' in html, "the other team still types its own"
    player = drawn[0].memberships.first().player
    data = {"sign-NS-version": table.version, "sign-NS-pair": "NS", "sign-NS-player": player.pk}
    client.post(reverse("table_sign", args=[table.secret]), data)
    assert table.signatures.get().player == player
    ew = {"sign-EW-version": table.version + 1, "sign-EW-pair": "EW", "sign-EW-player": drawn[1].members[0].player.pk}
    refused = client.post(reverse("table_sign", args=[table.secret]), ew, follow=True)
    assert 'id="id_sign-EW-code_error"' in refused.content.decode(), "without its code the other team is refused"


def test_opponents_accept_on_their_own_page_or_on_the_sitting_phone(client, tournament, drawn, sheet):
    Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.ACCEPT)
    table = tournament.rounds.get(number=1).tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 2, "low", 8)
    sitting = text_of(client.get(reverse("table", args=[table.secret])))
    assert "Waiting for East–West to accept" in sitting
    table.refresh_from_db()
    accept = reverse("table_hand_accept", args=[table.secret, 1])
    client.post(accept, {"version": table.version, "code": drawn[0].code})
    assert table.hands.get(sequence=1).accepted_at is None, "not with the entering team's own code"
    client.post(accept, {"version": table.version, "code": drawn[1].code})
    assert table.hands.get(sequence=1).accepted_at is not None
    ew_phone = Client()
    page = open_team(ew_phone, drawn[1])
    html = text_of(ew_phone.get(page))
    assert "Accept hand 2" in html and "Accept hand 1" not in html
    table.refresh_from_db()
    ew_phone.post(page + "accept/2/", {"version": table.version})
    assert table.hands.get(sequence=2).accepted_at is not None


def test_opponents_whose_page_this_phone_opened_accept_on_the_sheet_without_typing_their_code(
    client, tournament, drawn, sheet
):
    Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.ACCEPT)
    table = tournament.rounds.get(number=1).tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 2, "low", 8)
    table.refresh_from_db()
    address, accept = reverse("table", args=[table.secret]), reverse("table_hand_accept", args=[table.secret, 1])
    sitting = Client()
    open_team(sitting, drawn[0])
    assert 'id="accept-code-1"' in sitting.get(address).content.decode(), "the team that entered it opened its page"
    sitting.post(accept, {"version": table.version})
    assert table.hands.get(sequence=1).accepted_at is None, "nor does its page vouch for the other team"

    open_team(client, drawn[1])
    html = client.get(address).content.decode()
    assert 'id="accept-code-1"' not in html and "no need to type it again" in text_of(client.get(address))
    client.post(accept, {"version": table.version})
    assert table.hands.get(sequence=1).accepted_at is not None
    assert "East–West (team #2) accepted hand 1" in text_of(client.get(reverse("table_history", args=[table.secret])))


def test_blind_double_entry_through_both_teams_pages(tournament, drawn):
    Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    table = tournament.rounds.get(number=1).tables.get(number=1)
    ns_phone, ew_phone = Client(), Client()
    ns_page, ew_page = open_team(ns_phone, drawn[0]), open_team(ew_phone, drawn[1])
    assert "Enter hand 1" not in text_of(ns_phone.get(reverse("table", args=[table.secret])))

    def enter(phone, page, books):
        table.refresh_from_db()
        data = {"version": table.version, "dealer": "N", "bidder": "N", "bid": "3:high", "suit": "spades"}
        return phone.post(page + "enter/", {f"enter-{key}": value for key, value in {**data, "books": books}.items()})

    enter(ns_phone, ns_page, 9)
    ew_view = text_of(ew_phone.get(ew_page))
    assert "9 books" not in ew_view, "the other team's entry stays hidden until both are in"
    enter(ew_phone, ew_page, 8)
    for phone, page in ((ns_phone, ns_page), (ew_phone, ew_page)):
        html = text_of(phone.get(page))
        assert "differ" in html and "9 books" in html and "8 books" in html
    enter(ew_phone, ew_page, 9)
    assert table.hands.get().books == 9 and not table.submissions.exists()


def test_codes_are_never_shown_on_public_pages_score_sheets_or_the_projector(
    client, tournament, drawn, sheet, director
):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    sheet.full_round(table)
    codes = [team.code for team in drawn]
    slug = tournament.slug
    for url in (
        reverse("public:tournament", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:draw", args=[slug]),
        reverse("public:team", args=[slug, 1]),
        reverse("public:projector", args=[slug]),
        reverse("public:standings", args=[slug]) + "?_export=csv",
        reverse("table", args=[table.secret]),
    ):
        content = client.get(url).content.decode()
        assert not any(code in content for code in codes), url
    client.force_login(director)
    sheets_pdf = client.get(reverse("director:round_sheets_pdf", args=[slug, 1])).content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(sheets_pdf)).pages)
    assert not any(code in text for code in codes)
    desk = client.get(reverse("director:desk", args=[slug])).content.decode()
    assert all(code in desk for code in codes), "the desk shows them to hand out"


def test_check_in_slips_print_each_teams_code(client, tournament, drawn, director, player_user):
    url = reverse("director:checkin_slips", args=[tournament.slug])
    client.force_login(player_user)
    assert client.get(url).status_code == 403
    client.force_login(director)
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(client.get(url).content)).pages)
    assert all(team.code in text for team in drawn) and "your team code" in text.lower()
    lines = text.splitlines()
    assert any("open testserver/my/ " in line for line in lines), "the address on one line, whole"
    assert "?code=" not in text, "the code is typed, not read out of an address"
    one = PdfReader(io.BytesIO(client.get(url, {"team": 2}).content)).pages[0].extract_text()
    assert drawn[1].code in one and drawn[0].code not in one
    assert client.get(url, {"team": "999"}).status_code == 404


def test_the_team_page_costs_the_same_queries_however_large_the_field(client, event, make_teams, sheet):
    from tournament.services.events import tournament_create

    counts = []
    for size in (4, 40):
        tournament = tournament_create(event=event, name=f"Field of {size}")
        teams = make_teams(tournament, size, start=size * 10)
        round_ = round_published(tournament)
        sheet.full_round(round_.tables.get(number=1))
        page = open_team(client, teams[0])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(page).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
