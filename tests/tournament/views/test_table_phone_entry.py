"""The scorekeeper's phone, second version: entries recorded once, removals asked and undone, the offline
queue's answers, hands marked dealt out of turn, and the table card that stays on the table."""

import json
import re

import pytest
from django.db import connection
from django.templatetags.static import static
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import round_published, text_of
from tournament.errors import ServiceError
from tournament.models import Hand, LogEntry, Penalty, Round
from tournament.selectors import card_sitting
from tournament.services import sheets
from tournament.services.cards import table_cards_issue
from tournament.services.draws import round_draw, round_publish
from tournament.services.sheets import ChangeContext


def entry(dealer="N", bidder="N", level=3, kind="high", books=9, **more):
    return sheets.HandEntry(dealer, bidder, level, kind, books, **more)


def hand_fields(version, **overrides):
    data = {
        "hand-version": version,
        "hand-dealer": "N",
        "hand-bidder": "E",
        "hand-bid": "3:low",
        "hand-books": "10",
    }
    data.update({f"hand-{key}": value for key, value in overrides.items()})
    return data


def url(name, table, *args):
    return reverse(name, args=[table.secret, *args])


# Recording an entry exactly once


def test_an_entry_sent_twice_is_recorded_once(table):
    first = sheets.hand_record(table=table, entry=entry(), entry_id="phone-1", context=ChangeContext(version=0))
    again = sheets.hand_record(table=table, entry=entry(), entry_id="phone-1", context=ChangeContext(version=0))
    assert again.pk == first.pk and table.hands.count() == 1
    table.refresh_from_db()
    assert table.version == 1, "the repeated send changed nothing"


def test_an_entry_sent_again_after_the_sheet_moved_on_is_still_recognised(table, sheet):
    sheets.hand_record(table=table, entry=entry(), entry_id="phone-1", context=ChangeContext(version=0))
    sheet.hand(table, "E", "E", 2, "high", 8)
    again = sheets.hand_record(table=table, entry=entry(), entry_id="phone-1", context=ChangeContext(version=0))
    assert again.hand_number == 1 and table.hands.count() == 2


def test_entry_ids_are_per_table(tournament, make_teams):
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    one, two = round_.tables.order_by("number")
    sheets.hand_record(table=one, entry=entry(), entry_id="same", context=ChangeContext(version=0))
    sheets.hand_record(table=two, entry=entry(), entry_id="same", context=ChangeContext(version=0))
    assert Hand.objects.filter(entry_id="same").count() == 2


# The queue's endpoint


def sync(client, table, entry_id, version, **overrides):
    response = client.post(url("table_hand_sync", table), {**hand_fields(version, **overrides), "entry_id": entry_id})
    return response.status_code, json.loads(response.content)


def test_the_queue_is_told_saved_with_the_version_to_chain_on(client, table):
    status, answer = sync(client, table, "a1", 0)
    assert (status, answer["status"], answer["version"]) == (200, "saved", 1)
    assert answer["message"] == "Hand 1 saved: North–South 0, East–West 4."
    status, answer = sync(client, table, "a2", answer["version"], dealer="E", bidder="S", bid="4:high", books="9")
    assert (status, answer["status"], answer["version"]) == (200, "saved", 2)
    status, answer = sync(client, table, "a1", 0)
    assert (status, answer["status"], answer["version"]) == (200, "saved", 1), "a repeat gets its own version back"
    assert table.hands.count() == 2


