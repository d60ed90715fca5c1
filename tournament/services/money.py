"""Money at the desk: the tournament's money settings, payments and refunds, prizes paid and confirmed.

Amounts are checked by the money engine (``scoring.money``); its refusals become messages beside the field.
Each action is one transaction and one entry of the log.
"""

from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from typing import Any, TypeVar

from django.db import transaction
from django.utils import timezone

from scoring.money import MONEY_SETTINGS, amount_check, money_setting_check, money_setting_said
from tournament.errors import ServiceError, engine_refusal
from tournament.models import LogEntry, Payment, Payout, Pot, Team, Tournament, team_code_typed
from tournament.models.money import PRIZE_FROM
from tournament.selectors.money import ZERO, desk_money, payout_sheet, split_said
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write, team_log_write
from tournament.services.throttle import payout_key, throttle_check, throttle_clear, throttle_fail
from tournament.typed import text_checked

T = TypeVar("T")


def _checked(check: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    with engine_refusal():
        return check(*args, **kwargs)


def _settings(tournament: Tournament) -> dict[str, str]:
    return {name: str(getattr(tournament, name)) for name in MONEY_SETTINGS}


@transaction.atomic
def money_settings_set(*, tournament: Tournament, actor: Actor | None = None, **settings: object) -> Tournament:
    """The money settings by name (``scoring.money.MONEY_SETTINGS``: ``entry_fee``, ``side_pot_fee``,
    ``house_percent``, ``payout_percents``, ``side_pot_rule``), each as typed and checked as declared; one not
    given stays as it is. A setting that locks is refused once a prize is paid (the sheet already handed out
    would no longer add up)."""
    unknown = sorted(set(settings) - set(MONEY_SETTINGS))
    if unknown:
        raise TypeError(f"money_settings_set() got settings it does not know: {', '.join(unknown)}")
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    values = {name: _checked(money_setting_check, name, settings[name]) for name in MONEY_SETTINGS if name in settings}
    before = _settings(tournament)
    differing = {name: value for name, value in values.items() if str(value) != before[name]}
    if not differing:
        return tournament
    if any(MONEY_SETTINGS[name].locks for name in differing) and tournament.payouts.exists():
        raise ServiceError("Prizes have been paid already: the money settings can no longer change.")
    for name, value in differing.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(differing))
    fees_settle(tournament)
    if any(MONEY_SETTINGS[name].public for name in differing):
        changed(Changed.TOURNAMENT, tournament)  # the public rules page states them
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.MONEY_SETTINGS,
        summary="Money: " + ", ".join(money_setting_said(name, getattr(tournament, name)) for name in MONEY_SETTINGS),
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
    fees_settle(team.tournament, [team])


def fees_settle(tournament: Tournament, teams: list[Team] | None = None) -> None:
    """With an entry fee set, "fee paid" is what the amounts say, whatever was marked or imported before the fee
    existed (a mark only means something without a fee). Not a service: its callers' transactions hold it."""
    if tournament.entry_fee <= 0:
        return
    accounts = desk_money(tournament, teams).accounts.values()
    unsettled = [a.team for a in accounts if a.team.fee_paid != (a.entry_net >= tournament.entry_fee)]
    for team in unsettled:
        team.fee_paid = not team.fee_paid
    Team.objects.bulk_update(unsettled, ["fee_paid"])


def _pot(pot: str) -> str:
    if pot not in Pot.values:
        raise ServiceError("Choose the entry fee or the side pot.", field="pot")
    return pot


def _amount(typed: object, *, missing: str) -> Decimal:
    """A sum of money as entered at the desk, refused beside its field when it is not one or is nothing."""
    amount = _checked(amount_check, typed, field="amount")
    if amount == 0:
        raise ServiceError(missing, field="amount")
    return amount


def _reason(reason: str, *, missing: str) -> str:
    """Why money is handed back or a record corrected, as typed: it goes in the log; never blank."""
    reason = text_checked(reason or "", what="The reason", limit=200, field="reason")
    if not reason:
        raise ServiceError(missing, field="reason")
    return reason


def _payment_said(payment: Payment) -> dict:
    return {"amount": str(payment.amount), "method": payment.method, "pot": payment.pot, "kind": payment.kind}


def _money_record(
    team: Team, actor: Actor | None, action: str, says: str, *, reason: str = "", **payment: Any
) -> Payment:
    """Store money received from or handed back to a team, settle its fee, and log it."""
    by = actor_of(actor)
    record = Payment.objects.create(
        tournament=team.tournament, team=team, reason=reason[:200], recorded_by=by.name, **payment
    )
    _fee_settled(team)
    team_log_write(team, by, action, says, reason=reason, after=_payment_said(record))
    return record


