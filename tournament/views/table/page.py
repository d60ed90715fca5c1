"""The table page: everything it shows, read once in a fixed number of queries, and never rescored."""

from django.contrib import messages
from django.shortcuts import redirect, render

from scoring import Pair
from tournament import selectors
from tournament.errors import ServiceError
from tournament.forms.table import (
    DisputeForm,
    FirstDealerForm,
    HandForm,
    PenaltyForm,
    RedealForm,
    RemoveForm,
    SettleEntriesForm,
    SettleForm,
    SignForm,
)
from tournament.models import Round, Tournament
from tournament.services.sheets import StaleSheet
from tournament.services.sheets.write import may_change
from tournament.views.common import request_actor


def form_error(request, form, error: ServiceError) -> None:
    """A refusal about one field goes beside it; any other at the top of the page, where it is seen."""
    if error.field in form.fields:
        form.add_error(error.field, error.message)
    else:
        messages.error(request, error.message)


def change_of(request, data) -> dict:
    """What every change to a sheet carries: the version seen, who, why, and a confirmed knock-on."""
    return {
        "version": data["version"],
        "actor": request_actor(request),
        "reason": data["reason"],
        "confirm_knock_on": data["confirm_knock_on"],
        "director_ruling": data["director_ruling"],
    }


def stale(request, secret: str, error: StaleSheet):
    messages.error(request, error.message)
    return redirect("table", secret=secret)


def sheet_form_run(request, secret: str, form, service, done):
    """Run a sheet service for a valid form and go back to the sheet saying ``done`` (text, or a function of
    the result); a stale sheet goes back with the news; any other refusal stays on the form (None)."""
    try:
        result = service()
    except StaleSheet as error:
        return stale(request, secret, error)
    except ServiceError as error:
        form_error(request, form, error)
        return None
    messages.success(request, done(result) if callable(done) else done)
    return redirect("table", secret=secret)


def sheet_form_post(request, page: "TablePage", form, service, done, **refused):
    """A form posted from the table page: ``service(**form.cleaned_data)`` as ``sheet_form_run`` runs it; an
    invalid or refused form shows the page again with it (``refused`` puts it in the page's context)."""
    if form.is_valid():
        response = sheet_form_run(request, page.table.secret, form, lambda: service(**form.cleaned_data), done)
        if response is not None:
            return response
    return render_page(request, page, status=400, **refused)


class TablePage:
    """Everything the table page shows, loaded once with a fixed number of queries."""

    def __init__(self, request, secret):
        self.request = request
        self.table = selectors.table_by_secret(secret)
        self.round = self.table.round
        self.tournament = self.round.tournament
        self.rules = self.tournament.rules
        actor = request_actor(request)
        self.staff = actor.is_staff
        self.director = actor.is_director
        self.seats = selectors.table_seats(self.table)
        sheet = selectors.table_sheet(self.table)
        self.hands = sheet.hands
        self.rulings = sheet.rulings
        self.signatures = sheet.signatures
        self.submissions = list(self.table.submissions.order_by("sequence", "pair"))
        self.changeable_hands = {hand.pk for hand in self.hands if may_change(actor, hand)}
        self.removable_hands = {
            hand.pk
            for hand in self.hands
            if hand.pk in self.changeable_hands and all(may_change(actor, p) for p in hand.penalties.all())
        }
        self.changeable_penalties = {
            penalty.pk for penalty in self.all_penalties() if may_change(actor, penalty) and penalty.removable
        }

    def all_penalties(self) -> list:
        return [penalty for hand in self.hands for penalty in hand.penalties.all()] + self.rulings

    @property
    def locked(self) -> bool:
        return self.table.signed or self.round.status == Round.Status.CLOSED

    @property
    def can_edit(self) -> bool:
        return self.staff or not self.locked

    @property
    def accept_mode(self) -> bool:
        return self.tournament.sheet_mode == Tournament.SheetMode.ACCEPT

    @property
    def enters_here(self) -> bool:
        """Hands are entered on this page, except in blind double entry (each team on its own page)."""
        return self.staff or self.tournament.sheet_mode != Tournament.SheetMode.DOUBLE

    @property
    def both_entered(self) -> bool:
        return len({submission.pair for submission in self.submissions}) == 2

    @property
    def next_dealer(self) -> str:
        """The proposed dealer with the player's name: "East (Bo Jones)"."""
        for view in self.seats:
            if view.seat == self.table.next_dealer:
                return f"{view.label} ({view.player.name})" if view.player else view.label
        return ""

    def initial(self) -> dict:
        return {"version": self.table.version}

    def hand_form(self, data=None):
        initial = {**self.initial(), "dealer": self.table.next_dealer or None}
        return HandForm(data, seats=self.seats, initial=initial, prefix="hand")

    def redeal_form(self, data=None):
        initial = {**self.initial(), "dealer": self.table.next_dealer or None}
        return RedealForm(data, seats=self.seats, initial=initial, prefix="redeal")

    def penalty_form(self, data=None):
        return PenaltyForm(data, hands=self.hands, staff=self.staff, initial=self.initial(), prefix="penalty")

    def first_dealer_form(self, data=None):
        initial = {**self.initial(), "seat": self.table.first_dealer or None}
        return FirstDealerForm(data, seats=self.seats, initial=initial, prefix="first")

    def sign_forms(self, data=None, pair=None):
        forms = []
        for side in Pair:
            team = self.table.team_at(side)
            players = [member.player for member in team.members]
            bound = data if pair == side else None
            form = SignForm(bound, players=players, initial={**self.initial(), "pair": side}, prefix=f"sign-{side}")
            forms.append((side, team, self.signatures.get(side), form))
        return forms

    def context(self, **overrides) -> dict:
        context = {
            "page": self,
            "table": self.table,
            "round": self.round,
            "tournament": self.tournament,
            "event": self.tournament.event,
            "seats": self.seats,
            "hands": self.hands,
            "rulings": self.rulings,
            "hand_form": self.hand_form(),
            "redeal_form": self.redeal_form(),
            "penalty_form": self.penalty_form(),
            "first_dealer_form": self.first_dealer_form(),
            "sign_forms": self.sign_forms() if self.table.complete and not self.table.signed else [],
            "signatures": self.signatures,
            "remove_form": RemoveForm(initial=self.initial()),
            "dispute_form": DisputeForm(initial=self.initial(), prefix="dispute"),
            "settle_form": SettleForm(initial=self.initial(), prefix="settle"),
            "settle_entries_form": SettleEntriesForm(initial=self.initial(), prefix="entries"),
        }
        context.update(overrides)
        return context


def render_page(request, page: TablePage, status=200, **overrides):
    return render(request, "table/table.html", page.context(**overrides), status=status)
