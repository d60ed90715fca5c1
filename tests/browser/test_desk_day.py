"""The desk's day at 1280×800, as a director lives it on a laptop: the fees and a side pot, a room of teams checked
in at once (one undone: not here after all, checked in when it comes), twelve payments (one booked on the wrong
team's card and moved, one tapped twice on a slow network), a late team, the payout sheet, every prize paid, one
undone and paid again. After every step the desk balances: its totals are the sum of the teams' accounts it shows
and of the records, and the payout sheet's desk holds exactly what it still has to pay.

Actions (clicks, choices and submits; typing is not counted), step by step, now and before the desk's money could be
corrected (5dd0e14):

| step | now | before |
| --- | --- | --- |
| money settings, then the desk | 2 | 2 |
| a room checked in, one undone, later checked in | 3: all at once, undo one, one | 12: one per team |
| four teams into the side pot | 4 | 4 |
| twelve payments | 16: twelve *Record payment*, one tapped twice, a payment moved (3) | 22 (below) |
| a late team registered and paid | 3 | 3 |
| the payout sheet | 1 | 1 |
| eleven prizes paid | 22: *Pay*, then confirm | 11: one tap, nothing to confirm |
| a prize undone and paid again | 4 | impossible: the sheet stayed wrong |
| the day | 55 | 55, and the day ended wrong |

Before, a side-pot team's payment pre-filled with the whole 50.00 went "For: Entry fee" ("owes 10.00"): booking it
right took 2 actions (type 40, save, then save the side pot's 10), 4 more for four teams, or the repair by a refund
that never happened (5 actions each). The payment booked on the wrong card took a refund that never happened (open,
save) and the payment again: 3 actions, as the move's 3, but the desk then showed 40.00 "refunded" that it never
handed back. The double tap stored the payment twice; its repair was a refund that never happened (open, save).

Steps are methods of ``DeskDay`` and counted by ``day.step``, each with its count now and before.
"""

import re
import time
from contextlib import contextmanager
from decimal import Decimal

import pytest

from tournament.models import Payment, Payout, Team
from tournament.selectors.money import desk_money, payout_sheet
from tournament.services import money
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import tournament_create
from tournament.services.teams import PlayerEntry, team_register

LAPTOP = {"width": 1280, "height": 800}
D = Decimal
ACTIONS_NOW, ACTIONS_BEFORE = 55, 55


def amounts(text: str, label: str) -> Decimal:
    return D(re.search(rf"{label}\s+(-?[0-9]+\.[0-9]{{2}})", text).group(1))


