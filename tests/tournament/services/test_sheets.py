import io

import pytest
from django.core.management import call_command

from scoring import RuleSet
from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import Hand, LogEntry, Penalty, Round, Table
from tournament.services import sheets
from tournament.services.events import tournament_rules_set
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry, StaleSheet


def players(table, pair):
    return [member.player for member in table.team_at(pair).members]


def refused(call, field=None, match=None):
    with pytest.raises(ServiceError, match=match) as error:
        call()
    assert error.value.field == field, error.value.message
    return error.value


def test_a_hand_is_scored_and_stored(table, sheet):
    hand = sheet.hand(table, "N", "E", 3, "low", 12)
    table.refresh_from_db()
    assert (hand.hand_number, hand.counts, hand.made) == (1, True, True)
    assert (hand.ns_points, hand.ew_points) == (0, 6)
    assert (table.ns_total, table.ew_total, table.hands_played, table.complete) == (0, 6, 1, False)
    assert table.first_dealer == "N", "the first hand's dealer is the first dealer"
    assert hand.bid_text == "3 Downtown ♥"


def test_a_full_round_is_complete_with_its_totals(table, sheet):
    table = sheet.full_round(table)
    assert (table.ns_total, table.ew_total, table.hands_played, table.complete) == (3, 10, 4, True)
    assert table.winner_pair == "EW"
    assert [h.ew_total for h in table.hands.order_by("sequence")] == [0, 4, 6, 10]


def test_every_change_is_in_the_history_with_the_version(table, sheet):
    sheet.hand(table, "N", "E", 3, "high", 9)
    sheet.penalty(table, kind="play_out_of_turn", team="NS", hand=table.hands.get())
    changes = list(table.changes.order_by("version"))
    assert [change.action for change in changes] == [LogEntry.Action.HAND_ADDED, LogEntry.Action.PENALTY_ADDED]
    assert [change.version for change in changes] == [1, 2]
    assert changes[0].summary == "Hand 1: 3 Uptown ♥ by East, 9 books"
    assert changes[0].after["books"] == 9


def test_the_first_dealer_and_the_proposals_clockwise(table, sheet):
    sheets.table_first_dealer_set(table=table, seat="W", context=ChangeContext(version=0))
    table.refresh_from_db()
    assert (table.next_dealer, table.next_hand_number) == ("W", 1)
    sheet.hand(table, "W", "N", 2, "high", 8)
    table.refresh_from_db()
    assert (table.next_dealer, table.next_hand_number) == ("N", 2)


@pytest.mark.parametrize(
    ("entry", "field", "message"),
    [
        (HandEntry("N", "E", 3, "high", 14, "spades"), "books", "0 to 13"),
        (HandEntry("N", "E", 3, "high", 9, "stars"), "suit", "Choose a trump suit"),
        (HandEntry("N", "E", 3, "nt", 9, "spades"), "suit", "no trump suit"),
        (HandEntry("N", "E", 3, "high", 9, "spades", "down"), "direction", "Only a no-trump"),
        (HandEntry("X", "E", 3, "high", 9, "spades"), "dealer", "Choose a seat"),
        (HandEntry("N", "E", 3, "sideways", 9, "spades"), "kind", None),
    ],
)
def test_bad_entries_are_refused_beside_their_field(table, entry, field, message):
    refused(lambda: sheets.hand_record(table=table, entry=entry, context=ChangeContext(version=0)), field, message)
    assert not table.hands.exists()


def test_a_bid_below_the_minimum_is_refused(tournament, make_teams):

    tournament_rules_set(tournament=tournament, rules=RuleSet.preset("kitty"))
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    entry = HandEntry("N", "E", 2, "high", 9, "spades")
    refused(
        lambda: sheets.hand_record(table=table, entry=entry, context=ChangeContext(version=0)),
        "level",
        "minimum bid is 3",
    )
    zero = HandEntry("N", "E", 3, "high", 0, "spades")
    refused(lambda: sheets.hand_record(table=table, entry=zero, context=ChangeContext(version=0)), "books", "1 to 13")


