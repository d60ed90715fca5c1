"""The table scorekeeper's pages, opened by the table's private link; staff may open any table."""

from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournament import selectors
from tournament.errors import ServiceError
from tournament.forms.table import (
    DisputeForm,
    FirstDealerForm,
    HandForm,
    PenaltyForm,
    RedealForm,
    RemoveForm,
    SettleForm,
    SignForm,
)
from tournament.models import Hand, Pair, Penalty, Round
from tournament.roles import is_scorekeeper
from tournament.services import sheets
from tournament.services.recompute import Sheet, sheet_score
from tournament.services.sheets import HandEntry, StaleSheet


def _form_error(request, form, error: ServiceError) -> None:
    """A refusal about one field goes beside it; any other at the top of the page, where it is seen."""
    if error.field in form.fields:
        form.add_error(error.field, error.message)
    else:
        messages.error(request, error.message)


def _user(request):
    return request.user if request.user.is_authenticated else None


def _change(request, data) -> dict:
    """What every change to a sheet carries: the version seen, who, why, and a confirmed knock-on."""
    return {
        "version": data["version"],
        "user": _user(request),
        "reason": data["reason"],
        "confirm_knock_on": data["confirm_knock_on"],
    }


class TablePage:
    """Everything the table page shows, loaded once with a fixed number of queries."""

    def __init__(self, request, secret):
        self.request = request
        self.table = selectors.table_by_secret(secret)
        self.round = self.table.round
        self.tournament = self.round.tournament
        self.rules = self.tournament.rules
        self.staff = is_scorekeeper(request.user)
        self.seats = selectors.table_seats(self.table)
        sheet = selectors.table_sheet(self.table)
        self.hands = sheet["hands"]
        self.rulings = sheet["rulings"]
        self.signatures = sheet["signatures"]
        engine_sheet = Sheet(
            table=self.table,
            hands=self.hands,
            penalties={hand.pk: list(hand.penalties.all()) for hand in self.hands},
            rulings=self.rulings,
        )
        self.score = sheet_score(engine_sheet).result

    @property
    def locked(self) -> bool:
        return self.table.signed or self.round.status == Round.Status.CLOSED

    @property
    def can_edit(self) -> bool:
        return self.staff or not self.locked

    def seat_label(self, seat: str) -> str:
        for view in self.seats:
            if view.seat == seat:
                return f"{view.label} ({view.player.name})" if view.player else view.label
        return seat

    def initial(self) -> dict:
        return {"version": self.table.version}

    def hand_form(self, data=None):
        initial = {**self.initial(), "dealer": self.score.next_dealer}
        return HandForm(data, seats=self.seats, initial=initial, prefix="hand")

    def redeal_form(self, data=None):
        initial = {**self.initial(), "dealer": self.score.next_dealer}
        return RedealForm(data, seats=self.seats, initial=initial, prefix="redeal")

    def penalty_form(self, data=None):
        return PenaltyForm(data, hands=self.hands, staff=self.staff, initial=self.initial(), prefix="penalty")

    def first_dealer_form(self, data=None):
        initial = {**self.initial(), "seat": self.table.first_dealer or None}
        return FirstDealerForm(data, seats=self.seats, initial=initial, prefix="first")

    def sign_forms(self, data=None, pair=None):
        forms = []
        for side in (Pair.NORTH_SOUTH, Pair.EAST_WEST):
            team = self.table.team_at(side)
            players = [member.player for member in team.members]
            bound = data if pair == side else None
            form = SignForm(bound, players=players, initial={**self.initial(), "pair": side}, prefix=f"sign-{side}")
            forms.append((side, team, self.signatures.get(side), form))
        return forms

    def context(self, **overrides) -> dict:
        lines = list(zip(self.hands, self.score.lines, strict=True))
        context = {
            "page": self,
            "table": self.table,
            "round": self.round,
            "tournament": self.tournament,
            "event": self.tournament.event,
            "seats": self.seats,
            "lines": lines,
            "rulings": self.rulings,
            "score": self.score,
            "next_dealer": self.seat_label(self.score.next_dealer) if self.score.next_dealer else "",
            "hand_form": self.hand_form(),
            "redeal_form": self.redeal_form(),
            "penalty_form": self.penalty_form(),
            "first_dealer_form": self.first_dealer_form(),
            "sign_forms": self.sign_forms() if self.table.complete and not self.table.signed else [],
            "signatures": self.signatures,
            "remove_form": RemoveForm(initial=self.initial()),
            "dispute_form": DisputeForm(initial=self.initial(), prefix="dispute"),
            "settle_form": SettleForm(initial=self.initial(), prefix="settle"),
        }
        context.update(overrides)
        return context


def _render(request, page: TablePage, status=200, **overrides):
    return render(request, "table/table.html", page.context(**overrides), status=status)


def _stale(request, page_secret, error: StaleSheet):
    messages.error(request, error.message)
    return redirect("table", secret=page_secret)


def table_page(request, secret):
    page = TablePage(request, secret)
    return _render(request, page)


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


def _preview_context(page: TablePage, result, index: int | None = None):
    line = result.lines[index if index is not None else -1]
    return {
        "line": line,
        "ns": line.points("NS"),
        "ew": line.points("EW"),
        "ns_total": result.totals["NS"],
        "ew_total": result.totals["EW"],
        "complete": result.complete,
        "winner": result.winner,
    }