def _first_prize(team: Team, pot: str) -> datetime | None:
    """When the first prize from ``pot`` was paid, or None."""
    return team.tournament.payouts.filter(pot=pot).order_by("paid_at").values_list("paid_at", flat=True).first()


def _since_prizes(team: Team, pot: str) -> Decimal | None:
    """What the team has paid (net) into ``pot`` since the first prize from it was paid, or None when none was:
    only that money can leave the pot (a refund, a void, a move) without unbalancing the payout sheet."""
    first = _first_prize(team, pot)
    if first is None:
        return None
    later = team.payments.filter(pot=pot, voided_at__isnull=True, created_at__gte=first)
    return sum((payment.signed_amount for payment in later), ZERO)


def _leaving_check(team: Team, pot: str, amount: Decimal, what: str) -> None:
    """Refuse taking ``amount`` out of the team's ``pot`` when it would unbalance the prizes already paid."""
    since = _since_prizes(team, pot)
    if since is not None and amount > since:
        raise ServiceError(
            f"Prizes from the {PRIZE_FROM[pot].lower()} have been paid: {what} would unbalance the payout sheet. "
            f"Team #{team.number} paid {max(since, ZERO)} into it since then; undo the prizes first.",
            field="amount",
        )


@transaction.atomic
def payment_record(
    *, team: Team, amount: object, method: str = Payment.Method.CASH, pot: str = Pot.ENTRY, actor: Actor | None = None
) -> Payment:
    """Money received from a team at the desk, for its entry fee or the side pot."""
    team, amount = _locked_team(team), _amount(amount, missing="Enter the amount received.")
    if method not in Payment.Method.values:
        raise ServiceError("Choose how it was paid.", field="method")
    if _pot(pot) == Pot.SIDE_POT and not team.side_pot:
        raise ServiceError(f"Team #{team.number} is not in the side pot: put it in first.", field="pot")
    paid = f"{amount} ({Payment.Method(method).label.lower()}) for the {Pot(pot).label.lower()}"
    return _money_record(team, actor, LogEntry.Action.PAYMENT, f"paid {paid}", pot=pot, amount=amount, method=method)


OWED = "owed"  # a payment booked where the team owes: the entry fee first, then the side pot


@transaction.atomic
def payment_book(
    *, team: Team, amount: object, method: str = Payment.Method.CASH, pot: str = OWED, actor: Actor | None = None
) -> list[Payment]:
    """Money received at the desk, booked where the team owes it (the entry fee, then the side pot: one payment
    per pot), or all to one ``pot`` when the director says so."""
    team, amount = _locked_team(team), _amount(amount, missing="Enter the amount received.")
    if pot != OWED:
        return [payment_record(team=team, amount=amount, method=method, pot=pot, actor=actor)]
    account = desk_money(team.tournament, [team]).accounts[team.pk]
    return [
        payment_record(team=team, amount=part, method=method, pot=into, actor=actor)
        for into, part in account.split(amount)
    ]


def payments_said(payments: list[Payment]) -> str:
    """ "120.00 received: 100.00 to the entry fee and 20.00 to the side pot" (or to one pot)."""
    total = sum((payment.amount for payment in payments), ZERO)
    return f"{total} received: {split_said([(payment.pot, payment.amount) for payment in payments])}"


@transaction.atomic
def refund_record(
    *,
    team: Team,
    amount: object,
    reason: str,
    pot: str = Pot.ENTRY,
    method: str = Payment.Method.CASH,
    actor: Actor | None = None,
) -> Payment:
    """Money handed back to a team (a withdrawal, a mistake): never more than it has paid, with a reason."""
    team, amount = _locked_team(team), _amount(amount, missing="Enter the amount refunded.")
    reason = _reason(reason, missing="Say why the money is refunded: it goes in the log.")
    account = desk_money(team.tournament, [team]).accounts[team.pk]
    paid = account.entry_net if _pot(pot) == Pot.ENTRY else account.side_net
    if amount > paid:
        raise ServiceError(
            f"Team #{team.number} has paid {paid} for the {Pot(pot).label.lower()}: a refund cannot be more.",
            field="amount",
        )
    _leaving_check(team, pot, amount, "a refund now")
    says = f"was refunded {amount} of the {Pot(pot).label.lower()}"
    refund = {"kind": Payment.Kind.REFUND, "pot": pot, "amount": amount, "method": method}
    return _money_record(team, actor, LogEntry.Action.REFUND, says, reason=reason, **refund)


