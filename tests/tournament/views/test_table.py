import re

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import Absent
from tests.conftest import round_published, text_of
from tournament.models import Hand, Penalty
from tournament.services.absence import table_forfeit_declare
from tournament.services.draws import round_draw, round_publish


def hand_post(version, confirm=True, **overrides):
    data = {
        "hand-version": version,
        "hand-dealer": "N",
        "hand-bidder": "E",
        "hand-bid": "3:low",
        "hand-suit": "hearts",
        "hand-books": "10",
        "hand-confirm": "on" if confirm else "",
    }
    data.update({f"hand-{key}": value for key, value in overrides.items()})
    return data


def url(name, table, *args):
    return reverse(name, args=[table.secret, *args])


def refused(client, address, data, field_id):
    """A refused form: the browser is sent back to the page at the field, where the refusal is shown beside it."""
    response = client.post(address, data)
    assert response.status_code == 302, "every POST ends in a redirect"
    assert response.url.endswith(f"#{field_id}_group"), response.url
    page = client.get(response.url)
    assert f'id="{field_id}_error"' in page.content.decode()
    return page


def test_a_hand_sent_to_a_table_forfeited_since_is_refused_before_any_check_page(client, table, staff):
    """A page opened before the director declared the forfeit: the hand is refused at once, saying why, rather
    than checked as a hand that has no number."""
    table_forfeit_declare(table=table, absent=Absent.EAST_WEST, early=True, reason="Not here", actor=staff)
    response = client.post(url("table_hand_add", table), hand_post(0, confirm=False), follow=True)
    assert url("table_hand_check", table) not in [hop for hop, _ in response.redirect_chain]
    assert f"Table {table.number} is a forfeit: undo the forfeit before entering a hand." in text_of(response)
    assert not table.hands.exists()


