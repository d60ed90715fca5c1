"""Entering hands and re-deals at the table, taking back a hand just saved, editing hands, and naming the
first dealer.

With JavaScript a hand takes three taps, four with the trump (bidder, bid, trump, books): the tap on the
books saves it through the phone's queue (see ``sync``), and the sheet then offers "Undo hand 3" until
anything else changes on it. Without JavaScript, "Show points" opens a check page and "Save" records the
hand: two page loads, and the same undo after.
"""

import uuid
from functools import partial

from django.http import QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.errors import ServiceError
from tournament.forms.table import HandForm, VersionForm, bid_value, hand_entry
from tournament.models import Hand, LogEntry, Table
from tournament.pagecache.private import private_answer
from tournament.services import sheets
from tournament.services.sheets import StaleSheet
from tournament.views.common import form_error, refusal_say, service_run
from tournament.views.table.page import (
    TAKEN_BACK,
    UNDO,
    TablePage,
    back_to_sheet,
    change_of,
    entry_overtaken,
    refused,
    render_page,
    sheet_form_post,
    sheet_form_run,
    table_page_etag,
)

CHECK = "table_check"


def table_page(request, secret):
    """The sheet; 304 to the phone that has it as it stands (``pagecache.private``)."""
    table = selectors.table_by_secret(secret, seated=False)
    return private_answer(
        request,
        lambda secret_given: table_page_etag(request, table, secret=secret_given),
        lambda: render_page(request, TablePage(request, secret, table=table)),
    )


def preview_context(result, hand: Hand | None = None) -> dict:
    """The points of the hand entered (the last line), or of ``hand`` as changed, and the totals after it."""
    line = result.lines[-1]
    if hand is not None:
        line = next(line for line in result.lines if line.hand_number == hand.hand_number and line.hand is not None)
    return {
        "line": line,
        "ns": line.points("NS"),
        "ew": line.points("EW"),
        "ns_total": result.totals["NS"],
        "ew_total": result.totals["EW"],
        "complete": result.complete,
        "winner": result.winner,
    }


def hand_saved(hand: Hand) -> str:
    return f"Hand {hand.hand_number} saved: North–South {hand.ns_points}, East–West {hand.ew_points}."


def version_after(hand: Hand, entry_id: str) -> int:
    """The sheet's version just after this entry was recorded, however often it was sent."""
    if Hand.table.is_cached(hand):
        # Recorded by this very request: its table is the one the save locked and moved on.
        return hand.table.version
    recorded = (
        LogEntry.objects.filter(table_id=hand.table_id, action=LogEntry.Action.HAND_ADDED, after__entry_id=entry_id)
        .values_list("version", flat=True)
        .first()
    )
    return recorded if recorded is not None else Table.objects.values_list("version", flat=True).get(pk=hand.table_id)


def undo_offer(request, secret: str, hand: Hand, version: int) -> None:
    """Offer the phone that saved ``hand`` to take it back (a tap on the wrong books, or too soon) for as long as
    the sheet stays at the ``version`` the save left it at."""
    number, saved = hand.hand_number, hand_saved(hand)
    request.session[UNDO] = {"secret": secret, "version": version, "hand": hand.pk, "number": number, "saved": saved}


def hand_initial(hand: Hand) -> dict:
    """A played hand as its form's answers."""
    assert hand.level is not None, "a hand played has a bid"
    return {**sheets.hand_snapshot(hand), "bid": bid_value(hand.level, hand.kind)}


def _posted(request) -> dict:
    return {key: request.POST.getlist(key) for key in request.POST if key != "csrfmiddlewaretoken"}