def test_a_third_deal_by_one_team_is_refused_beside_the_dealer(table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "S", "N", 3, "high", 9, out_of_turn=True)
    refused(lambda: sheet.hand(table, "N", "E", 3, "high", 9), "dealer", "North–South have already dealt 2 times")
    assert table.hands.count() == 2
    third = sheet.hand(table, "N", "E", 3, "high", 9, out_of_turn=True)
    assert third.hand_number == 3, "marked dealt out of turn after bidding began, it stands"
    assert third.penalties.get().description == "Deal out of turn by North–South, the hand stands"


def test_a_trump_bid_needs_no_suit(table, sheet):
    hand = sheet.hand(table, "N", "E", 3, "high", 9, suit="")
    assert hand.suit == "" and hand.bid_text == "3 Uptown" and (hand.ns_points, hand.ew_points) == (0, 3)


def test_a_dealer_out_of_rotation_is_refused_unless_marked(table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    refused(lambda: sheet.hand(table, "W", "E", 3, "high", 9), "dealer", "Hand 2 is dealt by East")
    hand = sheet.hand(table, "W", "E", 3, "high", 9, out_of_turn=True)
    table.refresh_from_db()
    assert table.next_dealer == "N", "the rotation carries on clockwise from West"
    sheets.hand_update(
        hand=hand,
        entry=HandEntry("E", "E", 3, "high", 9, "hearts"),
        context=ChangeContext(version=sheet.version(table)),
    )
    assert not hand.penalties.exists(), "an edit that puts the right dealer takes the mark away"


def test_a_hand_after_the_last_is_refused(table, sheet):
    table = sheet.full_round(table)
    refused(lambda: sheet.hand(table, "N", "E", 3, "high", 9), None, "round is over")
    refused(lambda: sheet.redeal(table, "N"), None, "round is over")
    assert table.hands.count() == 4


def test_re_deals_do_not_count_and_the_same_hand_is_dealt_again(table, sheet):
    sheet.hand(table, "N", "E", 3, "high", 9)
    misdeal = sheet.redeal(table, "E")
    out_of_turn = sheet.redeal(table, "S", reason="deal_out_of_turn", team="NS")
    bid_out_of_turn = sheet.redeal(table, "E", reason="bid_out_of_turn", team="EW")
    for redeal in (misdeal, out_of_turn, bid_out_of_turn):
        redeal.refresh_from_db()
        assert (redeal.hand_number, redeal.counts, redeal.ns_points, redeal.ew_points) == (2, False, 0, 0)
    second = sheet.hand(table, "E", "N", 3, "high", 9)
    assert second.hand_number == 2
    assert Penalty.objects.filter(hand=bid_out_of_turn, choice="redeal").exists()
    refused(lambda: sheet.redeal(table, "S", reason="bid_out_of_turn"), "team", "team that was out of turn")


def test_editing_a_hand_rescores_everything_after_it(table, sheet):
    table = sheet.full_round(table)
    first = table.hands.get(sequence=1)
    entry = HandEntry("N", "N", 3, "high", 12, "clubs")
    sheets.hand_update(hand=first, entry=entry, context=ChangeContext(version=sheet.version(table)))
    table.refresh_from_db()
    assert (table.ns_total, table.ew_total) == (6, 10)
    assert [h.ns_total for h in table.hands.order_by("sequence")] == [6, 6, 6, 6]
    change = table.changes.order_by("-version").first()
    assert change.action == LogEntry.Action.HAND_CHANGED
    assert change.before["books"] == 9 and change.after["books"] == 12


def test_an_edit_the_rules_refuse_changes_nothing(table, sheet):
    table = sheet.full_round(table)
    second = table.hands.get(sequence=2)
    entry = HandEntry("N", "E", 4, "low", 10, "hearts")  # North would deal a third time
    refused(
        lambda: sheets.hand_update(hand=second, entry=entry, context=ChangeContext(version=sheet.version(table))),
        "dealer",
    )
    second.refresh_from_db()
    assert second.dealer == "E"


def test_removing_a_hand_moves_the_later_ones_up(table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.redeal(table, "E")
    sheet.hand(table, "E", "E", 4, "low", 10)
    sheets.hand_remove(hand=table.hands.get(sequence=2), context=ChangeContext(version=sheet.version(table)))
    assert list(table.hands.order_by("sequence").values_list("sequence", "hand_number", "counts")) == [
        (1, 1, True),
        (2, 2, True),
    ]


def test_a_renege_moves_books_before_scoring(table, sheet):
    hand = sheet.hand(table, "N", "E", 3, "high", 9)
    sheet.penalty(table, kind="renege", team="EW", hand=hand)
    hand.refresh_from_db()
    assert (hand.books_after_penalties, hand.made, hand.ns_points, hand.ew_points) == (6, False, 4, 0)
    sheet.penalty(table, kind="renege", team="NS", hand=hand, count=2)
    hand.refresh_from_db()
    assert (hand.books_after_penalties, hand.ns_points, hand.ew_points) == (12, 0, 6)


def test_bid_out_of_turn_take_points_or_continue(table, sheet):
    hand = sheet.hand(table, "N", "N", 3, "high", 9)
    taken = sheet.penalty(table, kind="bid_out_of_turn", team="EW", hand=hand, choice="take_points")
    hand.refresh_from_db()
    assert (taken.ns_points, hand.ns_points) == (3, 6)
    sheet.penalty(table, kind="bid_out_of_turn", team="EW", hand=hand, choice="continue")
    hand.refresh_from_db()
    assert hand.ns_points == 6
    refused(
        lambda: sheet.penalty(table, kind="bid_out_of_turn", team="EW", hand=hand, choice="redeal"),
        "choice",
        "recorded as a re-deal",
    )
    refused(lambda: sheet.penalty(table, kind="bid_out_of_turn", team="EW", hand=hand), "choice")


def test_play_out_of_turn_gives_the_opponents_the_rule_sets_points(table, sheet):
    hand = sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.penalty(table, kind="play_out_of_turn", team="NS", hand=hand)
    table.refresh_from_db()
    assert (table.ns_total, table.ew_total) == (3, 3)


def test_exposed_card_is_a_warning_first_then_points(table, sheet):
    first = sheet.hand(table, "N", "N", 3, "high", 9)
    warning = sheet.penalty(table, kind="exposed_card", team="EW", hand=first)
    assert warning.warning and (warning.ns_points, warning.ew_points) == (0, 0)
    second = sheet.hand(table, "E", "N", 3, "high", 9)
    again = sheet.penalty(table, kind="exposed_card", team="EW", hand=second)
    assert not again.warning and again.ns_points == 3
    sheets.penalty_remove(penalty=warning, context=ChangeContext(version=sheet.version(table)))
    again.refresh_from_db()
    assert again.warning and again.ns_points == 0, "removing the first makes the next one the warning"


def test_a_deal_out_of_turn_after_bidding_stands_and_scores_nothing(table, sheet):
    hand = sheet.hand(table, "N", "N", 3, "high", 9)
    penalty = sheet.penalty(table, kind="deal_out_of_turn", team="NS", hand=hand)
    hand.refresh_from_db()
    assert hand.counts and (penalty.ns_points, penalty.ew_points) == (0, 0)


def test_rulings_are_for_staff_with_a_written_reason(table, sheet, director):
    refused(lambda: sheet.penalty(table, kind="director_ruling", team="NS", points=2, reason="Slow play"), "kind")
    refused(lambda: sheet.penalty(table, kind="director_ruling", team="NS", points=2, user=director), "reason")
    ruling = sheet.penalty(table, kind="director_ruling", team="EW", points=-2, reason="Slow play", user=director)
    table.refresh_from_db()
    assert ruling.hand is None and table.ew_total == -2
    refused(
        lambda: sheets.penalty_remove(penalty=ruling, context=ChangeContext(version=sheet.version(table))),
        None,
        "undo a ruling",
    )
    sheets.penalty_remove(
        penalty=ruling, context=ChangeContext(version=sheet.version(table), actor=Actor.staff(director))
    )
    table.refresh_from_db()
    assert table.ew_total == 0


def test_a_penalty_needs_its_hand_and_a_re_deal_has_no_renege(table, sheet):
    refused(lambda: sheet.penalty(table, kind="renege", team="NS"), "hand")
    redeal = sheet.redeal(table, "N")
    refused(lambda: sheet.penalty(table, kind="renege", team="NS", hand=redeal), None, "not played")
    assert not Penalty.objects.exists()


def test_the_penalty_behind_a_re_deal_goes_with_the_re_deal(table, sheet):
    redeal = sheet.redeal(table, "N", reason="deal_out_of_turn", team="EW")
    penalty = redeal.penalties.get()
    refused(
        lambda: sheets.penalty_remove(penalty=penalty, context=ChangeContext(version=sheet.version(table))),
        None,
        "remove the re-deal",
    )
    sheets.hand_remove(hand=redeal, context=ChangeContext(version=sheet.version(table)))
    assert not Penalty.objects.exists() and not table.hands.exists()


def test_signing_locks_the_sheet_once_both_teams_sign(table, sheet):
    ns, ew = players(table, "NS"), players(table, "EW")
    sheet.hand(table, "N", "N", 3, "high", 9)
    refused(lambda: sheet.sign(table, "NS", ns[0]), None, "once every hand of the round is entered")
    sheet.hand(table, "E", "E", 4, "low", 10)
    sheet.hand(table, "S", "S", 2, "high", 7)
    sheet.hand(table, "W", "W", 1, "nt", 8)
    refused(lambda: sheet.sign(table, "NS", ew[0]), "player", "does not play for North–South")
    sheet.sign(table, "NS", ns[1])
    table.refresh_from_db()
    assert not table.signed
    refused(lambda: sheet.sign(table, "NS", ns[0]), "pair", "have signed already")
    sheet.sign(table, "EW", ew[0])
    table.refresh_from_db()
    assert table.signed
    assert table.changes.order_by("-version").first().summary.endswith("both teams signed, the sheet is locked")


def test_a_change_after_one_team_signed_voids_that_signature(table, sheet):
    table = sheet.full_round(table)
    sheet.sign(table, "NS", players(table, "NS")[0])
    sheet.penalty(table, kind="play_out_of_turn", team="NS", hand=table.hands.get(sequence=4))
    assert not table.signatures.exists()
    assert table.changes.filter(action=LogEntry.Action.SIGNATURES_CLEARED).exists()


def test_a_signed_sheet_is_locked_for_the_table_and_corrected_by_staff_with_a_reason(
    table, sheet, scorekeeper, player_user
):
    table = sheet.full_round(table)
    sheet.sign(table, "NS", players(table, "NS")[0])
    sheet.sign(table, "EW", players(table, "EW")[0])
    first = table.hands.get(sequence=1)
    entry = HandEntry("N", "N", 3, "high", 10, "spades")
    for user in (None, player_user):
        refused(
            lambda user=user: sheets.hand_update(
                hand=first,
                entry=entry,
                context=sheet.context(table, user=user, reason="typo"),
            ),
            None,
            "signed and locked",
        )
        refused(lambda user=user: sheet.penalty(table, kind="play_out_of_turn", team="NS", hand=first, user=user))
    refused(
        lambda: sheets.hand_update(
            hand=first, entry=entry, context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper))
        ),
        "reason",
    )
    sheets.hand_update(
        hand=first,
        entry=entry,
        context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper), reason="10 books, not 9"),
    )
    table.refresh_from_db()
    assert table.signed and (table.ns_total, table.ew_total) == (4, 10)
    change = table.changes.order_by("-version").first()
    assert change.correction and change.actor_name == scorekeeper.username and change.reason == "10 books, not 9"
    assert (change.before["books"], change.after["books"]) == (9, 10)
    assert table.signatures.count() == 2, "a correction keeps the signatures"


