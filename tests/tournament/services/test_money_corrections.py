"""Money at the desk corrected: a payment booked where it is owed, voided or moved; a prize undone and paid again; a
refund after the prizes; "fee paid" as the amounts say; a prize's hand-over signed at the desk."""

from decimal import Decimal

import pytest

from tests.tournament.services.test_money import finished, settings  # noqa: F401 (fixture)
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.errors import ServiceError
from tournament.models import LogEntry, Payment, Payout
from tournament.selectors.money import desk_money, payout_sheet
from tournament.services.money import (
    payment_book,
    payment_move,
    payment_record,
    payment_void,
    payments_said,
    payout_hand_over,
    payout_pay,
    payout_undo,
    refund_record,
)
from tournament.services.teams import team_desk_update, teams_import_csv

D = Decimal


@pytest.fixture
def desk(tournament, make_teams):
    """Fee 100, side pot 20; #1 and #2 in the side pot, #3 not."""
    settings(tournament)
    teams = make_teams(tournament, 3)
    for team in teams[:2]:
        team_desk_update(team=team, side_pot=True)
    return teams


def account(team):
    team.refresh_from_db()
    return desk_money(team.tournament, [team]).accounts[team.pk]


def test_a_side_pot_teams_payment_is_booked_fee_first_then_side_pot(desk):
    one, _, three = desk
    assert account(one).owed_booked == "100.00 to the entry fee and 20.00 to the side pot"
    payments = payment_book(team=one, amount="120")
    assert payments_said(payments) == "120.00 received: 100.00 to the entry fee and 20.00 to the side pot"
    paid = account(one)
    assert (paid.entry_net, paid.side_net, paid.outstanding, paid.team.fee_paid) == (D(100), D(20), D(0), True)
    payment_book(team=three, amount="130")
    assert (account(three).entry_net, account(three).side_net) == (D(130), D(0)), "beyond what is owed: the fee"


def test_part_of_what_is_owed_goes_to_the_fee_then_the_rest_to_the_side_pot(desk):
    one = desk[0]
    payment_book(team=one, amount="60")
    assert account(one).owed_booked == "40.00 to the entry fee and 20.00 to the side pot"
    payment_book(team=one, amount="50")
    assert (account(one).entry_net, account(one).side_net, account(one).outstanding) == (D(100), D(10), D(10))


def test_the_director_can_book_to_one_pot_only(desk):
    (payment,) = payment_book(team=desk[0], amount="120", pot="entry")
    assert (payment.pot, account(desk[0]).entry_net, account(desk[0]).outstanding) == ("entry", D(120), D(20))


def test_a_voided_payment_stays_in_the_history_and_counts_nowhere(desk):
    one = desk[0]
    wrong, _ = payment_book(team=one, amount="120")
    with pytest.raises(ServiceError, match="Say why") as refused:
        payment_void(payment=wrong, reason="  ")
    assert refused.value.field == "reason"
    with pytest.raises(ServiceError, match="invisible character"):
        payment_void(payment=wrong, reason="typo\u202e")
    payment_void(payment=wrong, reason="Booked to the wrong team")
    paid = account(one)
    assert (paid.entry_net, paid.side_net, paid.outstanding, paid.team.fee_paid) == (D(0), D(20), D(100), False)
    assert [p.voided_reason for p in paid.history] == ["Booked to the wrong team", ""]
    assert desk_money(one.tournament).received == D(20)
    entry = LogEntry.objects.get(action=LogEntry.Action.PAYMENT_VOIDED)
    assert entry.reason == "Booked to the wrong team" and entry.before["amount"] == "100.00"
    with pytest.raises(ServiceError, match="voided already"):
        payment_void(payment=wrong, reason="again")


def test_a_payment_refunded_in_part_cannot_be_voided_before_its_refund(desk):
    one = desk[0]
    (payment,) = payment_book(team=one, amount="100", pot="entry")
    refund = refund_record(team=one, amount="30", reason="Overpaid")
    with pytest.raises(ServiceError, match="Void the refund first"):
        payment_void(payment=payment, reason="wrong")
    payment_void(payment=refund, reason="Not refunded after all")
    payment_void(payment=payment, reason="wrong")
    assert account(one).received == 0