def _locked_payment(payment: Payment) -> tuple[Payment, Team]:
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.voided_at is not None:
        raise ServiceError(f"This {payment.get_kind_display().lower()} was voided already.")
    return payment, _locked_team(payment.team)


def _taken_out(payment: Payment, team: Team, what: str, *, pot_changes: bool = True) -> None:
    """Refuse taking ``payment`` off its team's pot when the team would be owed back more than it paid in, or the
    prizes already paid from the pot would no longer add up (``pot_changes``: the money leaves the pot)."""
    if payment.kind == Payment.Kind.REFUND:
        first = _first_prize(team, payment.pot)
        if first is not None and payment.created_at < first:
            raise ServiceError(
                f"Prizes from the {PRIZE_FROM[payment.pot].lower()} have been paid since this refund: {what} would "
                "unbalance the payout sheet; undo the prizes first."
            )
        return
    account = desk_money(team.tournament, [team]).accounts[team.pk]
    net = account.entry_net if payment.pot == Pot.ENTRY else account.side_net
    if payment.amount > net:
        raise ServiceError(
            f"Team #{team.number} was refunded part of it: {what} would leave it owed money back. Void the refund "
            "first."
        )
    if pot_changes:
        _leaving_check(team, payment.pot, payment.amount, what)


def _void(payment: Payment, reason: str, actor: Actor) -> None:
    payment.voided_at = timezone.now()
    payment.voided_reason = reason[:200]
    payment.voided_by = actor.name
    payment.save(update_fields=["voided_at", "voided_reason", "voided_by"])


@transaction.atomic
def payment_void(*, payment: Payment, reason: str, actor: Actor | None = None) -> Payment:
    """A payment or refund booked by mistake: it stays in the team's money history marked voided, counts nowhere,
    and the team's account and fee are worked out again."""
    reason = _reason(reason, missing="Say why it is voided: it goes in the log.")
    payment, team = _locked_payment(payment)
    _taken_out(payment, team, "voiding it")
    actor = actor_of(actor)
    _void(payment, reason, actor)
    _fee_settled(team)
    says = f"{payment.get_kind_display().lower()} of {payment.amount} ({Pot(payment.pot).label.lower()}) voided"
    team_log_write(
        team, actor, LogEntry.Action.PAYMENT_VOIDED, f"had a {says}", reason=reason, before=_payment_said(payment)
    )
    return payment


@transaction.atomic
def payment_move(
    *, payment: Payment, reason: str, team: Team | None = None, pot: str = "", actor: Actor | None = None
) -> Payment:
    """A payment booked to the wrong team or the wrong pot, moved: the first is voided (kept in its team's
    history) and the same money is booked where it belongs, each team's account worked out again."""
    reason = _reason(reason, missing="Say why it is moved: it goes in the log.")
    payment, source = _locked_payment(payment)
    if payment.kind != Payment.Kind.RECEIVED:
        raise ServiceError("Only a payment received can be moved: void a refund and record it again.")
    target = source if team is None or team.pk == source.pk else _locked_team(team)
    if target.tournament_id != source.tournament_id:
        raise ServiceError("A payment moves only to a team of the same tournament.", field="team")
    pot = _pot(pot or payment.pot)
    if (target.pk, pot) == (source.pk, payment.pot):
        raise ServiceError("Choose another team or the other pot to move it to.", field="pot")
    if pot == Pot.SIDE_POT and not target.side_pot:
        raise ServiceError(f"Team #{target.number} is not in the side pot: put it in first.", field="pot")
    _taken_out(payment, source, "moving it", pot_changes=pot != payment.pot)
    if pot != payment.pot and _first_prize(target, pot) is not None:
        raise ServiceError(
            f"Prizes from the {PRIZE_FROM[pot].lower()} have been paid: moving money into it would unbalance the "
            "payout sheet.",
            field="pot",
        )
    actor = actor_of(actor)
    where = f"team #{target.number}'s {Pot(pot).label.lower()}"
    _void(payment, f"moved to {where}: {reason}", actor)
    moved = Payment.objects.create(
        tournament=target.tournament,
        team=target,
        pot=pot,
        amount=payment.amount,
        method=payment.method,
        recorded_by=actor.name,
    )
    fees_settle(source.tournament, [source] if target.pk == source.pk else [source, target])
    said = f"{payment.amount} ({Pot(payment.pot).label.lower()})"
    # Each team's history says the move: the source the payment it had, the target (another team) what it got.
    logged: list[tuple[Team, str, dict | None]] = [
        (source, f"had a payment of {said} moved to {where}", _payment_said(payment))
    ]
    if target.pk != source.pk:
        from_where = f"team #{source.number}'s {Pot(payment.pot).label.lower()}"
        logged.append((target, f"was booked {moved.amount} moved from {from_where}", None))
    for whose, says, before in logged:
        moved_said = {"reason": reason, "before": before, "after": _payment_said(moved)}
        team_log_write(whose, actor, LogEntry.Action.PAYMENT_MOVED, says, **moved_said)
    return moved


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
        tournament=tournament,
        team=line.team,
        pot=pot,
        place_number=line.place.number,
        place_shared=line.place.shared,
        amount=line.amount,
        paid_by=actor.name,
    )
    paid = f"was paid {line.amount} for place {line.place} ({PRIZE_FROM[pot].lower()})"
    after = {"amount": str(line.amount), "place": str(line.place), "pot": pot}
    team_log_write(line.team, actor, LogEntry.Action.PAYOUT, paid, after=after)
    return payout


