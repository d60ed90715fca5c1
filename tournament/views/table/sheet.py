"""Penalties, signatures, disputes and the history of a table's sheet."""

from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring import Pair
from tournament import selectors
from tournament.errors import ServiceError
from tournament.forms.table import AcceptForm, DisputeForm, SettleEntriesForm, SettleForm
from tournament.models import Hand, Penalty
from tournament.services import sheets
from tournament.views.common import request_actor
from tournament.views.table.hands import remove_and_return
from tournament.views.table.page import TablePage, change_of, render_page, sheet_form_post, sheet_form_run


@require_POST
def penalty_add(request, secret):
    page = TablePage(request, secret)
    form = page.penalty_form(request.POST)

    def add(**data):
        hand = next((h for h in page.hands if h.sequence == data["hand"]), None)
        return sheets.penalty_add(
            table=page.table,
            kind=data["kind"],
            team=data["team"],
            hand=hand,
            count=data["count"],
            choice=data["choice"],
            points=data["points"] or 0,
            **change_of(request, data),
        )

    done = "Penalty recorded: {0.description}.".format
    return sheet_form_post(request, page, form, add, done, penalty_form=form, open_form="penalty")


@require_POST
def penalty_remove(request, secret, penalty_id):
    page = TablePage(request, secret)
    penalty = get_object_or_404(Penalty, table=page.table, pk=penalty_id)
    remove = partial(sheets.penalty_remove, penalty=penalty)
    return remove_and_return(request, secret, remove, "Penalty removed; the sheet is rescored.")


@require_POST
def sheet_sign(request, secret):
    page = TablePage(request, secret)
    pair = next((side for side in Pair.values() if f"sign-{side}-pair" in request.POST), "")
    forms = page.sign_forms(request.POST, pair=pair)
    form = next((form for side, _, _, form in forms if side == pair), None)
    if form is None:
        messages.error(request, "Choose the team you sign for.")
        return redirect("table", secret=secret)
    if form.is_valid():
        players = {member.player.pk: member.player for member in page.table.team_at(pair).members}
        sign = partial(
            sheets.sheet_sign,
            table=page.table,
            version=form.cleaned_data["version"],
            pair=pair,
            player=players[form.cleaned_data["player"]],
            code=form.cleaned_data["code"],
            actor=request_actor(request),
        )
        response = sheet_form_run(
            request, secret, form, sign, lambda s: f"Signed by {s.player.name} for {s.get_pair_display()}."
        )
        if response is not None:
            return response
    return render_page(request, page, status=400, sign_forms=forms)


def history(request, secret):
    table = selectors.table_by_secret(secret)
    context = {
        "table": table,
        "round": table.round,
        "event": table.round.tournament.event,
        "changes": selectors.table_history(table),
    }
    return render(request, "table/history.html", context)


@require_POST
def hand_accept(request, secret, sequence):
    """The other team accepts a hand with its code, on the phone that entered it."""
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence)
    form = AcceptForm(request.POST)
    if form.is_valid():
        try:
            sheets.hand_accept(table=page.table, hand=hand, actor=request_actor(request), **form.cleaned_data)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, f"Hand {hand.hand_number} accepted.")
    return redirect(f"{reverse('table', args=[secret])}#hand-{hand.sequence}")


@require_POST
def entries_settle(request, secret):
    page = TablePage(request, secret)
    form = SettleEntriesForm(request.POST, prefix="entries")
    settle = partial(sheets.entries_settle, table=page.table, actor=request_actor(request))
    done = "Settled: the entry stands and is on the sheet."
    return sheet_form_post(request, page, form, settle, done, settle_entries_form=form)


@require_POST
def sheet_dispute(request, secret):
    page = TablePage(request, secret)
    form = DisputeForm(request.POST, prefix="dispute")
    call = partial(sheets.sheet_dispute, table=page.table, actor=request_actor(request))
    done = "The director has been called; sign once the dispute is settled."
    return sheet_form_post(request, page, form, call, done, dispute_form=form, open_form="dispute")


@require_POST
def sheet_settle(request, secret):
    page = TablePage(request, secret)
    form = SettleForm(request.POST, prefix="settle")
    settle = partial(sheets.sheet_dispute_resolve, table=page.table, actor=request_actor(request))
    return sheet_form_post(request, page, form, settle, "Dispute settled: the teams can sign.", settle_form=form)
