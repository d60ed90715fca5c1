"""Money at the desk: the tournament's money settings, payments and refunds, prizes paid and confirmed.

Amounts are checked by the money engine (``scoring.money``); its refusals become messages beside the field.
Each action is one transaction and one entry of the log.
"""

from django.db import transaction
from django.utils import timezone

from scoring import ScoringError
from scoring.money import SidePotRule, amount_check, payout_percents_parse, percent_check, percents_text
from tournament.errors import ServiceError
from tournament.models import LogEntry, Payment, Payout, Pot, Team, Tournament, team_code_typed
from tournament.models.money import MONEY_SETTINGS, PRIZE_FROM
from tournament.selectors.money import desk_money, payout_sheet
from tournament.services.log import Actor, actor_of, log_write, team_log_write
from tournament.services.throttle import throttle_check, throttle_clear, throttle_fail
from tournament.typed import text_checked


def _checked(check, *args, **kwargs):
    try:
        return check(*args, **kwargs)
    except ScoringError as error:
        raise ServiceError(str(error), field=error.field) from None


def _settings(tournament: Tournament) -> dict:
    return {name: str(getattr(tournament, name)) for name in MONEY_SETTINGS}


@transaction.atomic
def money_settings_set(
    *,
    tournament: Tournament,
    entry_fee,
    side_pot_fee,
    house_percent,
    payout_percents: str,
    side_pot_rule: str,
    actor: Actor | None = None,
) -> Tournament:
    """Fees, the house's share, the payout percentages and the side pot's rule; refused once a prize is paid
    (the sheet already handed out would no longer add up)."""
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    values = {
        "entry_fee": _checked(amount_check, entry_fee, field="entry_fee"),
        "side_pot_fee": _checked(amount_check, side_pot_fee, field="side_pot_fee"),
        "house_percent": _checked(percent_check, house_percent, field="house_percent"),
        "payout_percents": percents_text(_checked(payout_percents_parse, str(payout_percents))),
    }
    if side_pot_rule not in SidePotRule.values():
        raise ServiceError("Choose how the side pot is paid.", field="side_pot_rule")
    values["side_pot_rule"] = side_pot_rule
    before = _settings(tournament)
    changed = {name: value for name, value in values.items() if str(value) != before[name]}
    if not changed:
        return tournament
    if tournament.payouts.exists():
        raise ServiceError("Prizes have been paid already: the money settings can no longer change.")
    for name, value in changed.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(changed))
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.MONEY_SETTINGS,
        summary=f"Money: entry fee {tournament.entry_fee}, side pot {tournament.side_pot_fee}, house "
        f"{tournament.house_percent}%, payouts {tournament.payout_percents}, side pot by {tournament.side_pot_rule}",
        tournament=tournament,
        before=before,
        after=_settings(tournament),
    )
    return tournament


def _locked_team(team: Team) -> Team:
    """The team, locked with its tournament so two desks' payments are counted one after the other."""
    Tournament.objects.select_for_update().filter(pk=team.tournament_id).first()
    return Team.objects.select_for_update().select_related("tournament__event").get(pk=team.pk)


def _fee_settled(team: Team) -> None:
    """With an entry fee set, the team's "fee paid" follows what it has paid for it."""
    if team.tournament.entry_fee <= 0:
        return
    account = desk_money(team.tournament, [team]).accounts[team.pk]
    settled = account.entry_net >= team.tournament.entry_fee
    if team.fee_paid != settled:
        team.fee_paid = settled
        team.save(update_fields=["fee_paid"])


def _pot(pot: str) -> str:
    if pot not in Pot.values:
        raise ServiceError("Choose the entry fee or the side pot.", field="pot")
    return pot


def _amount(amount, *, missing: str):
    """A sum of money as entered at the desk, refused beside its field when it is not one or is nothing."""
    amount = _checked(amount_check, amount, field="amount")
    if amount == 0:
        raise ServiceError(missing, field="amount")
    return amount


def _money_record(team: Team, actor, action: str, says: str, *, reason: str = "", **payment) -> Payment:
    """Store money received from or handed back to a team, settle its fee, and log it."""
    actor = actor_of(actor)
    record = Payment.objects.create(
        tournament=team.tournament, team=team, reason=reason[:200], recorded_by=actor.name, **payment
    )
    _fee_settled(team)
    after = {"amount": str(record.amount), "method": record.method, "pot": record.pot}
    team_log_write(team, actor, action, says, reason=reason, after=after)
    return record


