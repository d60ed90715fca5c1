"""Penalties, signatures, disputes and the history of a table's sheet."""

from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from scoring import Pair
from tournament import selectors
from tournament.errors import ServiceError
from tournament.forms.table import DisputeForm, SettleForm
from tournament.models import Penalty
from tournament.services import sheets
from tournament.services.sheets import StaleSheet
from tournament.views.common import request_actor
from tournament.views.table.hands import remove_and_return
from tournament.views.table.page import TablePage, change_of, form_error, render_page, stale


@require_POST
def penalty_add(request, secret):
    page = TablePage(request, secret)
    form = page.penalty_form(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        hand = None
        if data["hand"] is not None:
            hand = next((h for h in page.hands if h.sequence == data["hand"]), None)
        try:
            penalty = sheets.penalty_add(
                table=page.table,
                kind=data["kind"],
                team=data["team"],
                hand=hand,
                count=data["count"],
                choice=data["choice"],
                points=data["points"] or 0,
                **change_of(request, data),
            )
        except StaleSheet as error:
            return stale(request, secret, error)
        except ServiceError as error:
            form_error(request, form, error)
        else:
            messages.success(request, f"Penalty recorded: {penalty.description}.")
            return redirect("table", secret=secret)
    return render_page(request, page, status=400, penalty_form=form, open_form="penalty")


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
        try:
            signature = sheets.sheet_sign(
                table=page.table,
                version=form.cleaned_data["version"],
                pair=pair,
                player=players[form.cleaned_data["player"]],
                actor=request_actor(request),
            )
        except StaleSheet as error:
            return stale(request, secret, error)
        except ServiceError as error:
            form_error(request, form, error)
        else:
            messages.success(request, f"Signed by {signature.player.name} for {signature.get_pair_display()}.")
            return redirect("table", secret=secret)
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
def sheet_dispute(request, secret):
    page = TablePage(request, secret)
    form = DisputeForm(request.POST, prefix="dispute")
    if form.is_valid():
        data = form.cleaned_data
        try:
            sheets.sheet_dispute(
                table=page.table,
                version=data["version"],
                pair=data["pair"],
                note=data["note"],
                actor=request_actor(request),
            )
        except StaleSheet as error:
            return stale(request, secret, error)
        except ServiceError as error:
            form_error(request, form, error)
        else:
            messages.success(request, "The director has been called; sign once the dispute is settled.")
            return redirect("table", secret=secret)
    return render_page(request, page, status=400, dispute_form=form, open_form="dispute")


@require_POST
def sheet_settle(request, secret):
    page = TablePage(request, secret)
    form = SettleForm(request.POST, prefix="settle")
    if form.is_valid():
        data = form.cleaned_data
        try:
            sheets.sheet_dispute_resolve(
                table=page.table, version=data["version"], reason=data["reason"], actor=request_actor(request)
            )
        except StaleSheet as error:
            return stale(request, secret, error)
        except ServiceError as error:
            form_error(request, form, error)
        else:
            messages.success(request, "Dispute settled: the teams can sign.")
            return redirect("table", secret=secret)
    return render_page(request, page, status=400, settle_form=form)