@transaction.atomic
def payout_undo(*, payout: Payout, reason: str, actor: Actor | None = None) -> Payout:
    """A prize marked paid by mistake (or to be paid again after the sheet changed), undone with a reason: the
    sheet shows it unpaid again and the log keeps what was paid, to whom and whether the team confirmed it."""
    reason = _reason(reason, missing="Say why the prize payment is undone: it goes in the log.")
    Tournament.objects.select_for_update().filter(pk=payout.tournament_id).first()
    found = Payout.objects.select_related("team__tournament__event").filter(pk=payout.pk).first()
    if found is None:
        raise ServiceError("That prize payment was undone already.")
    payout = found
    before = {"amount": str(payout.amount), "place": str(payout.place), "pot": payout.pot, "paid_by": payout.paid_by}
    if payout.confirmed_at is not None:
        before["confirmed"] = f"{payout.confirmed_on}, {payout.confirmed_at.isoformat()}"
    payout.delete()
    says = f"had its prize of {payout.amount} for place {payout.place} ({payout.pot_name.lower()}) undone"
    team_log_write(payout.team, actor_of(actor), LogEntry.Action.PAYOUT_UNDONE, says, reason=reason, before=before)
    return payout


@transaction.atomic
def payout_hand_over(*, payout: Payout, signed_by: str, actor: Actor | None = None) -> Payout:
    """The desk hands a team its prize and the player who takes it signs on the desk's screen with their own name
    (one of the team's players): a record of the hand-over, which needs no team code (the desk sees every code,
    so a code typed there would prove nothing). The team's own receipt is confirmed on its phone."""
    payout = Payout.objects.select_for_update().select_related("team__tournament__event").get(pk=payout.pk)
    team = payout.team
    name = text_checked(signed_by or "", what="The name", limit=80, field="signed_by")
    players = {" ".join(member.player.name.split()).casefold(): member.player.name for member in team.members}
    if name.casefold() not in players:
        raise ServiceError(
            f"Sign with your name as team #{team.number} entered it: one of its players.", field="signed_by"
        )
    if payout.confirmed_at is not None:
        raise ServiceError(f"Team #{team.number}'s prize was confirmed already ({payout.confirmed_on}).")
    payout.confirmed_at = timezone.now()
    payout.confirmed_on = f"handed over at the desk, signed by {players[name.casefold()]}"[:100]
    payout.save(update_fields=["confirmed_at", "confirmed_on"])
    says = f"took its prize of {payout.amount} ({payout.pot_name.lower()}): {payout.confirmed_on}"
    team_log_write(team, actor_of(actor), LogEntry.Action.PAYOUT_CONFIRMED, says)
    return payout


class WrongPayoutCode(ServiceError):
    """A wrong team code typed to confirm a prize; counted, so that guessing is slowed down."""


def payout_confirm(
    *, payout: Payout, code: str, where: str = "", address: str = "", actor: Actor | None = None
) -> Payout:
    """The team confirms on its own phone, with its own code, that it received its prize; wrong codes are counted
    outside the transaction, so a refusal keeps the count, and pause the address that typed them (as at a
    table), never the team's own phone."""
    try:
        return _confirm(payout, code, where, address, actor)
    except WrongPayoutCode:
        throttle_fail(payout_key(payout, address))
        raise


@transaction.atomic
def _confirm(payout: Payout, code: str, where: str, address: str, actor: Actor | None) -> Payout:
    payout = Payout.objects.select_for_update().select_related("team__tournament__event").get(pk=payout.pk)
    team = payout.team
    key = payout_key(payout, address)
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
