"""Entering hands and re-deals at the table, editing and removing them, and naming the first dealer."""

from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournament.errors import ServiceError
from tournament.forms.table import HandForm, RemoveForm
from tournament.models import Hand
from tournament.services import sheets
from tournament.services.sheets import HandEntry, StaleSheet
from tournament.views.common import request_actor
from tournament.views.table.page import (
    TablePage,
    change_of,
    form_error,
    render_page,
    sheet_form_post,
    sheet_form_run,
    stale,
)


def table_page(request, secret):
    return render_page(request, TablePage(request, secret))


def _entry(data) -> HandEntry:
    return HandEntry(
        dealer=data["dealer"],
        bidder=data["bidder"],
        level=data["level"],
        kind=data["kind"],
        books=data["books"],
        suit=data["suit"],
        direction=data["direction"],
    )


def _preview_context(result) -> dict:
    line = result.lines[-1]
    return {
        "line": line,
        "ns": line.points("NS"),
        "ew": line.points("EW"),
        "ns_total": result.totals["NS"],
        "ew_total": result.totals["EW"],
        "complete": result.complete,
        "winner": result.winner,
    }


def _saved(hand: Hand) -> str:
    return f"Hand {hand.hand_number} saved: North–South {hand.ns_points}, East–West {hand.ew_points}."


@require_POST
def hand_add(request, secret):
    """Enter a hand. Without the confirm flag the points are shown first (the no-JavaScript path)."""
    page = TablePage(request, secret)
    form = page.hand_form(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        if not data["confirm"]:
            try:
                result = sheets.hand_preview(table=page.table, entry=_entry(data))
            except ServiceError as error:
                form_error(request, form, error)
            else:
                context = {**page.context(), "form": form, "preview": _preview_context(result)}
                return render(request, "table/confirm.html", context)
        else:
            record = partial(sheets.hand_record, table=page.table, entry=_entry(data), **change_of(request, data))
            response = sheet_form_run(request, secret, form, record, _saved)
            if response is not None:
                return response
    return render_page(request, page, status=400, hand_form=form, open_form="hand")


@require_POST
def hand_preview_fragment(request, secret):
    """The live preview the entry form's script shows as the scorekeeper taps."""
    page = TablePage(request, secret)
    form = page.hand_form(request.POST)
    context = {"page": page}
    if form.is_valid():
        try:
            result = sheets.hand_preview(table=page.table, entry=_entry(form.cleaned_data))
        except ServiceError as error:
            context["problem"] = error.message
        else:
            context["preview"] = _preview_context(result)
    else:
        context["incomplete"] = True
    return render(request, "table/_preview.html", context)


def hand_edit(request, secret, sequence):
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence, bid_level__isnull=False)
    if not page.can_edit:
        messages.error(request, "This sheet is signed and locked. Ask the tournament scorekeeper for any correction.")
        return redirect("table", secret=secret)
    initial = {"version": page.table.version, **sheets.hand_snapshot(hand)}
    form = HandForm(request.POST or None, seats=page.seats, initial=initial, prefix="hand")
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        update = partial(sheets.hand_update, hand=hand, entry=_entry(data), **change_of(request, data))
        response = sheet_form_run(
            request, secret, form, update, f"Hand {hand.hand_number} changed; the sheet is rescored."
        )
        if response is not None:
            return response
    context = {**page.context(), "form": form, "hand": hand}
    return render(request, "table/hand_edit.html", context, status=400 if form.errors else 200)


def remove_and_return(request, secret, remove, done: str):
    """Run a removal service with the sheet's version and the correction's reason, then back to the sheet."""
    form = RemoveForm(request.POST)
    if form.is_valid():
        try:
            remove(**change_of(request, form.cleaned_data))
        except StaleSheet as error:
            return stale(request, secret, error)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done)
    return redirect("table", secret=secret)


@require_POST
def hand_remove(request, secret, sequence):
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence)
    return remove_and_return(request, secret, partial(sheets.hand_remove, hand=hand), "Removed; the sheet is rescored.")


@require_POST
def redeal_add(request, secret):
    page = TablePage(request, secret)
    form = page.redeal_form(request.POST)
    record = partial(sheets.redeal_record, table=page.table, actor=request_actor(request))
    done = "Re-deal recorded: hand {0.hand_number} is dealt again.".format
    return sheet_form_post(request, page, form, record, done, redeal_form=form, open_form="redeal")


@require_POST
def first_dealer_set(request, secret):
    page = TablePage(request, secret)
    form = page.first_dealer_form(request.POST)

    def name(**data):
        return sheets.table_first_dealer_set(table=page.table, seat=data["seat"], **change_of(request, data))

    return sheet_form_post(request, page, form, name, "First dealer named.", first_dealer_form=form)