class DeskDay:
    """The director's laptop and the count of actions taken on it."""

    def __init__(self, page, tournament):
        self.page, self.tournament, self.actions = page, tournament, 0
        self.counts: list[tuple[str, int, int | None]] = []  # each step: its actions now and before (None: impossible)

    @contextmanager
    def step(self, name: str, *, before: int | None):
        start = self.actions
        yield
        self.counts.append((name, self.actions - start, before))

    def tap(self, locator) -> None:
        self.actions += 1
        locator.click()

    def submit(self, locator) -> None:
        self.actions += 1
        with self.page.expect_navigation():
            locator.click()

    def choose(self, locator, value: str) -> None:
        self.actions += 1
        locator.select_option(value)

    def card(self, number: int):
        return self.page.locator(f"#team-{number}")

    def said(self, text: str) -> None:
        self.page.get_by_text(text).first.wait_for()

    # What the desk must show after every step.
    def desk_balances(self) -> None:
        """The desk's totals are the sum of the accounts on its cards, and of the records."""
        page = self.page
        shown = page.locator("#desk-money").inner_text()
        received, outstanding = amounts(shown, "Received"), amounts(shown, "Outstanding")
        expected = amounts(shown, "Expected")
        refunded = D(re.search(r"\(([0-9.]+) refunded\)", shown).group(1)) if "refunded)" in shown else D(0)
        net = owed = due = D(0)
        for card in page.locator(".desk-money > p:first-child").all_inner_texts():
            found = re.search(r"Paid ([0-9.]+) of ([0-9.]+)(?: · side pot ([0-9.]+) of ([0-9.]+))?", card)
            entry, entry_due, side, side_due = (D(value or 0) for value in found.groups())
            net += entry + side
            due += entry_due + side_due
            owed += max(D(0), entry_due - entry) + max(D(0), side_due - side)
        assert (received - refunded, expected, outstanding) == (net, due, owed), shown
        self.tournament.refresh_from_db()
        desk = desk_money(self.tournament)
        assert (desk.received, desk.refunded, desk.outstanding) == (received, refunded, outstanding)
        live = Payment.objects.filter(tournament=self.tournament, voided_at__isnull=True)
        assert received == sum((p.amount for p in live if p.kind == "received"), D(0))

    def sheet_balances(self) -> None:
        """The payout sheet's desk: it should hold fees in less refunds and the prizes paid, the house's share still
        in the box, and that is the house's share and what it still has to pay."""
        shown = self.page.locator("#balance").inner_text()
        held = amounts(shown, "The desk should hold")
        parts = [amounts(shown, label) for label in ("Fees received", "Refunded", "Prizes paid")]
        house = amounts(shown, "Of which the house's share")
        assert held == parts[0] - parts[1] - parts[2], shown
        assert held == house + amounts(shown, "Prizes still to pay"), "the house's share and what is still to pay"
        sheet = payout_sheet(self.tournament)
        assert (sheet.held, sheet.house, sheet.paid_out, sheet.difference) == (held, house, parts[2], D(0))

    # The day's steps.
    def money_settings(self) -> None:
        page = self.page
        page.goto(f"/manage/t/{self.tournament.slug}/money/")
        page.get_by_label("Entry fee per team").fill("40")
        page.get_by_label("Side-pot fee per team").fill("10")
        page.get_by_label("House's share of the entry fees (%)").fill("10")
        self.submit(page.get_by_role("button", name="Save"))
        self.submit(page.get_by_role("link", name="Registration desk"))
        self.desk_balances()

    def check_in_the_room(self) -> None:
        """Every team listed checked in at once; #12, not here after all, undone."""
        self.submit(self.page.get_by_role("button", name="Check in all 12 listed"))
        self.said("12 team(s) checked in")
        self.submit(self.card(12).get_by_role("button", name="Undo check-in"))
        assert list(self.tournament.teams.filter(checked_in=False).values_list("number", flat=True)) == [12]
        self.desk_balances()

    def check_in(self, number: int) -> None:
        self.submit(self.card(number).get_by_role("button", name="Check in", exact=True))
        assert self.tournament.teams.get(number=number).checked_in

    def side_pot(self, numbers) -> None:
        for number in numbers:
            self.submit(self.card(number).get_by_role("button", name="Side pot"))
            self.said(f"Team #{number} is in the side pot.")
        self.desk_balances()

    def pay(self, number: int, *, on: int | None = None) -> None:
        """The payment as the form has it, owed amount and all: on team ``on``'s card when booked wrongly."""
        card = self.card(on or number)
        self.submit(card.get_by_role("button", name="Record payment"))
        self.said(f"Team #{on or number}: ")
        self.desk_balances()

    def pay_tapped_twice(self, number: int, monkeypatch) -> None:
        """*Record payment* tapped again while the first tap's payment is still on its way (the server takes a
        second): one payment, and the page says the second tap was the same."""
        record = money.payment_record

        def slowly(**kwargs):
            time.sleep(1)
            return record(**kwargs)

        monkeypatch.setattr(money, "payment_record", slowly)
        self.actions += 2
        self.page.evaluate(
            """(number) => {
              const button = document.querySelector(`#money-${number} form button`);
              button.click();
              setTimeout(() => button.click(), 400);
            }""",
            number,
        )
        self.said("Already recorded (the form was sent twice)")
        monkeypatch.setattr(money, "payment_record", record)
        assert Payment.objects.filter(team__number=number).count() == 1
        self.desk_balances()

    def move(self, payment: Payment, *, to: int) -> None:
        card = self.card(payment.team.number)
        self.tap(card.get_by_text(re.compile(r"^Money history")))
        line = card.locator(f"#payment-{payment.pk}")
        self.tap(line.get_by_text("Move", exact=True))
        line.get_by_label("To team #").fill(str(to))
        line.get_by_label("Why (kept in the log)").last.fill(f"Team #{to}'s money, booked on the wrong card")
        self.submit(line.get_by_role("button", name=f"Move {payment.amount}"))
        self.said(f"moved to team #{to}")
        self.desk_balances()

    def late_team(self) -> int:
        page = self.page
        self.submit(page.get_by_role("link", name="Add a late team"))
        page.get_by_label("First player", exact=True).fill("Late Lou")
        page.get_by_label("Second player", exact=True).fill("Late Liz")
        self.submit(page.get_by_role("button", name="Register team", exact=True))
        number = Team.objects.get(tournament=self.tournament, name="", memberships__player__name="Late Lou").number
        self.said(f"Team #{number} Late Lou")
        self.desk_balances()
        return number

    def payout_sheet(self) -> None:
        self.submit(self.page.get_by_role("link", name="Payout sheet"))
        self.sheet_balances()

    def pay_prize(self, pot: str, number: int) -> None:
        row = self.page.locator(f"#prize-{pot}-{number}")
        amount = row.locator("td.num").last.inner_text()
        self.submit(row.get_by_role("link", name=f"Pay {amount}"))
        self.submit(self.page.get_by_role("button", name=f"Pay {amount}"))
        self.said(f"Team #{number} paid {amount}")
        self.sheet_balances()

    def undo_prize(self, pot: str, number: int) -> None:
        row = self.page.locator(f"#prize-{pot}-{number}")
        self.tap(row.get_by_text("Undo this payment"))
        row.get_by_label("Why (kept in the log)").fill("Handed to the wrong team")
        self.submit(row.get_by_role("button", name="Undo: not paid"))
        self.said("is unpaid again")
        self.sheet_balances()