def test_a_save_from_an_out_of_date_view_is_refused_and_says_what_changed(table, sheet):
    sheet.hand(table, "N", "E", 3, "high", 9)
    stale_version = 0
    entry = HandEntry("N", "E", 4, "high", 10, "spades")
    with pytest.raises(StaleSheet, match=r"Hand 1: 3 Uptown ♥ by East, 9 books \(table link\)"):
        sheets.hand_record(table=table, entry=entry, context=ChangeContext(version=stale_version))
    assert table.hands.count() == 1


def test_a_playoff_match_tied_after_four_hands_goes_on(table, sheet):
    Round.objects.filter(pk=table.round_id).update(kind=Round.Kind.PLAYOFF)
    table.refresh_from_db()
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 3, "high", 9)
    sheet.hand(table, "S", "S", 1, "high", 7)
    sheet.hand(table, "W", "W", 1, "high", 7)
    table.refresh_from_db()
    assert not table.complete and table.ns_total == table.ew_total == 4
    fifth = sheet.hand(table, "N", "E", 2, "high", 8)
    table.refresh_from_db()
    assert fifth.hand_number == 5 and table.complete and table.winner_pair == "EW"


def test_recompute_scores_rebuilds_and_reports_what_differed(table, sheet, tournament):
    table = sheet.full_round(table)
    Hand.objects.filter(table=table, sequence=2).update(ew_points=99)
    Table.objects.filter(pk=table.pk).update(ew_total=0)
    out = io.StringIO()
    call_command("recompute_scores", tournament.slug, stdout=out)
    text = out.getvalue()
    assert "ew_points: 99 → 4" in text and "ew_total: 0 → 10" in text
    assert "1 had stored scores that differed" in text
    table.refresh_from_db()
    assert table.ew_total == 10 and table.hands.get(sequence=2).ew_points == 4
    rescored = table.changes.get(action=LogEntry.Action.RESCORED)
    assert rescored.who == "recompute_scores" and "2 value(s) differed" in rescored.summary
    out = io.StringIO()
    call_command("recompute_scores", stdout=out)
    assert "0 had stored scores that differed" in out.getvalue()
    assert table.changes.filter(action=LogEntry.Action.RESCORED).count() == 1, "nothing to report, nothing logged"


