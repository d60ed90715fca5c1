"""Prize-giving on phones at 390×844: the director pays the champion from the payout sheet (and confirms), and the
champion confirms receipt on its own phone with its code."""

import pytest

from tests.tournament.services.test_money import finished, settings  # noqa: F401 (fixture)
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.models import Payout


@pytest.fixture
def prize_giving(transactional_db, finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    return finished


def tall_enough(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["height"] >= 44


def test_the_director_pays_and_the_champion_confirms_on_its_phone(prize_giving, director, phone, login, second_phone):
    login("director", "pw-for-tests-123")
    phone.goto(f"/manage/t/{prize_giving.slug}/payouts/")
    pay = phone.get_by_role("link", name="Pay 360.00")
    assert tall_enough(pay)
    pay.click()
    phone.wait_for_selector("text=360.00 for place 1 (prize pool)?")
    assert not Payout.objects.exists(), "Pay confirms first"
    phone.get_by_role("button", name="Pay 360.00").click()
    phone.wait_for_selector("text=Team #1 paid 360.00")
    payout = Payout.objects.get(team__number=1, pot="entry")

    champion = prize_giving.teams.get(number=1)
    second_phone.goto(f"/my/?code={champion.code}")
    second_phone.get_by_role("button", name="Open my team's page").click()
    prize = second_phone.locator("#prizes")
    assert "360.00" in prize.inner_text()
    second_phone.get_by_label("Your team code, to confirm you received it").fill(champion.code.lower())
    button = second_phone.get_by_role("button", name="I received 360.00")
    assert tall_enough(button)
    button.click()
    second_phone.wait_for_selector("text=Receipt confirmed")
    payout.refresh_from_db()
    assert payout.confirmed_at is not None

    phone.reload()
    assert "confirmed on phone" in phone.locator("#prize-entry-1").inner_text()