@pytest.fixture
def day(transactional_db, event, director, phone, login):
    """The director's laptop: the browser tests' page at 1280×800, logged in."""
    tournament = tournament_create(event=event, name="Saturday", qualifying_rounds=1)
    for number in range(1, 13):
        players = [PlayerEntry(f"Player {number}a", "Detroit"), PlayerEntry(f"Player {number}b", "Chicago")]
        team_register(tournament=tournament, players=players)
    phone.set_viewport_size(LAPTOP)
    login("director", "pw-for-tests-123")
    phone.wait_for_url(re.compile(r"/manage/"))
    return DeskDay(phone, tournament)


def test_the_desks_day_balances_at_every_step(day, sheet, monkeypatch):
    with day.step("money settings, then the desk", before=2):
        day.money_settings()
    with day.step("a room of teams checked in, one undone, later checked in", before=12):
        day.check_in_the_room()
        day.check_in(12)
    with day.step("four teams into the side pot", before=4):
        day.side_pot([1, 2, 3, 4])
    # Before: 2 for each side-pot team, the wrong card's repair by refund (2) and #5's payment again (1), and the
    # double tap's second payment refunded (2).
    with day.step("twelve payments", before=4 * 2 + 8 + 2 + 1 + 1 + 2):
        for number in range(1, 13):
            if number == 5:
                day.pay(5, on=6)  # #5's money, booked on #6's card
            elif number == 6:
                day.move(Payment.objects.get(team__number=6), to=5)
                day.pay(6)
            elif number == 7:
                day.pay_tapped_twice(7, monkeypatch)
            else:
                day.pay(number)
    assert desk_money(day.tournament).outstanding == 0
    with day.step("a late team registered and paid", before=3):
        day.pay(day.late_team())
    accounts = desk_money(day.tournament).accounts.values()
    assert [(a.team.number, a.side_net) for a in accounts if a.side_net] == [(n, D(10)) for n in (1, 2, 3, 4)]
    assert all(a.outstanding == 0 for a in accounts) and desk_money(day.tournament).received == D(560)

    round_ = round_publish(round=round_draw(tournament=day.tournament, method="random", seed=5))
    for table in round_.tables.order_by("number"):
        sheet.play(table, "NS" if table.number % 2 else "EW")
    with day.step("the payout sheet", before=1):
        day.payout_sheet()
    lines = [(line.pot, line.team.number) for line in payout_sheet(day.tournament).lines]
    with day.step(f"{len(lines)} prizes paid", before=len(lines)):
        for pot, number in lines:
            day.pay_prize(pot, number)
    assert payout_sheet(day.tournament).balanced
    with day.step("a prize undone and paid again", before=None):
        day.undo_prize(*lines[0])
        day.pay_prize(*lines[0])
    assert payout_sheet(day.tournament).balanced and Payout.objects.count() == len(lines)

    for name, now, before in day.counts:
        print(f"{name}: {now} actions (before: {'impossible' if before is None else before})")
    before = sum(count for _, _, count in day.counts if count is not None)
    print(f"The desk's day: {day.actions} actions (before: {before}, and the day ended wrong).")
    assert (day.actions, before) == (ACTIONS_NOW, ACTIONS_BEFORE), "the counts in the docstring"