def test_a_dispute_stops_signing_until_staff_settle_it(table, sheet, scorekeeper):
    table = sheet.full_round(table)
    ns_player = players(table, "NS")[0]
    sheet.sign(table, "NS", ns_player)
    refused(
        lambda: sheets.sheet_dispute(
            table=table, pair="EW", note="  ", context=ChangeContext(version=sheet.version(table))
        ),
        "note",
    )
    sheets.sheet_dispute(
        table=table, pair="EW", note="Hand 3 was 8 books", context=ChangeContext(version=sheet.version(table))
    )
    table.refresh_from_db()
    assert table.disputed_at is not None and table.dispute_note == "East–West: Hand 3 was 8 books"
    assert not table.signatures.exists(), "a dispute voids a signature already given"
    refused(lambda: sheet.sign(table, "NS", ns_player), None, "signed once the dispute is settled")
    refused(
        lambda: sheets.sheet_dispute_resolve(
            table=table, context=ChangeContext(version=sheet.version(table), reason="ok")
        ),
        None,
        "Only the tournament director or scorekeeper",
    )
    sheets.sheet_dispute_resolve(
        table=table,
        context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper), reason="Counted: 7 books"),
    )
    sheet.sign(table, "NS", ns_player)
    sheet.sign(table, "EW", players(table, "EW")[0])
    table.refresh_from_db()
    assert table.signed and table.disputed_at is None
    actions = list(table.changes.values_list("action", flat=True))
    assert LogEntry.Action.DISPUTED in actions and LogEntry.Action.DISPUTE_RESOLVED in actions


def test_removing_a_middle_hand_that_would_put_a_later_one_out_of_turn_says_so(table, sheet):
    for dealer in ("N", "E", "S"):
        sheet.hand(table, dealer, dealer, 3, "high", 9)
    hand_2 = table.hands.get(sequence=2)
    with pytest.raises(ServiceError) as refused:
        sheets.hand_remove(hand=hand_2, context=ChangeContext(version=sheet.version(table)))
    said = refused.value.message
    assert said.startswith("Removing hand 2 moves the later hands up, and then: Hand 2 is dealt by East")
    assert said.endswith("Edit or remove the later hands first.")
    assert [hand.dealer for hand in table.hands.order_by("sequence")] == ["N", "E", "S"], "nothing removed"
