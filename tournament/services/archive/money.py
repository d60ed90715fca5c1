"""The archive's money: a tournament's settings, payments, refunds and prizes paid (schema ``MoneyData``).

Each part is read from its record and written back field for field, as the schema declares them.
"""

from collections.abc import Callable
from decimal import Decimal
from typing import Any, TypeVar

from scoring import ScoringError
from scoring.money import MONEY_SETTINGS, amount_check, money_setting_check, prize_pool
from tournament.models import Payment, Payout, Pot, Team, Tournament
from tournament.services.archive.schema import MoneyData, MoneyRecords
from tournament.services.archive.sheets import refuse, set_times
from tournament.services.money import fees_settle

ZERO = Decimal("0.00")


T = TypeVar("T")
# A team of the tournament by its number in the archive, refused at the place given when there is none.
TeamLookup = Callable[[int, str], Team]


def money_export(tournament: Tournament) -> dict:
    payments = tournament.payments.select_related("team").order_by("created_at", "pk")
    payouts = tournament.payouts.select_related("team").order_by("paid_at", "pk")
    data = {name: getattr(tournament, name) for name in MONEY_SETTINGS}
    money = MoneyData.model_validate({**data, "payments": list(payments), "payouts": list(payouts)})
    return money.model_dump(mode="json")


# What each pot's prizes are paid from, for a refusal.
POOLS = {Pot.ENTRY: "entry fees (less the house's share)", Pot.SIDE_POT: "side pot"}


def _pools(held: dict[tuple[int, str], Decimal], house_percent: Decimal) -> dict[str, Decimal]:
    """What each pot holds for prizes, from what each team has paid into it (``held``, by team and pot)."""
    received = {pot: sum((net for (_, into), net in held.items() if into == pot), ZERO) for pot in Pot.values}
    return {**received, Pot.ENTRY: prize_pool(received[Pot.ENTRY], house_percent)}


def _checked(path: str, check: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    try:
        return check(*args, **kwargs)
    except ScoringError as error:
        refuse(path, str(error))


def money_import(tournament: Tournament, money: MoneyRecords | None, path: str, team: TeamLookup) -> None:
    """The tournament's money from its archive (none in archives before version 4: the defaults stay).

    Money that could not have been booked at the desk refuses the file: a refund above what the team has paid
    into that pot by then, a prize from the side pot to a team not in it, prizes adding up to more than their pot
    holds (the entry fees received less the house's share; the side-pot fees received)."""
    if money is None:
        return
    for name in MONEY_SETTINGS:
        setattr(tournament, name, _checked(f"{path}.{name}", money_setting_check, name, getattr(money, name)))
    tournament.save(update_fields=list(MONEY_SETTINGS))
    held = _payments_import(tournament, money, path, team)
    tournament.refresh_from_db(fields=list(MONEY_SETTINGS))  # the amounts as stored, not as archived text
    fees_settle(tournament)  # a "fee paid" mark from before the fee existed yields to the amounts
    _payouts_import(tournament, money, path, team, _pools(held, tournament.house_percent))


def _payments_import(
    tournament: Tournament, money: MoneyRecords, path: str, team: TeamLookup
) -> dict[tuple[int, str], Decimal]:
    """The payments and refunds, in the file's order; what each team holds in each pot after them."""
    held: dict[tuple[int, str], Decimal] = {}
    for index, entry in enumerate(money.payments):
        where = f"{path}.payments[{index}]"
        amount = _checked(f"{where}.amount", amount_check, entry.amount, field="amount")
        if not amount:
            refuse(f"{where}.amount", "a payment is more than 0.00")
        if entry.kind == Payment.Kind.REFUND and not entry.reason.strip():
            refuse(f"{where}.reason", "a refund has its reason")
        if entry.voided_at is not None and not entry.voided_reason.strip():
            refuse(f"{where}.voided_reason", "a voided payment has its reason")
        owner = team(entry.team, f"{where}.team")
        key = (entry.team, entry.pot)
        if entry.kind == Payment.Kind.REFUND and entry.voided_at is None and amount > held.get(key, ZERO):
            refuse(
                f"{where}.amount",
                f"a refund of {amount} to team {entry.team}, which has paid {held.get(key, ZERO)} into the "
                f"{Pot(entry.pot).label.lower()} by then",
            )
        if entry.voided_at is None:  # a voided payment moved no money
            held[key] = held.get(key, ZERO) + (-amount if entry.kind == Payment.Kind.REFUND else amount)
        fields = entry.model_dump(exclude={"team", "created_at"})
        payment = Payment.objects.create(tournament=tournament, team=owner, **fields)
        set_times(Payment, payment.pk, created_at=entry.created_at)
    return held


def _payouts_import(
    tournament: Tournament, money: MoneyRecords, path: str, team: TeamLookup, pools: dict[str, Decimal]
) -> None:
    prizes = dict.fromkeys(Pot.values, ZERO)
    paid = set()
    for index, entry in enumerate(money.payouts):
        where = f"{path}.payouts[{index}]"
        if Decimal(entry.amount) == 0:
            refuse(f"{where}.amount", "a prize paid is more than 0.00")
        if (entry.team, entry.pot) in paid:
            refuse(f"{where}.team", f"team {entry.team} is paid twice from the {entry.pot} pot")
        paid.add((entry.team, entry.pot))
        winner = team(entry.team, f"{where}.team")
        if entry.pot == Pot.SIDE_POT and not winner.side_pot:
            refuse(f"{where}.team", f"team {entry.team} is not in the side pot: no prize from it")
        prizes[entry.pot] += Decimal(entry.amount)
        if prizes[entry.pot] > pools[entry.pot]:
            refuse(
                f"{where}.amount",
                f"the prizes paid from the {POOLS[entry.pot]} come to {prizes[entry.pot]}, more than the "
                f"{pools[entry.pot]} it holds",
            )
        fields = entry.model_dump(exclude={"team", "paid_at", "place"})
        place = entry.place
        payout = Payout.objects.create(
            tournament=tournament, team=winner, place_number=place.number, place_shared=place.shared, **fields
        )
        set_times(Payout, payout.pk, paid_at=entry.paid_at)