def test_a_payment_moves_to_the_right_team_and_pot_and_both_accounts_follow(desk):
    one, two, three = desk
    (wrong,) = payment_book(team=one, amount="100", pot="entry")
    moved = payment_move(payment=wrong, team=two, pot="entry", reason="It was #2's money")
    assert (moved.team, moved.pot, moved.amount) == (two, "entry", D(100))
    assert (account(one).entry_net, account(one).team.fee_paid) == (D(0), False)
    assert (account(two).entry_net, account(two).team.fee_paid) == (D(100), True)
    wrong.refresh_from_db()
    assert wrong.voided_reason == "moved to team #2's entry fee: It was #2's money"
    assert LogEntry.objects.filter(action=LogEntry.Action.PAYMENT_MOVED).count() == 2, "on both teams"
    with pytest.raises(ServiceError, match="not in the side pot"):
        payment_move(payment=moved, team=three, pot="side_pot", reason="x")
    (extra,) = payment_book(team=two, amount="20", pot="entry")
    payment_move(payment=extra, pot="side_pot", reason="Meant for the side pot")
    assert (account(two).entry_net, account(two).side_net, account(two).outstanding) == (D(100), D(20), D(0))
    assert desk_money(one.tournament).received == D(120), "a move is not money received twice"


def finished_and_paid(finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    for line in payout_sheet(finished).lines:
        payout_pay(tournament=finished, team=line.team, pot=line.pot)
    assert payout_sheet(finished).balanced
    return finished


def test_a_payment_after_the_prizes_can_be_refunded_and_the_sheet_balances_again(finished, sheet):  # noqa: F811
    tournament = finished_and_paid(finished, sheet)
    four = tournament.teams.get(number=4)
    late = payment_record(team=four, amount="40")
    assert payout_sheet(tournament).difference == D(36), "the pool grew by 36 that the paid sheet cannot pay"
    with pytest.raises(ServiceError, match=r"paid 40\.00 into it since then") as refused:
        refund_record(team=four, amount="50", reason="too much")
    assert refused.value.field == "amount"
    refund_record(team=four, amount="40", reason="Paid twice by mistake")
    assert payout_sheet(tournament).balanced
    with pytest.raises(ServiceError, match="undo the prizes first"):
        refund_record(team=tournament.teams.get(number=3), amount="10", reason="paid before the prizes")
    with pytest.raises(ServiceError, match="undo the prizes first"):
        payment_void(payment=Payment.objects.filter(team__number=3).first(), reason="before the prizes")
    assert late.voided_at is None


def test_a_prize_marked_paid_by_mistake_is_undone_and_paid_again(finished, sheet):  # noqa: F811
    tournament = finished_and_paid(finished, sheet)
    champion = Payout.objects.get(team__number=1, pot="entry")
    with pytest.raises(ServiceError, match="Say why"):
        payout_undo(payout=champion, reason="")
    payout_undo(payout=champion, reason="Paid to the wrong player")
    payouts = payout_sheet(tournament)
    assert (payouts.still_to_pay, payouts.held, payouts.difference) == (D(360), D(440), D(0)), "with the house's 80"
    entry = LogEntry.objects.get(action=LogEntry.Action.PAYOUT_UNDONE)
    assert (entry.reason, entry.before["amount"], entry.before["place"]) == ("Paid to the wrong player", "360.00", "1")
    with pytest.raises(ServiceError, match="undone already"):
        payout_undo(payout=champion, reason="again")
    payout_pay(tournament=tournament, team=champion.team)
    assert payout_sheet(tournament).balanced


def test_the_desk_records_a_hand_over_signed_by_a_player_without_any_code(finished, sheet):  # noqa: F811
    tournament = finished_and_paid(finished, sheet)
    champion = Payout.objects.get(team__number=1, pot="entry")
    with pytest.raises(ServiceError, match="one of its players") as refused:
        payout_hand_over(payout=champion, signed_by="Somebody Else")
    assert refused.value.field == "signed_by"
    player = champion.team.members[0].player.name
    payout_hand_over(payout=champion, signed_by=f"  {player.upper()} ")
    champion.refresh_from_db()
    assert champion.confirmed_on == f"handed over at the desk, signed by {player}"
    with pytest.raises(ServiceError, match="confirmed already"):
        payout_hand_over(payout=champion, signed_by=player)
    assert tournament.payouts.filter(confirmed_at__isnull=False).count() == 1


def test_a_fee_paid_mark_from_before_the_fee_existed_yields_to_the_amounts(tournament, make_teams):
    teams = make_teams(tournament, 3)
    for team in teams:
        team_desk_update(team=team, fee_paid=True)
    payment_record(team=teams[0], amount="100")
    settings(tournament)
    assert list(tournament.teams.order_by("number").values_list("fee_paid", flat=True)) == [True, False, False]
    with pytest.raises(ServiceError, match="paid when the payments say so"):
        team_desk_update(team=teams[1], fee_paid=True)
    teams_import_csv(tournament=tournament, text="player1,player2,fee_paid\nAnn Late,Bo Late,yes\n")
    assert not tournament.teams.get(number=4).fee_paid, "an import cannot say paid when nothing was received"
    settings(tournament, entry_fee="0")
    team_desk_update(team=teams[1], fee_paid=True)
    assert tournament.teams.get(number=2).fee_paid, "without a fee, the mark is the truth"