@transaction.atomic
def payment_record(
    *, team: Team, amount, method: str = Payment.Method.CASH, pot: str = Pot.ENTRY, actor: Actor | None = None
) -> Payment:
    """Money received from a team at the desk, for its entry fee or the side pot."""
    team, amount = _locked_team(team), _amount(amount, missing="Enter the amount received.")
    if method not in Payment.Method.values:
        raise ServiceError("Choose how it was paid.", field="method")
    if _pot(pot) == Pot.SIDE_POT and not team.side_pot:
        raise ServiceError(f"Team #{team.number} is not in the side pot: put it in first.", field="pot")
    paid = f"{amount} ({Payment.Method(method).label.lower()}) for the {Pot(pot).label.lower()}"
    return _money_record(team, actor, LogEntry.Action.PAYMENT, f"paid {paid}", pot=pot, amount=amount, method=method)


@transaction.atomic
def refund_record(
    *, team: Team, amount, reason: str, pot: str = Pot.ENTRY, method: str = Payment.Method.CASH, actor=None
) -> Payment:
    """Money handed back to a team (a withdrawal, a mistake): never more than it has paid, with a reason."""
    team, amount = _locked_team(team), _amount(amount, missing="Enter the amount refunded.")
    reason = text_checked(reason or "", what="The reason", limit=200, field="reason")
    if not reason:
        raise ServiceError("Say why the money is refunded: it goes in the log.", field="reason")
    account = desk_money(team.tournament, [team]).accounts[team.pk]
    paid = account.entry_net if _pot(pot) == Pot.ENTRY else account.side_net
    if amount > paid:
        raise ServiceError(
            f"Team #{team.number} has paid {paid} for the {Pot(pot).label.lower()}: a refund cannot be more.",
            field="amount",
        )
    if team.tournament.payouts.exists():
        raise ServiceError("Prizes have been paid already: a refund now would unbalance the payout sheet.")
    says = f"was refunded {amount} of the {Pot(pot).label.lower()}"
    refund = {"kind": Payment.Kind.REFUND, "pot": pot, "amount": amount, "method": method}
    return _money_record(team, actor, LogEntry.Action.REFUND, says, reason=reason, **refund)


@transaction.atomic
def payout_pay(*, tournament: Tournament, team: Team, pot: str = Pot.ENTRY, actor: Actor | None = None) -> Payout:
    """Hand a team its prize as the payout sheet has it; only from the final placings."""
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    sheet = payout_sheet(tournament)
    if not sheet.final:
        raise ServiceError("The placings are not final yet: the payout sheet is only a preview.")
    line = next((line for line in sheet.lines if line.pot == _pot(pot) and line.team.pk == team.pk), None)
    if line is None:
        raise ServiceError(f"Team #{team.number} has no prize from the {PRIZE_FROM[pot].lower()}.")
    if line.paid is not None:
        raise ServiceError(f"Team #{team.number}'s prize was paid already.")
    actor = actor_of(actor)
    payout = Payout.objects.create(
        tournament=tournament, team=line.team, pot=pot, place=line.label, amount=line.amount, paid_by=actor.name
    )
    paid = f"was paid {line.amount} for place {line.label} ({PRIZE_FROM[pot].lower()})"
    after = {"amount": str(line.amount), "place": line.label, "pot": pot}
    team_log_write(line.team, actor, LogEntry.Action.PAYOUT, paid, after=after)
    return payout


class WrongPayoutCode(ServiceError):
    """A wrong team code typed to confirm a prize; counted, so that guessing is slowed down."""


def payout_confirm(*, payout: Payout, code: str, where: str = "", actor: Actor | None = None) -> Payout:
    """The team confirms it received its prize, with its own code (on its phone, or typed at the desk); wrong
    codes for a team are counted outside the transaction, so a refusal keeps the count, and paused."""
    try:
        return _confirm(payout, code, where, actor)
    except WrongPayoutCode:
        throttle_fail(f"payout-code:{payout.team_id}")
        raise


@transaction.atomic
def _confirm(payout: Payout, code: str, where: str, actor: Actor | None) -> Payout:
    payout = Payout.objects.select_for_update().select_related("team__tournament__event").get(pk=payout.pk)
    team = payout.team
    key = f"payout-code:{team.pk}"
    throttle_check(key)
    if team_code_typed(code or "") != team.code:
        raise WrongPayoutCode(f"That is not team #{team.number}'s code: check the slip.", field="code")
    throttle_clear(key)
    if payout.confirmed_at is not None:
        raise ServiceError(f"Team #{team.number} confirmed this prize already.")
    payout.confirmed_at = timezone.now()
    payout.confirmed_on = (where or "")[:100]
    payout.save(update_fields=["confirmed_at", "confirmed_on"])
    confirmed = f"confirmed receiving {payout.amount} ({payout.pot_name.lower()}){' ' + where if where else ''}"
    team_log_write(team, actor_of(actor, default=Actor.team(team)), LogEntry.Action.PAYOUT_CONFIRMED, confirmed)
    return payout
