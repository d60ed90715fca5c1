"""The archive's money: what the desk could never have booked (a refund above what was paid, prizes above what
their pot holds, a side-pot prize to a team not in it) refuses the file at its place, and nothing is written."""

from decimal import Decimal

import pytest

from tests.tournament.services.archive.test_round_trip import full_event  # noqa: F401 (fixture)
from tests.tournament.services.archive.test_schema import archive, refused  # noqa: F401 (fixture)
from tournament.models import Payment, Payout
from tournament.services.archive import event_import

MONEY = ("tournaments", 0, "money")


def payment(team: int, amount: str, pot: str = "entry", *, refund: bool = False) -> dict:
    kind = Payment.Kind.REFUND if refund else Payment.Kind.RECEIVED
    reason = "Left before round 1" if refund else ""
    return {"team": team, "kind": kind, "pot": pot, "amount": amount, "method": "cash", "reason": reason}


def prize(team: int, amount: str, pot: str = "entry", place: str = "1") -> dict:
    return {"team": team, "pot": pot, "place": place, "amount": amount}


@pytest.fixture
def with_money(archive):  # noqa: F811
    """Fees of 20.00 and a side pot of 5.00 with a 10% house share: teams 1 to 4 paid, team 3 in the side pot,
    team 4 refunded 5.00; team 1 won 40.00 of the 67.50 the entry fees hold (75.00 less 7.50), team 3 the side
    pot's 5.00."""
    archive["tournaments"][0]["teams"][2]["side_pot"] = True
    archive["tournaments"][0]["money"].update(
        entry_fee="20.00",
        side_pot_fee="5.00",
        house_percent="10.00",
        payments=[
            *(payment(team, "20.00") for team in (1, 2, 3, 4)),
            payment(3, "5.00", "side_pot"),
            payment(4, "5.00", refund=True),
        ],
        payouts=[prize(1, "40.00"), prize(3, "5.00", "side_pot")],
    )
    return archive


def money_of(data) -> dict:
    return data["tournaments"][0]["money"]


def test_money_the_desk_could_book_is_imported(with_money):
    event = event_import(data=with_money)
    assert Payment.objects.filter(tournament__event=event).count() == 6
    assert {(p.team.number, p.pot, p.amount) for p in Payout.objects.all()} == {
        (1, "entry", Decimal("40.00")),
        (3, "side_pot", Decimal("5.00")),
    }


def test_a_money_setting_the_archive_does_not_have_is_its_default(with_money):
    """An archive written before a setting was declared reads it as the setting's default."""
    del money_of(with_money)["payout_percents"]
    event = event_import(data=with_money)
    assert event.tournaments.order_by("pk").first().payout_percents == "50, 30, 20"


def test_a_refund_above_what_the_team_paid_is_refused(with_money):
    money_of(with_money)["payments"].append(payment(2, "20.01", refund=True))
    assert refused(with_money) == (
        "tournaments[0].money.payments[6].amount: a refund of 20.01 to team 2, which has paid 20.00 into the entry "
        "fee by then"
    )


def test_a_refund_before_the_payment_it_hands_back_is_refused(with_money):
    money_of(with_money)["payments"].insert(0, payment(1, "5.00", refund=True))
    assert "payments[0].amount: a refund of 5.00 to team 1, which has paid 0.00" in refused(with_money)


def test_a_refund_from_a_pot_the_team_never_paid_into_is_refused(with_money):
    money_of(with_money)["payments"].append(payment(1, "5.00", "side_pot", refund=True))
    assert "payments[6].amount: a refund of 5.00 to team 1, which has paid 0.00 into the side pot" in refused(
        with_money
    )


def test_a_prize_of_99_999_999_99_is_refused(with_money):
    money_of(with_money)["payouts"][0]["amount"] = "99999999.99"
    assert refused(with_money) == (
        "tournaments[0].money.payouts[0].amount: the prizes paid from the entry fees (less the house's share) come "
        "to 99999999.99, more than the 67.50 it holds"
    )


def test_prizes_adding_up_to_more_than_the_pot_are_refused(with_money):
    money_of(with_money)["payouts"].append(prize(2, "27.51", place="2"))
    assert "payouts[2].amount: the prizes paid from the entry fees (less the house's share) come to 67.51" in (
        refused(with_money)
    )


def test_a_side_pot_prize_to_a_team_not_in_the_side_pot_is_refused(with_money):
    money_of(with_money)["payouts"].append(prize(2, "1.00", "side_pot", place="2"))
    said = "tournaments[0].money.payouts[2].team: team 2 is not in the side pot: no prize from it"
    assert refused(with_money) == said


def test_a_side_pot_prize_above_the_side_pot_is_refused(with_money):
    money_of(with_money)["payouts"][1]["amount"] = "5.01"
    assert "payouts[1].amount: the prizes paid from the side pot come to 5.01, more than the 5.00 it holds" in (
        refused(with_money)
    )