def test_a_dealer_refused_opens_the_dealt_out_of_turn_mark_the_refusal_speaks_of(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    page = refused(client, url("table_hand_add", table), hand_post(sheet.version(table), dealer="W"), "id_hand-dealer")
    assert "mark the hand so" in text_of(page)
    assert '<details class="more" open>' in page.content.decode()


def test_without_javascript_the_points_are_confirmed_before_saving(client, table):
    response = client.post(url("table_hand_add", table), hand_post(0, confirm=False))
    assert response.status_code == 302 and response.url == url("table_hand_check", table)
    check = client.get(response.url)
    text = text_of(check)
    assert "This hand: North–South 0, East–West 4 (made)" in text
    assert "Save hand 1" in text
    assert text_of(client.get(response.url)) == text, "refreshing the check page saves nothing"
    assert not table.hands.exists(), "nothing is saved before the confirmation"
    saved = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', check.content.decode())
    data = dict(saved)
    assert data["hand-confirm"] == "on" and data["entry_id"]
    response = client.post(url("table_hand_add", table), data)
    assert response.status_code == 302 and response.url.endswith("#entry")
    assert client.post(url("table_hand_add", table), data).status_code == 302
    hand = table.hands.get()
    assert (hand.ew_points, hand.bid_text) == (4, "3 Downtown ♥"), "a second tap on Save records the hand once"
    assert "East–West 4" in text_of(client.get(url("table", table)))
    back = client.get(url("table_hand_check", table), follow=True)
    assert back.redirect_chain and "is dealt by" not in text_of(back), "Back to the saved check opens the sheet"
    assert table.hands.count() == 1


def test_the_live_preview_fragment(client, table):
    response = client.post(url("table_hand_preview", table), hand_post(0, books="5"))
    assert "This hand: North–South 5, East–West 0 (set)" in text_of(response)
    response = client.post(url("table_hand_preview", table), hand_post(0, books="14"))
    assert "This hand" not in text_of(response)


def test_the_edit_page_shows_the_changed_hands_points_as_entry_does(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 4, "low", 10)
    sheet.hand(table, "S", "S", 2, "nt", 8)
    table.refresh_from_db()
    first = table.hands.get(sequence=1)
    page = client.get(url("table_hand_edit", table, first.sequence)).content.decode()
    assert f'hx-post="{url("table_hand_edit_preview", table, first.sequence)}"' in page and 'id="hand-preview"' in page
    changed = hand_post(table.version, dealer="N", bidder="N", bid="3:high", books="7")
    text = text_of(client.post(url("table_hand_edit_preview", table, first.sequence), changed))
    totals = {
        pair: table.hands.exclude(pk=first.pk).aggregate(points=Sum(f"{pair}_points"))["points"]
        for pair in ("ns", "ew")
    }
    assert "This hand: North–South 0, East–West 3 (set)" in text, "the first hand's own points, not the last's"
    assert f"Totals after it: North–South {totals['ns']}, East–West {totals['ew'] + 3}" in text
    assert table.hands.get(pk=first.pk).books == 9, "a preview changes nothing"


def test_a_hand_needs_no_trump_suit(client, table):
    response = client.post(url("table_hand_add", table), hand_post(0, suit=""))
    assert response.status_code == 302
    hand = table.hands.get()
    assert (hand.bid_text, hand.ew_points) == ("3 Downtown", 4)


def test_a_refusal_is_shown_beside_its_field_and_nothing_is_saved(client, table):
    page = refused(client, url("table_hand_add", table), hand_post(0, suit="stars"), "id_hand-suit")
    assert 'value="stars"' not in page.content.decode()
    assert re.search(r'value="3:low"[^>]*checked', page.content.decode()), "what was typed is kept"
    assert not table.hands.exists()
    assert 'id="id_hand-suit_error"' not in client.get(url("table", table)).content.decode(), "shown once"


def test_a_stale_save_comes_back_in_the_form_as_the_hand_now_next_with_the_dealer_now_proposed(client, table):
    client.post(url("table_hand_add", table), hand_post(0))
    response = client.post(url("table_hand_add", table), hand_post(0, bidder="N", books="9"), follow=True)
    said = text_of(response)
    assert "The sheet changed on another device after this was entered: Hand 1: 3 Downtown ♥ by East, 10 books" in said
    assert "This entry is now hand 2, and the dealer is now East" in said and "the rest is as you typed it" in said
    assert table.hands.count() == 1
    form = response.content.decode().split('id="hand-form"')[1].split("</form>")[0]
    for name, value in (("dealer", "E"), ("bidder", "N"), ("bid", "3:low"), ("books", "9")):
        assert re.search(rf'name="hand-{name}" value="{value}"[^>]*checked', form), name
    assert 'name="hand-version" value="1"' in form, "saved next, it goes on the sheet as it is now"
    assert "hand-confirm" not in form or 'name="hand-confirm" value="on"' not in form

    client.post(url("table_hand_add", table), hand_post(1, dealer="E", bidder="N", books="9"))
    assert [(h.dealer, h.bidder, h.books) for h in table.hands.order_by("sequence")] == [("N", "E", 10), ("E", "N", 9)]


def test_a_wrong_secret_is_not_found_on_every_page(client, table):
    table.secret = "wrong-secret-value"
    for name, args in [
        ("table", []),
        ("table_history", []),
        ("table_hand_add", []),
        ("table_hand_preview", []),
        ("table_redeal", []),
        ("table_penalty_add", []),
        ("table_sign", []),
        ("table_first_dealer", []),
        ("table_hand_edit", [1]),
    ]:
        method = "get" if name in ("table", "table_history", "table_hand_edit") else "post"
        assert getattr(client, method)(url(name, table, *args)).status_code == 404, name


def test_a_link_cannot_reach_another_tables_hands_or_penalties(client, tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    mine, other = round_.tables.get(number=1), round_.tables.get(number=2)
    hand = sheet.hand(other, "N", "N", 3, "high", 9)
    penalty = sheet.penalty(other, kind="play_out_of_turn", team="NS", hand=hand)
    assert client.get(url("table_hand_edit", mine, hand.sequence)).status_code == 404
    response = client.post(url("table_penalty_remove", mine, penalty.pk), {"version": 0})
    assert response.status_code == 404
    assert client.post(url("table_hand_remove", mine, hand.sequence), {"version": 0}).status_code == 404
    assert Penalty.objects.filter(pk=penalty.pk).exists() and Hand.objects.filter(pk=hand.pk).exists()


def test_another_rounds_table_is_its_own_link(client, tournament, make_teams, sheet):
    make_teams(tournament, 2)
    first = round_published(tournament).tables.get()
    second = round_publish(
        round=round_draw(tournament=tournament, method="manual", override_unsigned=True), override_unsigned=True
    ).tables.get()
    sheet.hand(first, "N", "N", 3, "high", 9)
    assert client.get(url("table_hand_edit", second, 1)).status_code == 404
    assert "Round 2" in text_of(client.get(url("table", second))) or "round 2" in text_of(
        client.get(url("table", second))
    )


def test_a_draft_rounds_table_link_does_not_open(client, tournament, make_teams):
    make_teams(tournament, 2)
    table = round_draw(tournament=tournament, method="manual").tables.get()
    assert client.get(url("table", table)).status_code == 404
    assert client.post(url("table_hand_add", table), hand_post(0)).status_code == 404


@pytest.fixture
def signed(table, sheet):
    table = sheet.full_round(table)
    ns = table.team_at("NS").members[0].player
    ew = table.team_at("EW").members[0].player
    sheet.sign(table, "NS", ns)
    sheet.sign(table, "EW", ew)
    table.refresh_from_db()
    return table


def test_a_signed_sheet_refuses_every_change_through_the_link(client, signed, player_user):
    version = signed.version
    for who in (None, player_user):
        if who:
            client.force_login(who)
        response = client.post(
            url("table_hand_edit", signed, 1),
            hand_post(version, dealer="N", bidder="N", books="12", reason="x"),
            follow=True,
        )
        assert "signed and locked" in text_of(response)
        response = client.post(
            url("table_penalty_add", signed),
            {"penalty-version": version, "penalty-hand": 1, "penalty-kind": "play_out_of_turn", "penalty-team": "NS"},
            follow=True,
        )
        assert "signed and locked" in text_of(response)
        client.post(url("table_hand_remove", signed, 1), {"version": version, "reason": "x"})
    assert signed.hands.count() == 4 and not Penalty.objects.exists()
    signed.refresh_from_db()
    assert (signed.ns_total, signed.ew_total, signed.version) == (3, 10, version)
    page = text_of(client.get(url("table", signed)))
    assert "Signed by both teams and locked" in page and "Enter hand" not in page


def test_staff_correct_a_signed_sheet_with_a_reason(client, signed, scorekeeper):
    client.force_login(scorekeeper)
    version = signed.version
    data = hand_post(version, dealer="N", bidder="N", level="3", kind="high", suit="spades", books="11")
    refused(client, url("table_hand_edit", signed, 1), data, "id_hand-reason")
    response = client.post(url("table_hand_edit", signed, 1), {**data, "hand-reason": "11 books, counted again"})
    assert response.status_code == 302
    signed.refresh_from_db()
    assert signed.ns_total == 5
    history = text_of(client.get(url("table_history", signed)))
    assert "correction" in history and "11 books, counted again" in history and scorekeeper.username in history


def test_only_staff_see_and_make_rulings(client, table, scorekeeper, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    assert "Director&#x27;s ruling" not in client.get(url("table", table)).content.decode()
    data = {
        "penalty-version": 1,
        "penalty-kind": "director_ruling",
        "penalty-team": "NS",
        "penalty-points": "5",
        "penalty-reason": "Generous",
        "penalty-hand": "",
    }
    refused(client, url("table_penalty_add", table), data, "id_penalty-kind")
    assert not Penalty.objects.exists()
    client.force_login(scorekeeper)
    assert "Director&#x27;s ruling" in client.get(url("table", table)).content.decode()
    assert client.post(url("table_penalty_add", table), data).status_code == 302
    table.refresh_from_db()
    assert table.ns_total == 8


def test_signing_through_the_page(client, table, sheet):
    table = sheet.full_round(table)
    ns_player = table.team_at("NS").members[1].player
    page = text_of(client.get(url("table", table)))
    assert "Sign the sheet" in page and "East–West win 10–3" in page
    data = {"sign-NS-version": table.version, "sign-NS-pair": "NS", "sign-NS-player": ns_player.pk}
    wrong = {**data, "sign-NS-code": table.team_at("EW").code}
    page = refused(client, url("table_sign", table), wrong, "id_sign-NS-code")
    assert "code: each team vouches with its own" in text_of(page) and not table.signatures.exists()
    code = table.team_at("NS").code.lower()
    response = client.post(url("table_sign", table), {**data, "sign-NS-code": f"{code[:3]} {code[3:]}"})
    assert response.status_code == 302, "the code is read in any case, with a space"
    assert table.signatures.get().player == ns_player


def test_the_table_page_costs_the_same_queries_however_many_hands(client, tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    short, full = round_.tables.get(number=1), round_.tables.get(number=2)
    sheet.hand(short, "N", "N", 3, "high", 9)
    sheet.hand(full, "N", "N", 3, "high", 9)
    sheet.redeal(full, "E")
    sheet.hand(full, "E", "E", 4, "low", 10)
    sheet.penalty(full, kind="renege", team="NS", hand=full.hands.get(sequence=3))
    sheet.penalty(full, kind="exposed_card", team="EW", hand=full.hands.get(sequence=1))
    sheet.hand(full, "S", "S", 2, "high", 7)
    sheet.hand(full, "W", "W", 1, "nt", 8)
    counts = []
    for table in (short, full):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("table", table)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_live_round_view_shows_each_tables_progress(client, director, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    client.force_login(director)
    response = client.get(reverse("director:round_live_fragment", args=[table.round.tournament.slug, 1]))
    text = text_of(response)
    assert "Table 1" in text and "1 of 4 hands" in text and "0 of 1 sheets signed · 0 complete · 1 hand entered" in text
    assert reverse("table", args=[table.secret]) in response.content.decode()


def test_calling_the_director_from_the_table_and_settling_it(client, table, sheet, scorekeeper, director):
    table = sheet.full_round(table)
    response = client.post(
        url("table_dispute", table),
        {"dispute-version": table.version, "dispute-pair": "NS", "dispute-note": "Renege not counted"},
    )
    assert response.status_code == 302
    page = text_of(client.get(url("table", table)))
    assert "Director called" in page and "North–South: Renege not counted" in page and "Sign the sheet" not in page
    client.force_login(director)
    live = text_of(client.get(reverse("director:round_live_fragment", args=[table.round.tournament.slug, 1])))
    assert "Director called" in live and "1 calling the director" in live
    table.refresh_from_db()
    client.force_login(scorekeeper)
    response = client.post(url("table_settle", table), {"settle-version": table.version, "settle-reason": "Checked"})
    assert response.status_code == 302
    assert "Sign the sheet" in text_of(client.get(url("table", table)))


def test_a_re_deal_through_the_page(client, table):
    page = url("table_redeal", table)
    refused(client, page, {"redeal-version": 0, "redeal-dealer": "N"}, "id_redeal-reason")
    out_of_turn = {"redeal-version": 0, "redeal-dealer": "N", "redeal-reason": "deal_out_of_turn"}
    response = refused(client, page, out_of_turn, "id_redeal-team")
    assert "team that was out of turn" in text_of(response)
    assert not table.hands.exists()
    response = client.post(page, {**out_of_turn, "redeal-team": "EW"}, follow=True)
    assert "Re-deal recorded: hand 1 is dealt again." in text_of(response)
    redeal = table.hands.get()
    assert not redeal.counts and redeal.penalties.get().kind == "deal_out_of_turn"


def test_signing_without_choosing_a_name_says_to_choose_it(client, table, sheet):
    table = sheet.full_round(table)
    data = {"sign-NS-version": table.version, "sign-NS-pair": "NS", "sign-NS-code": table.team_at("NS").code}
    page = refused(client, url("table_sign", table), data, "id_sign-NS-player")
    assert "Choose your name: the player who signs for the team." in text_of(page)
    assert not table.signatures.exists()