@require_POST
def hand_add(request, secret):
    """Enter a hand. Without the confirm flag the points are shown first (the no-JavaScript path)."""
    page = TablePage(request, secret)
    form = page.hand_form(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            if not data["confirm"]:
                result = sheets.hand_preview(table=page.table, entry=_entry(data))
                context = {**page.context(), "form": form, "preview": _preview_context(page, result)}
                return render(request, "table/confirm.html", context)
            hand = sheets.hand_record(table=page.table, entry=_entry(data), **_change(request, data))
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            messages.success(
                request, f"Hand {hand.hand_number} saved: North–South {hand.ns_points}, East–West {hand.ew_points}."
            )
            return redirect("table", secret=secret)
    return _render(request, page, status=400, hand_form=form, open_form="hand")


@require_POST
def hand_preview_fragment(request, secret):
    """The live preview the entry form's script shows as the scorekeeper taps."""
    page = TablePage(request, secret)
    form = page.hand_form(request.POST)
    context = {"page": page}
    if form.is_valid():
        try:
            result = sheets.hand_preview(table=page.table, entry=_entry(form.cleaned_data))
            context["preview"] = _preview_context(page, result)
        except ServiceError as error:
            context["problem"] = error.message
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
        try:
            sheets.hand_update(hand=hand, entry=_entry(data), **_change(request, data))
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            messages.success(request, f"Hand {hand.hand_number} changed; the sheet is rescored.")
            return redirect("table", secret=secret)
    context = {**page.context(), "form": form, "hand": hand}
    return render(request, "table/hand_edit.html", context, status=400 if form.errors else 200)


def _remove(request, secret, remove, done: str):
    """Run a removal service with the sheet's version and the correction's reason, then back to the sheet."""
    form = RemoveForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            remove(**_change(request, data))
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done)
    return redirect("table", secret=secret)


@require_POST
def hand_remove(request, secret, sequence):
    page = TablePage(request, secret)
    hand = get_object_or_404(Hand, table=page.table, sequence=sequence)
    return _remove(request, secret, partial(sheets.hand_remove, hand=hand), "Removed; the sheet is rescored.")


@require_POST
def redeal_add(request, secret):
    page = TablePage(request, secret)
    form = page.redeal_form(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            hand = sheets.redeal_record(
                table=page.table,
                version=data["version"],
                dealer=data["dealer"],
                reason=data["redeal_reason"],
                team=data["team"],
                user=_user(request),
                note=data["reason"],
            )
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            if error.field == "reason":
                error.field = "redeal_reason"
            _form_error(request, form, error)
        else:
            messages.success(request, f"Re-deal recorded: hand {hand.hand_number} is dealt again.")
            return redirect("table", secret=secret)
    return _render(request, page, status=400, redeal_form=form, open_form="redeal")


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
                **_change(request, data),
            )
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            messages.success(request, f"Penalty recorded: {penalty.description}.")
            return redirect("table", secret=secret)
    return _render(request, page, status=400, penalty_form=form, open_form="penalty")


@require_POST
def penalty_remove(request, secret, penalty_id):
    page = TablePage(request, secret)
    penalty = get_object_or_404(Penalty, table=page.table, pk=penalty_id)
    remove = partial(sheets.penalty_remove, penalty=penalty)
    return _remove(request, secret, remove, "Penalty removed; the sheet is rescored.")


@require_POST
def first_dealer_set(request, secret):
    page = TablePage(request, secret)
    form = page.first_dealer_form(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            sheets.table_first_dealer_set(
                table=page.table, version=data["version"], seat=data["seat"], user=_user(request), reason=data["reason"]
            )
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            return redirect("table", secret=secret)
    return _render(request, page, status=400, first_dealer_form=form)


@require_POST
def sheet_sign(request, secret):
    page = TablePage(request, secret)
    pair = next((side for side in Pair.values if f"sign-{side}-pair" in request.POST), "")
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
                user=_user(request),
            )
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            messages.success(request, f"Signed by {signature.player.name} for {signature.get_pair_display()}.")
            return redirect("table", secret=secret)
    return _render(request, page, status=400, sign_forms=forms)


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
                table=page.table, version=data["version"], pair=data["pair"], note=data["note"], user=_user(request)
            )
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            messages.success(request, "The director has been called; sign once the dispute is settled.")
            return redirect("table", secret=secret)
    return _render(request, page, status=400, dispute_form=form, open_form="dispute")


@require_POST
def sheet_settle(request, secret):
    page = TablePage(request, secret)
    form = SettleForm(request.POST, prefix="settle")
    if form.is_valid():
        data = form.cleaned_data
        try:
            sheets.sheet_dispute_resolve(
                table=page.table, version=data["version"], user=_user(request), reason=data["reason"]
            )
        except StaleSheet as error:
            return _stale(request, secret, error)
        except ServiceError as error:
            _form_error(request, form, error)
        else:
            messages.success(request, "Dispute settled: the teams can sign.")
            return redirect("table", secret=secret)
    return _render(request, page, status=400, settle_form=form)