@require_POST
def hand_add(request, secret):
    """Save a confirmed hand; without the confirm flag, check it first on the check page."""
    page = TablePage(request, secret)
    form = page.hand_form(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        if data["confirm"]:
            kept = request.session.get(CHECK)
            if kept and kept["entry_id"] == request.POST.get("entry_id"):
                del request.session[CHECK]  # answered: going back to the check page opens the sheet
            return sheet_form_run(page, "hand", form, partial(_hand_record, page, form), hand_saved)
        else:
            try:
                sheets.hand_preview(table=page.table, entry=hand_entry(data), actor=page.actor)
            except ServiceError as error:
                form_error(form, error)
            else:
                request.session[CHECK] = {"secret": secret, "data": _posted(request), "entry_id": uuid.uuid4().hex}
                return redirect("table_hand_check", secret=secret)
    return refused(page, "hand", form)


def _hand_record(page: TablePage, form) -> Hand:
    """Record the form's hand, offering this phone to undo it. One another device's change overtook comes back in
    the form as the hand now next, saying what changed, with the dealer now proposed, the rest as typed and the
    sheet's version now."""
    request, data = page.request, form.cleaned_data
    entry_id = request.POST.get("entry_id", "")
    try:
        hand = sheets.hand_record(
            table=page.table, entry=hand_entry(data), entry_id=entry_id, context=change_of(request, data)
        )
    except StaleSheet as error:
        message, dealer = entry_overtaken(page, error, data)
        kept = form.data.copy()
        kept[form["dealer"].html_name] = dealer
        kept[form["version"].html_name] = page.table.version
        kept.pop(form["confirm"].html_name, None)
        form.data = kept
        raise ServiceError(message) from None
    undo_offer(request, page.table.secret, hand, version_after(hand, entry_id))
    return hand


def hand_check(request, secret):
    """The hand as it will be saved, with its points and the new totals: one tap saves it.

    The check carries its own entry id, so tapping "Save" twice (or refreshing after) records it once.
    """
    page = TablePage(request, secret)
    kept = request.session.get(CHECK)
    if not kept or kept["secret"] != secret:
        return back_to_sheet(page)
    data = QueryDict(mutable=True)
    for key, values in kept["data"].items():
        data.setlist(key, values)
    form = page.hand_form(data)
    if not form.is_valid():
        return back_to_sheet(page)
    try:
        result = sheets.hand_preview(table=page.table, entry=hand_entry(form.cleaned_data), actor=page.actor)
    except ServiceError as error:
        refusal_say(request, error.message)
        return back_to_sheet(page)
    confirm = form["confirm"].html_name
    posted = [(key, value) for key, values in kept["data"].items() if key != confirm for value in values]
    context = {
        **page.context(),
        "form": form,
        "posted": posted,
        "preview": preview_context(result),
        "entry_id": kept["entry_id"],
    }
    return render(request, "table/confirm.html", context)


@require_POST
def hand_preview_fragment(request, secret):
    """The points and totals the entry form shows as the scorekeeper taps (htmx), and the button that
    saves the hand once they show."""
    page = TablePage(request, secret)
    return _preview_fragment(request, page, page.hand_form(request.POST))


@require_POST
def hand_edit_preview_fragment(request, secret, sequence):
    """The same points and totals on the page that changes a played hand, with that hand as changed."""
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence, level__isnull=False)
    form = page._form("edit", HandForm, request.POST, **page.hand_form_options())
    return _preview_fragment(request, page, form, hand)


def _preview_fragment(request, page, form, hand: Hand | None = None):
    context = {"page": page, "table": page.table}
    if form.is_valid():
        try:
            result = sheets.hand_preview(table=page.table, entry=hand_entry(form.cleaned_data), hand=hand)
        except ServiceError as error:
            context["problem"] = error.message
        else:
            context["preview"] = preview_context(result, hand)
    return render(request, "table/_preview.html", context)


def hand_edit(request, secret, sequence):
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence, level__isnull=False)
    if not page.can_edit:
        refusal_say(request, "This sheet is signed and locked. Ask the tournament scorekeeper for any correction.")
        return back_to_sheet(page)
    here = reverse("table_hand_edit", args=[secret, sequence])
    initial = {"version": page.table.version, **hand_initial(hand)}
    form = page._form("edit", HandForm, request.POST or None, **page.hand_form_options(), initial=initial)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            update = partial(sheets.hand_update, hand=hand, entry=hand_entry(data), context=change_of(request, data))
            done = f"Hand {hand.hand_number} changed; the sheet is rescored."
            return sheet_form_run(page, "edit", form, update, done, anchor=f"hand-{hand.sequence}", to=here)
        return refused(page, "edit", form, to=here)
    return render(request, "table/hand_edit.html", {**page.context(), "form": form, "hand": hand})


@require_POST
def redeal_add(request, secret):
    page = TablePage(request, secret)
    form = page.redeal_form(request.POST)

    def record(**data):
        return sheets.redeal_record(
            table=page.table,
            dealer=data["dealer"],
            reason=data["reason"],
            team=data["team"],
            context=change_of(request, data, reason_field="note"),
        )

    done = "Re-deal recorded: hand {0.hand_number} is dealt again.".format
    return sheet_form_post(page, "redeal", form, record, done)


@require_POST
def first_dealer_set(request, secret):
    page = TablePage(request, secret)
    form = page.first_dealer_form(request.POST)

    def name(**data):
        return sheets.table_first_dealer_set(table=page.table, seat=data["seat"], context=change_of(request, data))

    return sheet_form_post(page, "first", form, name, "First dealer named.")


@require_POST
def hand_undo(request, secret):
    """Take back the hand this phone just saved, while nothing changed on the sheet since (another phone's hand,
    an acceptance, a signature): it comes off the sheet and opens again in the form as it was entered, to be
    corrected and saved."""
    page = TablePage(request, secret)
    form = VersionForm(request.POST)
    offer = page.undo
    if not form.is_valid() or offer is None or "hand" not in offer:
        refusal_say(request, "There is nothing to undo: the sheet changed since, or the hand was undone already.")
        return back_to_sheet(page)
    hand = get_object_or_404(Hand, table=page.table, pk=offer["hand"])
    entry = hand_initial(hand)
    remove = partial(sheets.hand_remove, hand=hand, context=change_of(request, form.cleaned_data))
    done = f"Hand {hand.hand_number} undone: it is off the sheet. Correct it below, then save it again."
    if not service_run(request, remove, done).done:
        return back_to_sheet(page)
    del request.session[UNDO]
    request.session[TAKEN_BACK] = {"secret": secret, "entry": entry}
    return back_to_sheet(page)