def test_the_queue_is_told_of_a_change_from_another_device(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    status, answer = sync(client, table, "late", 0)
    assert status == 409 and answer["status"] == "conflict" and answer["version"] == 1
    assert "changed on another device after this was entered: Hand 1: 3 Uptown ♥ by North, 9 books" in answer["message"]
    assert "now hand 2, and the dealer is now East" in answer["message"] and answer["dealer"] == "E"
    assert table.hands.count() == 1, "nothing overwritten"
    status, answer = sync(client, table, "late", answer["version"], dealer="E", bidder="E")
    assert status == 200 and table.hands.count() == 2, "sent again as the next hand when the phone says so"


def test_the_queue_is_told_why_an_entry_is_refused(client, table, sheet):
    status, answer = sync(client, table, "x", 0, books="14")
    assert status == 422 and answer["status"] == "refused" and "books" in answer["errors"]
    sheet.hand(table, "N", "N", 3, "high", 9)
    status, answer = sync(client, table, "y", 1, dealer="S")
    assert status == 422 and answer["field"] == "dealer" and "deal passes clockwise" in answer["message"]
    status, answer = sync(client, table, "", 1)
    assert status == 400 and table.hands.count() == 1


def test_a_signed_sheet_refuses_the_queue(client, table, sheet):
    sheet.play(table)
    status, answer = sync(client, table, "after", table.version)
    assert status == 422 and answer["status"] == "refused" and "signed" in answer["message"]


# Taking back the hand just saved


def checked_values(html: str) -> dict[str, str]:
    """The hand form's radio buttons drawn checked, by field."""
    found = re.findall(r'<input\s+type="radio" name="hand-(\w+)" value="([^"]*)"[^>]*\bchecked\b', html)
    return dict(found)


def test_the_phone_that_saved_a_hand_undoes_it_and_finds_it_in_the_form_to_correct(client, table):
    status, answer = sync(client, table, "s1", 0, suit="hearts")
    assert status == 200
    page = client.get(url("table", table)).content.decode()
    assert "Undo hand 1" in page
    response = client.post(url("table_hand_undo", table), {"version": answer["version"]}, follow=True)
    assert "Hand 1 undone: it is off the sheet. Correct it below, then save it again." in text_of(response)
    assert not table.hands.exists()
    values = checked_values(response.content.decode())
    assert values == {"dealer": "N", "bidder": "E", "bid": "3:low", "suit": "hearts", "books": "10"}
    assert "Undo hand 1" not in text_of(response)
    again = checked_values(client.get(url("table", table)).content.decode())
    assert again == {"dealer": "N"}, "the form is filled in once, then proposes the dealer as before"
    assert "Removed hand 1" in text_of(client.get(url("table_history", table)))


def test_the_phones_background_refresh_keeps_the_undo_and_leaves_the_saved_message_for_the_page(client, table):
    sync(client, table, "s1", 0)
    refreshed = text_of(client.get(url("table", table), HTTP_OFFLINE_REFRESH="1"))
    assert "Last saved on this phone: hand 1. Undo hand 1" in refreshed
    page = text_of(client.get(url("table", table)))
    assert "Hand 1 saved: North–South 0, East–West 4. Undo hand 1" in page and "Last saved" not in page


def test_a_hand_saved_without_javascript_is_undone_too(client, table):
    client.post(url("table_hand_add", table), {**hand_fields(0), "hand-confirm": "on", "entry_id": "nojs"})
    assert table.hands.count() == 1
    client.post(url("table_hand_undo", table), {"version": 1})
    assert not table.hands.exists()


def test_a_hand_is_undone_only_while_the_sheet_is_as_the_save_left_it(client, table, sheet):
    answer = sync(client, table, "s1", 0)[1]
    sheet.hand(table, "E", "S", 4, "high", 9)
    page = text_of(client.get(url("table", table)))
    assert "Undo hand 1" not in page, "another phone entered the next hand"
    response = client.post(url("table_hand_undo", table), {"version": answer["version"]}, follow=True)
    assert "There is nothing to undo" in text_of(response) and table.hands.count() == 2


def test_a_signed_sheet_offers_no_undo_and_refuses_one(client, table, sheet):
    for number, (dealer, bidder) in enumerate((("N", "N"), ("E", "E"), ("S", "S"), ("W", "W"))):
        status, answer = sync(client, table, f"h{number}", number, dealer=dealer, bidder=bidder)
        assert status == 200
    table.refresh_from_db()
    assert table.complete and "Undo hand 4" in text_of(client.get(url("table", table)))
    sheet.sign_both(table)
    table.refresh_from_db()
    assert table.signed and "Undo hand 4" not in text_of(client.get(url("table", table)))
    client.post(url("table_hand_undo", table), {"version": answer["version"]})
    client.post(url("table_hand_undo", table), {"version": table.version})
    assert table.hands.count() == 4


def test_only_the_phone_that_saved_the_hand_may_undo_it(client, table):
    answer = sync(client, table, "s1", 0)[1]
    other = Client()
    assert "Undo hand 1" not in text_of(other.get(url("table", table)))
    response = other.post(url("table_hand_undo", table), {"version": answer["version"]}, follow=True)
    assert "There is nothing to undo" in text_of(response) and table.hands.count() == 1
    assert client.get(reverse("table_hand_undo", args=[table.secret])).status_code == 405


# Removing, asked once, and undoing


def test_removing_a_hand_asks_first_saying_what_goes_and_which_signatures_are_voided(client, table, sheet):
    table = sheet.full_round(table)
    sheet.sign(table, "NS", table.team_at("NS").members[0].player)
    page = text_of(client.get(url("table_hand_remove", table, 4)))
    assert "Hand 4: 1 No Trump (uptown) by West, 8 books" in page
    assert "will be voided: Player 0a for North–South" in page
    assert table.hands.count() == 4, "asking removes nothing"
    table.refresh_from_db()
    response = client.post(url("table_hand_remove", table, 4), {"version": table.version})
    assert response.status_code == 302 and response.url.endswith("#entry")
    assert table.hands.count() == 3 and not table.signatures.exists()
    assert "Undo: put it back" in text_of(client.get(url("table", table)))


def test_the_last_removal_is_undone_as_it_was(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.redeal(table, "E")
    sheet.hand(table, "E", "E", 4, "low", 10)
    hand = sheet.hand(table, "S", "S", 2, "high", 9)
    sheet.penalty(table, kind="renege", team="NS", hand=hand)
    table.refresh_from_db()
    before = [(h.hand_number, h.dealer, h.books_after_penalties, h.ns_points, h.ew_points) for h in table.hands.all()]
    totals = (table.ns_total, table.ew_total)
    client.post(url("table_hand_remove", table, 4), {"version": table.version})
    table.refresh_from_db()
    assert table.hands.count() == 3 and not Penalty.objects.exists()
    response = client.post(url("table_undo", table), {"version": table.version}, follow=True)
    assert "Put back: hand 3" in text_of(response)
    table.refresh_from_db()
    after = [(h.hand_number, h.dealer, h.books_after_penalties, h.ns_points, h.ew_points) for h in table.hands.all()]
    assert after == before and (table.ns_total, table.ew_total) == totals
    assert table.hands.get(sequence=4).penalties.get().kind == "renege"
    assert table.changes.filter(action=LogEntry.Action.REMOVAL_UNDONE).exists()
    response = client.post(url("table_undo", table), {"version": table.version}, follow=True)
    assert "nothing to undo" in text_of(response) and table.hands.count() == 4, "undone once only"


def test_a_removal_is_undone_only_while_it_is_the_last_change(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    penalty = sheet.penalty(table, kind="play_out_of_turn", team="NS", hand=table.hands.get())
    table.refresh_from_db()
    client.post(url("table_penalty_remove", table, penalty.pk), {"version": table.version})
    sheet.hand(table, "E", "E", 2, "high", 8)
    table.refresh_from_db()
    page = text_of(client.get(url("table", table)))
    assert "Undo" not in page, "the offer goes once the sheet changes"
    removal = table.changes.get(action=LogEntry.Action.PENALTY_REMOVED)
    with pytest.raises(ServiceError, match="Only the last change"):
        sheets.removal_undo(table=table, removal=removal, context=ChangeContext(version=table.version))
    assert not Penalty.objects.exists()


def test_a_removal_the_director_ruled_is_undone_as_the_same_ruling(director_client, director, table, sheet):
    """Removing a ruling that decided a signed sheet changes who won, so the director confirms it as a ruling;
    Undo puts the ruling back under that same confirmation rather than asking for one it has no box for."""
    table = sheet.full_round(table)
    sheet.sign_both(table)
    ruling = sheet.penalty(
        table, kind="director_ruling", team="NS", points=20, reason="Table talk", user=director, director_ruling=True
    )
    table.refresh_from_db()
    assert (table.ns_total, table.ew_total) == (23, 10)
    removed = {"version": table.version, "reason": "Ruled in error", "director_ruling": "on"}
    director_client.post(url("table_penalty_remove", table, ruling.pk), removed)
    table.refresh_from_db()
    assert (table.ns_total, table.ew_total) == (3, 10)
    response = director_client.post(url("table_undo", table), {"version": table.version}, follow=True)
    assert "Put back: Director's ruling" in text_of(response).replace("&#x27;", "'")
    table.refresh_from_db()
    assert (table.ns_total, table.ew_total) == (23, 10)


def test_a_refused_undo_stays_on_offer(client, table, sheet, monkeypatch):
    sheet.hand(table, "N", "N", 3, "high", 9)
    table.refresh_from_db()
    client.post(url("table_hand_remove", table, 1), {"version": table.version})
    table.refresh_from_db()

    def refuse(**given):
        raise ServiceError("The round is closed.")

    monkeypatch.setattr(sheets, "removal_undo", refuse)
    page = text_of(client.post(url("table_undo", table), {"version": table.version}, follow=True))
    assert "The round is closed." in page and "Undo: put it back" in page


def test_only_the_phone_that_removed_may_undo(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    table.refresh_from_db()
    client.post(url("table_hand_remove", table, 1), {"version": table.version})
    table.refresh_from_db()
    other = Client()
    assert "Undo" not in text_of(other.get(url("table", table)))
    other.post(url("table_undo", table), {"version": table.version})
    assert not table.hands.exists()


def test_undo_puts_back_a_penalty_on_its_hand(table, sheet):
    hand = sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.penalty(table, kind="exposed_card", team="EW", hand=hand)
    second = sheet.penalty(table, kind="exposed_card", team="EW", hand=hand)
    table.refresh_from_db()
    points = table.ns_total
    removal = sheets.penalty_remove(penalty=second, context=ChangeContext(version=table.version))
    table.refresh_from_db()
    assert table.ns_total == points - 3
    sheets.removal_undo(table=table, removal=removal, context=ChangeContext(version=table.version))
    table.refresh_from_db()
    assert table.ns_total == points and hand.penalties.count() == 2


def test_a_removal_from_another_table_cannot_be_undone_here(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    one, two = round_.tables.order_by("number")
    removal = sheets.hand_remove(hand=sheet.hand(one, "N", "N", 3, "high", 9), context=ChangeContext(version=1))
    with pytest.raises(ServiceError, match="no removal to undo"):
        sheets.removal_undo(table=two, removal=removal, context=ChangeContext(version=0))


# Dealt out of turn, marked on the hand


def test_a_hand_marked_dealt_out_of_turn_through_the_page(client, table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    table.refresh_from_db()
    refused = client.post(url("table_hand_add", table), {**hand_fields(1, dealer="W"), "hand-confirm": "on"})
    assert refused.url.endswith("#id_hand-dealer_group")
    assert "mark the hand so" in text_of(client.get(refused.url))
    marked = {**hand_fields(1, dealer="W", out_of_turn="on"), "hand-confirm": "on"}
    assert client.post(url("table_hand_add", table), marked).status_code == 302
    hand = table.hands.get(sequence=2)
    assert hand.dealer == "W" and hand.penalties.get().kind == "deal_out_of_turn"
    assert "dealt out of turn" in text_of(client.get(url("table", table))).lower()


def test_editing_a_hand_keeps_or_drops_its_mark(table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    marked = sheet.hand(table, "W", "E", 2, "high", 8, out_of_turn=True)
    table.refresh_from_db()
    sheets.hand_update(
        hand=marked, entry=entry("W", "E", 2, "high", 9, out_of_turn=True), context=ChangeContext(version=table.version)
    )
    assert marked.penalties.filter(kind="deal_out_of_turn").count() == 1
    table.refresh_from_db()
    with pytest.raises(ServiceError, match="deal passes clockwise"):
        sheets.hand_update(
            hand=marked, entry=entry("W", "E", 2, "high", 9), context=ChangeContext(version=table.version)
        )
    assert marked.penalties.filter(kind="deal_out_of_turn").count() == 1, "a refused edit keeps the mark"


# The table card


@pytest.fixture
def two_rounds(tournament, make_teams):
    make_teams(tournament, 4)
    first = round_published(tournament)
    return tournament, first


def test_a_table_card_opens_the_round_being_played_and_then_the_next(client, two_rounds, sheet):
    tournament, first = two_rounds
    card = table_cards_issue(tournament=tournament)[0]
    assert [c.number for c in table_cards_issue(tournament=tournament)] == [1, 2], "one per table, made once"
    address = reverse("table_card", args=[card.secret])
    page = text_of(client.get(address))
    assert "Table 1 · Round 1" in page and "Who was dealt the first diamond?" in page
    round_two = round_draw(tournament=tournament, method="manual", pairs="1 4\n2 3", override_unsigned=True)
    round_publish(round=round_two, override_unsigned=True)
    table_one = first.tables.get(number=1)
    page = text_of(client.get(address))
    assert "Table 1 · Round 1" in page, "a table still playing keeps its round"
    assert "#1 Player 0a &amp; Player 0b goes to table 1 (North–South) for round 2" in page
    assert "#2 Player 1a &amp; Player 1b goes to table 2 (North–South) for round 2" in page
    sheet.play(table_one)
    page = text_of(client.get(address))
    assert "Table 1 · Round 2" in page and "From round 1 at this table" in page
    assert card_sitting(card).table == round_two.tables.get(number=1)


def test_changes_made_through_a_table_card_come_back_to_the_card(client, two_rounds):
    tournament, first = two_rounds
    card = table_cards_issue(tournament=tournament)[0]
    address = reverse("table_card", args=[card.secret])
    client.get(address)
    table = first.tables.get(number=1)
    response = client.post(url("table_first_dealer", table), {"first-version": 0, "first-seat": "N"})
    assert response.url == f"{address}#entry"


def test_a_table_card_before_any_round_says_so(client, tournament, make_teams):
    make_teams(tournament, 2)
    card = table_cards_issue(tournament=tournament)[0]
    response = client.get(reverse("table_card", args=[card.secret]))
    assert response.status_code == 200 and "no round is out yet" in text_of(response)
    assert client.get(reverse("table_card", args=["not-a-card"])).status_code == 404


def test_the_table_card_page_costs_the_same_queries_in_any_round(client, two_rounds, sheet):
    tournament, first = two_rounds
    card = table_cards_issue(tournament=tournament)[0]
    address = reverse("table_card", args=[card.secret])
    client.get(address)
    with CaptureQueriesContext(connection) as early:
        client.get(address)
    sheet.play(first.tables.get(number=1))
    sheet.play(first.tables.get(number=2))
    round_published(tournament, method="manual", pairs="1 4\n2 3")
    client.get(address)
    with CaptureQueriesContext(connection) as later:
        client.get(address)
    assert len(later) == len(early) + 1, "where the teams went costs one query, whatever the field's size"


def test_table_cards_are_printed_by_the_director_only(client, two_rounds, director, scorekeeper):
    tournament, _ = two_rounds
    address = reverse("director:table_cards_pdf", args=[tournament.slug])
    client.force_login(scorekeeper)
    assert client.get(address).status_code == 403
    client.force_login(director)
    response = client.get(address)
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert tournament.table_cards.count() == 2


# The service worker


def test_the_service_worker_is_served_from_the_root_and_keeps_the_table_pages(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", body).group(1))
    assert {static("js/table.js"), static("django_htmx/htmx-2.min.js"), static("css/app.css")} <= set(assets)
    cache = json.loads(re.search(r"const ASSETS_CACHE = (\".*?\");", body).group(1))
    assert re.fullmatch(r"bidwhist-assets-[0-9a-f]{12}", cache)
    assert "no-cache" in response["Cache-Control"]


def test_a_table_page_may_stay_on_the_phone_only_while_its_sheet_is_being_filled_in(client, table, sheet):
    address = reverse("table", args=[table.secret])
    assert client.get(address)["Offline-Copy"] == "keep"
    sheet.full_round(table)
    assert client.get(address)["Offline-Copy"] == "keep", "complete but not signed: still in use"
    sheet.sign_both(table)
    assert "Offline-Copy" not in client.get(address), "signed: the phone drops its copy"


def test_a_table_page_of_a_closed_round_is_not_kept_on_the_phone(client, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    response = client.get(reverse("table", args=[table.secret]))
    assert response.status_code == 200 and "Offline-Copy" not in response


def test_an_entry_id_is_letters_digits_and_dashes(client, table):
    with pytest.raises(ServiceError, match="not one this app gives"):
        sheets.hand_record(table=table, entry=entry(), entry_id="bad\x00id", context=ChangeContext(version=0))
    status, answer = sync(client, table, "x" * 41, 0)
    assert (status, answer["status"]) == (400, "refused") and not table.hands.exists()


# A message belongs to the entry it is about


def test_a_resend_of_a_known_entry_with_different_content_is_a_conflict(client, table):
    status, answer = sync(client, table, "same-id", 0)
    assert status == 200 and answer["status"] == "saved"
    status, answer = sync(client, table, "same-id", 0, books="7")
    assert (status, answer["status"], answer["version"], answer["hand"]) == (409, "conflict", 1, 2)
    assert "already saved as hand 1" in answer["message"] and "differs" in answer["message"]
    assert [h.books for h in table.hands.all()] == [10], "the hand saved first is kept as it was"
    with pytest.raises(sheets.EntryClash):
        sheets.hand_record(
            table=table,
            entry=entry(dealer="N", bidder="E", level=3, kind="low", books=7),
            entry_id="same-id",
            context=ChangeContext(version=1),
        )


def test_a_resend_is_recognised_after_its_hand_was_corrected(table, sheet):
    hand = sheets.hand_record(table=table, entry=entry(), entry_id="phone-1", context=ChangeContext(version=0))
    sheets.hand_update(hand=hand, entry=entry(books=11), context=ChangeContext(version=1))
    again = sheets.hand_record(table=table, entry=entry(), entry_id="phone-1", context=ChangeContext(version=0))
    assert again.pk == hand.pk and again.books == 11 and table.hands.count() == 1


def test_a_refused_save_never_shows_an_earlier_success_as_its_own(client, table):
    saved = client.post(url("table_hand_add", table), {**hand_fields(0), "hand-confirm": "on"})
    assert saved.status_code == 302, "saved; the page it leads to never arrives"
    stale = client.post(url("table_hand_add", table), {**hand_fields(0, dealer="E"), "hand-confirm": "on"})
    page = text_of(client.get(stale.url))
    assert "changed on another device" in page
    assert "Hand 1 saved" not in page
    assert table.hands.count() == 1


def test_a_refused_queue_entry_never_shows_an_earlier_success_as_its_own(client, table):
    sync(client, table, "first", 0)
    status, _ = sync(client, table, "late", 0, dealer="E")
    assert status == 409
    page = text_of(client.get(url("table", table)))
    assert "Hand 1 saved" not in page


def test_the_phones_background_refresh_leaves_the_scorekeepers_message_for_their_page(client, table):
    """The service worker asks again for kept pages on its own; a refusal said meanwhile waits for the page the
    scorekeeper sees (a refresh that took it would leave them with no word of what happened)."""
    address = reverse("table", args=[table.secret])
    team = table.team_at("NS")
    client.post(
        f"{address}sign/",
        {
            "sign-NS-version": table.version,
            "sign-NS-pair": "NS",
            "sign-NS-player": team.members[0].player.pk,
            "sign-NS-code": team.code,
        },
    )
    refreshed = client.get(address, HTTP_OFFLINE_REFRESH="1").content.decode()
    assert "message-error" not in refreshed
    assert "message-error" in client.get(address).content.decode()
