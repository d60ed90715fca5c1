"""The archive's money: a tournament's settings, payments, refunds and prizes paid (schema ``MoneyData``).

Each part is read from its record and written back field for field, as the schema declares them.
"""

from decimal import Decimal

from scoring import ScoringError
from scoring.money import amount_check, payout_percents_parse, percent_check
from tournament.models import Payment, Payout, Tournament
from tournament.models.money import MONEY_SETTINGS
from tournament.services.archive.schema import MoneyData
from tournament.services.archive.sheets import refuse, set_times
from tournament.services.money import fees_settle


def money_export(tournament: Tournament) -> dict:
    payments = tournament.payments.select_related("team").order_by("created_at", "pk")
    payouts = tournament.payouts.select_related("team").order_by("paid_at", "pk")
    data = {name: getattr(tournament, name) for name in MONEY_SETTINGS}
    money = MoneyData.model_validate({**data, "payments": list(payments), "payouts": list(payouts)})
    return money.model_dump(mode="json")


def _checked(path: str, check, *args, **kwargs):
    try:
        return check(*args, **kwargs)
    except ScoringError as error:
        refuse(path, str(error))


def money_import(tournament: Tournament, money: MoneyData | None, path: str, team) -> None:
    """The tournament's money from its archive (none in archives before version 4: the defaults stay)."""
    if money is None:
        return
    _checked(f"{path}.entry_fee", amount_check, money.entry_fee, field="entry_fee")
    _checked(f"{path}.side_pot_fee", amount_check, money.side_pot_fee, field="side_pot_fee")
    _checked(f"{path}.house_percent", percent_check, money.house_percent)
    _checked(f"{path}.payout_percents", payout_percents_parse, money.payout_percents)
    for name in MONEY_SETTINGS:
        setattr(tournament, name, getattr(money, name))
    tournament.save(update_fields=list(MONEY_SETTINGS))
    for index, entry in enumerate(money.payments):
        where = f"{path}.payments[{index}]"
        if not _checked(f"{where}.amount", amount_check, entry.amount, field="amount"):
            refuse(f"{where}.amount", "a payment is more than 0.00")
        if entry.kind == Payment.Kind.REFUND and not entry.reason.strip():
            refuse(f"{where}.reason", "a refund has its reason")
        if entry.voided_at is not None and not entry.voided_reason.strip():
            refuse(f"{where}.voided_reason", "a voided payment has its reason")
        fields = entry.model_dump(exclude={"team", "created_at"})
        payment = Payment.objects.create(tournament=tournament, team=team(entry.team, f"{where}.team"), **fields)
        set_times(Payment, payment.pk, created_at=entry.created_at)
    tournament.refresh_from_db(fields=list(MONEY_SETTINGS))  # the amounts as stored, not as archived text
    fees_settle(tournament)  # a "fee paid" mark from before the fee existed yields to the amounts
    paid = set()
    for index, entry in enumerate(money.payouts):
        where = f"{path}.payouts[{index}]"
        if Decimal(entry.amount) == 0:
            refuse(f"{where}.amount", "a prize paid is more than 0.00")
        if (entry.team, entry.pot) in paid:
            refuse(f"{where}.team", f"team {entry.team} is paid twice from the {entry.pot} pot")
        paid.add((entry.team, entry.pot))
        fields = entry.model_dump(exclude={"team", "paid_at"})
        payout = Payout.objects.create(tournament=tournament, team=team(entry.team, f"{where}.team"), **fields)
        set_times(Payout, payout.pk, paid_at=entry.paid_at)
