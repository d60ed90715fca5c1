"""Penalties, signatures, disputes and the history of a table's sheet."""

from functools import partial

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from scoring import Pair
from tournament import selectors
from tournament.forms.table import AcceptForm, DisputeForm, SettleEntriesForm, SettleForm
from tournament.models import Hand
from tournament.services import sheets
from tournament.views.common import refusal_say, service_run
from tournament.views.table.page import TablePage, back_to_sheet, change_of, sheet_form_post
from tournament.views.team import signer_of


@require_POST
def penalty_add(request, secret):
    page = TablePage(request, secret)
    form = page.penalty_form(request.POST)

    def add(**data):
        hand = next((h for h in page.sheet.hands if h.sequence == data["hand"]), None)
        return sheets.penalty_add(
            table=page.table,
            kind=data["kind"],
            team=data["team"],
            hand=hand,
            count=data["count"],
            choice=data["choice"],
            points=data["points"] or 0,
            context=change_of(request, data),
        )

    return sheet_form_post(page, "penalty", form, add, "Penalty recorded: {0.description}.".format)


@require_POST
def sheet_sign(request, secret):
    page = TablePage(request, secret)
    pair = next((side for side in Pair.values() if f"sign-{side}-pair" in request.POST), "")
    if not pair:
        refusal_say(request, "Choose the team you sign for.")
        return back_to_sheet(page)
    form = page.sign_form(Pair(pair), request.POST)
    signers = page.signers(Pair(pair))

    def sign(**data):
        return sheets.sheet_sign(
            table=page.table,
            pair=pair,
            **signer_of(signers[data["player"]]),
            code=data.get("code") or page.opened_codes.get(Pair(pair), ""),
            context=change_of(request, data),
        )

    def done(signature) -> str:
        return f"Signed by {signature.signer_name} for {signature.get_pair_display()}."

    return sheet_form_post(page, f"sign-{pair}", form, sign, done)


def history(request, secret):
    table = selectors.table_by_secret(secret)
    context = {
        "table": table,
        "round": table.round,
        "event": table.round.tournament.event,
        "seats": selectors.table_seats(table),
        "changes": selectors.table_history(table),
    }
    return render(request, "table/history.html", context)


@require_POST
def hand_accept(request, secret, sequence):
    """The other team accepts a hand with its code (none if this phone opened that team's page with it), on
    the phone that entered it; the page opens again at the entry, where the next hand (or the next acceptance)
    is."""
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence)
    form = AcceptForm(request.POST)
    if not form.is_valid():
        refusal_say(request, f"Give the other team's code to accept hand {hand.hand_number}.")
        return back_to_sheet(page)
    code = form.cleaned_data["code"] or page.opened_codes.get(hand.accepting_pair, "")
    accept = partial(
        sheets.hand_accept, table=page.table, hand=hand, code=code, context=change_of(request, form.cleaned_data)
    )
    service_run(request, accept, f"Hand {hand.hand_number} accepted.")
    return back_to_sheet(page)


def _small_form_post(request, secret, name: str, form_class, run, done):
    """A small form of the sheet page (``name``) posted to a sheet service: ``run(page, context, data)``."""
    page = TablePage(request, secret)
    form = page.simple_form(name, form_class, request.POST)
    return sheet_form_post(page, name, form, lambda **data: run(page, change_of(request, data), data), done)


@require_POST
def entries_settle(request, secret):
    def settle(page, context, data):
        return sheets.entries_settle(table=page.table, keep=data["keep"], context=context)

    done = "Settled: the entry stands and is on the sheet."
    return _small_form_post(request, secret, "entries", SettleEntriesForm, settle, done)


@require_POST
def sheet_dispute(request, secret):
    def dispute(page, context, data):
        return sheets.sheet_dispute(table=page.table, pair=data["pair"], note=data["note"], context=context)

    done = "The director has been called; sign once the dispute is settled."
    return _small_form_post(request, secret, "dispute", DisputeForm, dispute, done)


@require_POST
def sheet_settle(request, secret):
    def settle(page, context, data):
        return sheets.sheet_dispute_resolve(table=page.table, context=context)

    done = "Dispute settled: the teams can sign."
    return _small_form_post(request, secret, "settle", SettleForm, settle, done)
