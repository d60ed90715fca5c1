"""A second tap on the desk's *Record payment* while the first is still on its way (a slow network, Chromium at
1280×800): one payment, and the page says the second was the same."""

import time

import pytest

from tournament.models import Payment
from tournament.services import money


@pytest.fixture
def desk(transactional_db, tournament, make_teams):
    make_teams(tournament, 2)
    money.money_settings_set(
        tournament=tournament,
        entry_fee="50",
        side_pot_fee="0",
        house_percent="0",
        payout_percents="100",
        side_pot_rule="placing",
    )
    return tournament


@pytest.fixture
def slow_desk(desk, monkeypatch):
    """The desk's server takes a second to record a payment."""
    record = money.payment_record

    def slowly(**kwargs):
        time.sleep(1)
        return record(**kwargs)

    monkeypatch.setattr(money, "payment_record", slowly)
    return desk


def test_a_second_tap_on_record_payment_records_it_once(slow_desk, director, phone, login):
    phone.set_viewport_size({"width": 1280, "height": 800})
    login("director", "pw-for-tests-123")
    phone.goto(f"/manage/t/{slow_desk.slug}/desk/")
    phone.locator("#pay-amount-1").fill("50")
    # The second tap lands while the first post is being recorded: the browser drops the first answer.
    phone.evaluate(
        """() => {
          const button = document.querySelector("#money-1 form button");
          button.click();
          setTimeout(() => button.click(), 400);
        }"""
    )
    phone.wait_for_selector("text=Already recorded (the form was sent twice)")
    assert "Paid 50.00 of 50.00" in phone.locator("#money-1").inner_text()
    assert Payment.objects.filter(team__number=1).count() == 1
