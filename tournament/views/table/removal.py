"""Removing a hand or a penalty: asked once, saying what goes and which signatures it voids; the last
removal can be undone from the message that follows."""

from functools import partial

from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament.forms.table import RemoveForm, VersionForm
from tournament.models import Hand, LogEntry, Penalty
from tournament.services import sheets
from tournament.services.sheets import ChangeContext
from tournament.views.common import refusal_say, request_actor, service_run
from tournament.views.table.page import UNDO, TablePage, back_to_sheet, change_of


def _confirm_and_remove(request, page: TablePage, *, what: str, details: list[str], remove, here: str):
    """Show what a removal takes away (GET); remove it and offer to undo it (POST)."""
    if not page.can_edit:
        refusal_say(request, "This sheet is signed and locked. Ask the tournament scorekeeper for any correction.")
        return back_to_sheet(page)
    form = RemoveForm(request.POST or None, initial=page.initial())
    if request.method == "POST" and form.is_valid():
        ran = service_run(
            request,
            lambda: remove(context=change_of(request, form.cleaned_data)),
            lambda removal: f"{removal.summary}; the sheet is rescored.",
            form=form,
        )
        if ran.done:
            removal = ran.result
            assert isinstance(removal, LogEntry), "a removal returns its entry in the history"
            request.session[UNDO] = {
                "secret": page.table.secret,
                "removal": removal.pk,
                "version": removal.version,
                "summary": removal.summary,
                "ruling": form.cleaned_data.get("director_ruling", False),
            }
        if not ran.in_form:
            return back_to_sheet(page)
    context = {
        **page.context(),
        "form": form,
        "what": what,
        "details": details,
        "voids": [] if page.locked else list(page.sheet.signatures.values()),
        "action": here,
    }
    return render(request, "table/remove.html", context, status=400 if form.errors else 200)


def hand_remove(request, secret, sequence):
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence)
    what = f"Hand {hand.hand_number}: {hand.bid_text} by {hand.get_bidder_display()}, {hand.books} books"
    if not hand.counts:
        what = f"The re-deal of hand {hand.hand_number}"
    details = [f"Its penalty: {penalty.description}" for penalty in hand.penalties.all()]
    details.append("Every later hand moves up one and the sheet is rescored.")
    return _confirm_and_remove(
        request,
        page,
        what=what,
        details=details,
        remove=partial(sheets.hand_remove, hand=hand),
        here=reverse("table_hand_remove", args=[secret, sequence]),
    )


def penalty_remove(request, secret, penalty_id):
    page = TablePage(request, secret)
    penalty = get_object_or_404(Penalty, table=page.table, pk=penalty_id)
    return _confirm_and_remove(
        request,
        page,
        what=f"The penalty: {penalty.description}",
        details=["The sheet is rescored without it."],
        remove=partial(sheets.penalty_remove, penalty=penalty),
        here=reverse("table_penalty_remove", args=[secret, penalty_id]),
    )


@require_POST
def removal_undo(request, secret):
    """Put back the removal this phone just made, if nothing changed on the sheet since. A removal the director
    confirmed as a ruling (it changed who won) is put back as the same ruling reversed; a refused undo stays
    on offer."""
    page = TablePage(request, secret)
    form = VersionForm(request.POST)
    if not form.is_valid() or page.undo is None or "removal" not in page.undo:
        refusal_say(request, "There is nothing to undo: the sheet changed since, or the removal was undone.")
        return back_to_sheet(page)
    removal = get_object_or_404(LogEntry, pk=page.undo["removal"], table=page.table)
    undo = partial(
        sheets.removal_undo,
        table=page.table,
        removal=removal,
        context=ChangeContext(
            version=form.cleaned_data["version"],
            actor=request_actor(request),
            reason=f"Undo: {removal.summary}" if page.locked else "",
            director_ruling=page.undo.get("ruling", False),
        ),
    )
    if service_run(request, undo, f"Put back: {removal.summary.removeprefix('Removed').lstrip(': ')}.").done:
        del request.session[UNDO]
    return back_to_sheet(page)
