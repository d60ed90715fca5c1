"""The table page: everything it shows, read once in a fixed number of queries, and never rescored.

Every POST ends in a redirect (a refresh never posts again). A refused form travels to the page in the
session with what was typed and why it was refused, and the page opens at the field concerned; so does a hand
just taken back (undone), to be corrected and saved again.
"""

from functools import cached_property

from django.contrib import messages
from django.http import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse

from scoring import Pair
from tournament import selectors
from tournament.forms.table import (
    DisputeForm,
    FirstDealerForm,
    HandForm,
    PenaltyForm,
    RedealForm,
    SettleEntriesForm,
    SettleForm,
    SignForm,
)
from tournament.models import Round, Table
from tournament.pagecache.private import private_etag
from tournament.selectors.clock import clock_state, clock_view, server_now_ms
from tournament.services.playoffs import seeding_changes
from tournament.services.sheets.write import ChangeContext, StaleSheet, may_change
from tournament.views.common import (
    earlier_messages_drop,
    first_error_focus,
    refusal_say,
    request_actor,
    service_run,
)
from tournament.views.device import COOKIE as DEVICE_COOKIE
from tournament.views.offline import offline_copy, offline_refresh
from tournament.views.team import SESSION_KEY as TEAM_CODES
from tournament.views.team import team_code_opened

REFUSED = "table_refused"
CARDS = "table_cards"
UNDO = "table_undo"
TAKEN_BACK = "table_taken_back"
ENTRY = "entry"
FORM_ANCHORS = {
    "hand": "hand-form",
    "edit": "main",
    "first": "first-dealer-form",
    "dispute": "dispute-call",
    "settle": "dispute",
    "entries": "double-entry",
}


def change_of(request, data, *, reason_field: str = "reason") -> ChangeContext:
    """What every change to a sheet carries: the version seen, who, why (the form's ``reason_field``), and a
    confirmed knock-on."""
    return ChangeContext(
        version=data["version"],
        actor=request_actor(request),
        reason=data.get(reason_field, ""),
        confirm_knock_on=data.get("confirm_knock_on", False),
        director_ruling=data.get("director_ruling", False),
    )


def entry_overtaken(page: "TablePage", error: StaleSheet, data: dict) -> tuple[str, str]:
    """A hand entry another device's change overtook, as it comes back to the scorekeeper (the phone's queue and
    the form alike): what changed and which hand it now is, and the dealer it comes back with, the one the sheet
    now proposes (unless the entry marked its dealer as out of turn); the rest stays as typed."""
    table = page.table
    table.refresh_from_db()
    said = f"The sheet changed on another device after this was entered: {error.changes}."
    if table.complete:
        complete = f"The round is complete ({table.ns_total}–{table.ew_total}): no hand is left for it."
        return f"{said} {complete}", data["dealer"]
    dealer = data["dealer"] if data.get("out_of_turn") or not table.next_dealer else table.next_dealer
    number = table.next_hand_number
    now = f", and the dealer is now {page.next_dealer}" if dealer != data["dealer"] else ""
    kept = "the rest is as you typed it" if now else "it is as you typed it"
    return f"{said} This entry is now hand {number}{now}; {kept}. Check it, then save it as hand {number}.", dealer


def back_to_sheet(page: "TablePage", anchor: str = ENTRY):
    """The sheet, opened where the scorekeeper carries on: the entry form, or a field to fix."""
    return redirect(f"{page.home}#{anchor}")


def refused(page: "TablePage", name: str, form, *, to: str = ""):
    """Keep a refused form for the page (``to``, else the sheet) to show again, opened at its first error, with
    what it holds (as posted, or as the view set it again: ``entry_overtaken``).

    A form the sheet does not draw now (signing a sheet not complete, a re-deal on a complete one) cannot show
    it: its refusal is said above the entry area instead, where the sheet opens.
    """
    request = page.request
    if not to and not page.draws(name):
        said = []
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            said += [f"{label}: {error}" if label else error for error in errors]
        refusal_say(request, " ".join(said))
        return back_to_sheet(page)
    earlier_messages_drop(request)
    request.session[REFUSED] = {
        "secret": page.table.secret,
        "form": name,
        "data": {key: form.data.getlist(key) for key in form.data if key != "csrfmiddlewaretoken"},
        "errors": {field: list(errors) for field, errors in form.errors.items()},
    }
    first = next((field for field in form.errors if field in form.fields), None)
    anchor = f"{form[first].auto_id}_group" if first else FORM_ANCHORS.get(name, name)
    return redirect(f"{to or page.home}#{anchor}")


def sheet_form_run(page: "TablePage", name: str, form, service, done, *, anchor: str = ENTRY, to: str = ""):
    """Run a sheet service for the valid form ``name`` (see ``service_run``) and go back to the sheet saying
    ``done``; a refusal is shown in the form, opened at the field concerned, where the page draws it (``to``,
    a page of its own, always does), else above the entry area."""
    drawn = bool(to) or page.draws(name)
    ran = service_run(page.request, service, done, form=form if drawn else None)
    if ran.done:
        return back_to_sheet(page, anchor)
    if ran.in_form:
        return refused(page, name, form, to=to)
    return back_to_sheet(page)


def sheet_form_post(page: "TablePage", name: str, form, service, done):
    """A form posted from the table page: ``service(**form.cleaned_data)`` as ``sheet_form_run`` runs it; an
    invalid form goes back to the page, shown again at the field concerned."""
    if form.is_valid():
        return sheet_form_run(page, name, form, lambda: service(**form.cleaned_data), done)
    return refused(page, name, form)


def card_remember(request, table: Table, card_secret: str) -> None:
    """A phone that opened a table through its table card goes back to the card after each change."""
    cards = request.session.get(CARDS, {})
    if cards.get(table.secret) != card_secret:
        request.session[CARDS] = {**cards, table.secret: card_secret}


class TablePage:
    """Everything the table page shows, loaded once with a fixed number of queries."""

    def __init__(self, request, secret, *, with_players: bool = True, table: Table | None = None):
        """``table``: the table of ``secret`` as ``table_by_secret(secret, seated=False)`` read it."""
        self.request = request
        if table is not None:
            self.table = selectors.table_seated(table)
        else:
            self.table = selectors.table_by_secret(secret, with_players=with_players)
        self.round = self.table.round
        self.tournament = self.round.tournament
        self.rules = self.tournament.rules
        self.actor = request_actor(request)
        self.staff = self.actor.is_staff
        self.director = self.actor.is_director
        self.seats = selectors.table_seats(self.table) if with_players else selectors.bare_seats()
        kept = request.session.get(REFUSED) if request.method == "GET" else None
        self.refused = kept if kept and kept.get("secret") == secret else None
        if self.refused:
            del request.session[REFUSED]
        back = request.session.get(TAKEN_BACK) if request.method == "GET" else None
        self.taken_back = back["entry"] if back and back["secret"] == secret else {}
        if self.taken_back:
            del request.session[TAKEN_BACK]
        undo = request.session.get(UNDO)
        self.undo = undo if undo and undo["secret"] == secret and undo["version"] == self.table.version else None
        card = request.session.get(CARDS, {}).get(secret)
        self.home = reverse("table_card", args=[card]) if card else reverse("table", args=[secret])

    # The sheet is read only when the page shows it: a save reads the table and its seats, nothing more.

    @cached_property
    def sheet(self):
        return selectors.table_sheet(self.table)

    @cached_property
    def submissions(self) -> list:
        return list(self.table.submissions.order_by("sequence", "pair"))

    @cached_property
    def changeable_hands(self) -> set[int]:
        return {hand.pk for hand in self.sheet.hands if may_change(self.actor, hand)}

    @cached_property
    def removable_hands(self) -> set[int]:
        return {
            hand.pk
            for hand in self.sheet.hands
            if hand.pk in self.changeable_hands and all(may_change(self.actor, p) for p in hand.penalties.all())
        }

    @cached_property
    def changeable_penalties(self) -> set[int]:
        return {p.pk for p in self.all_penalties() if may_change(self.actor, p) and p.removable}

    def all_penalties(self) -> list:
        return [penalty for hand in self.sheet.hands for penalty in hand.penalties.all()] + self.sheet.rulings

    @cached_property
    def seeding_changes(self) -> list[str]:
        """For staff correcting a qualifying sheet after the playoff was seeded: how the seeds now differ."""
        if not self.staff or self.round.kind != Round.Kind.QUALIFYING or not self.tournament.playoff_seeds.exists():
            return []
        return seeding_changes(self.tournament)

    @cached_property
    def clock(self):
        """The table's clock as the server counts it now; None when the round's clock has not started."""
        return clock_view(self.table, self.rules)

    @property
    def server_now_ms(self) -> int:
        """The server's time as the page is drawn, for the script that dates the phone's entries by it."""
        return server_now_ms()

    @property
    def time_callable(self) -> bool:
        """Whether the page offers to end the round at time: once the table's time is up (staff: once its clock
        runs), on a sheet still playing."""
        table = self.table
        if table.time_called_at is not None or table.complete or table.signed or self.clock is None:
            return False
        return self.staff or self.clock.up

    @property
    def locked(self) -> bool:
        return self.table.signed or self.round.status == Round.Status.CLOSED

    @property
    def can_edit(self) -> bool:
        return self.staff or not self.locked

    @property
    def enters_here(self) -> bool:
        """Hands are entered on this page, except in blind double entry (each team on its own page)."""
        return self.staff or not self.tournament.double_entry

    @property
    def both_entered(self) -> bool:
        return len({submission.pair for submission in self.submissions}) == 2

    def _drawn(self, open_form: str) -> dict[str, bool]:
        table, playing = self.table, not self.table.complete
        edit = self.can_edit
        entering = bool(table.first_dealer or self.sheet.hands) or open_form == "hand"
        return {
            "first": edit and not table.first_dealer and not self.sheet.hands,
            "entries": edit and self.tournament.double_entry and playing and self.staff and self.both_entered,
            "hand": edit and self.enters_here and playing and entering,
            "redeal": edit and self.enters_here and playing,
            "penalty": edit and bool(self.sheet.hands or self.staff),
            "signing": table.complete and not table.signed and not table.disputed_at,
            "dispute": not table.signed and not table.disputed_at,
            "settle": bool(table.disputed_at) and self.staff,
        }

    @cached_property
    def drawn(self) -> dict[str, bool]:
        """Which of its forms the sheet draws now (the template draws them by this); a refused form is open."""
        return self._drawn(self.open_form)

    def draws(self, name: str) -> bool:
        """Whether the sheet draws the form ``name`` opened with its refusal ("sign-NS": while North–South have
        not signed)."""
        if name.startswith("sign-"):
            return self.drawn["signing"] and name.removeprefix("sign-") not in self.sheet.signatures
        return self._drawn(name).get(name, False)

    @property
    def open_form(self) -> str:
        """The form shown open: the one that was just refused."""
        return self.refused["form"] if self.refused else ""

    @property
    def next_dealer(self) -> str:
        """The proposed dealer with the player's name: "East (Bo Jones)"."""
        for view in self.seats:
            if view.seat == self.table.next_dealer:
                return f"{view.label} ({view.name})" if view.player else view.label
        return ""

    def initial(self) -> dict:
        return {"version": self.table.version}

    def _form(self, name: str, form_class, data=None, **kwargs):
        """A form of the page; bound to ``data``, or to what was typed when it was refused just now, with the
        refusals beside its fields."""
        if data is not None or not self.refused or self.refused["form"] != name:
            return form_class(data, **kwargs)
        kept = QueryDict(mutable=True)
        for key, values in self.refused["data"].items():
            kept.setlist(key, values)
        form = form_class(kept, **kwargs)
        form.is_valid()
        for field, errors in self.refused["errors"].items():
            for error in errors:
                if error not in form.errors.get(field, []):
                    form.add_error(None if field == "__all__" else field, error)
        first_error_focus(form)
        return form

    def hand_form_options(self) -> dict:
        return {"seats": self.seats, "min_bid": self.rules.min_bid, "prefix": "hand"}

    def hand_form(self, data=None):
        """The next hand's form: the dealer proposed, or the hand just taken back as it was entered."""
        initial = {**self.initial(), "dealer": self.table.next_dealer or None, **self.taken_back}
        return self._form("hand", HandForm, data, **self.hand_form_options(), initial=initial)

    def redeal_form(self, data=None):
        initial = {**self.initial(), "dealer": self.table.next_dealer or None}
        return self._form("redeal", RedealForm, data, seats=self.seats, initial=initial, prefix="redeal")

    def penalty_form(self, data=None):
        return self._form(
            "penalty",
            PenaltyForm,
            data,
            hands=self.sheet.hands,
            staff=self.staff,
            initial=self.initial(),
            prefix="penalty",
        )

    def first_dealer_form(self, data=None):
        initial = {**self.initial(), "seat": self.table.first_dealer or None}
        return self._form("first", FirstDealerForm, data, seats=self.seats, initial=initial, prefix="first")

    def signers(self, side: Pair) -> dict[str, selectors.SeatView]:
        """Who may sign for the team at ``side``, by the sign form's value."""
        return {seat.signer: seat for seat in selectors.team_signers(self.seats, side)}

    @cached_property
    def opened_codes(self) -> dict[Pair, str]:
        """The code of each team whose page this phone opened with it: that team signs and accepts hands here
        without typing it again."""
        codes = {side: team_code_opened(self.request, team) for side, team in self.table.sides if team}
        return {side: code for side, code in codes.items() if code}

    def sign_form(self, side: Pair, data=None):
        signers = list(self.signers(side).values())
        initial = {**self.initial(), "pair": side}
        known = side in self.opened_codes
        return self._form(
            f"sign-{side}", SignForm, data, signers=signers, code_known=known, initial=initial, prefix=f"sign-{side}"
        )

    def sign_forms(self):
        return [
            (side, self.table.team_at(side), self.sheet.signatures.get(side), self.sign_form(side)) for side in Pair
        ]

    def simple_form(self, name: str, form_class, data=None):
        """The dispute, settle and settle-entries forms: a version and their own fields."""
        return self._form(name, form_class, data, initial=self.initial(), prefix=name)

    def context(self, **overrides) -> dict:
        context = {
            "page": self,
            "table": self.table,
            "round": self.round,
            "tournament": self.tournament,
            "event": self.tournament.event,
            "seats": self.seats,
            "hands": self.sheet.hands,
            "rulings": self.sheet.rulings,
            "hand_form": self.hand_form(),
            "redeal_form": self.redeal_form(),
            "penalty_form": self.penalty_form(),
            "first_dealer_form": self.first_dealer_form(),
            "sign_forms": self.sign_forms() if self.table.complete and not self.table.signed else [],
            "signatures": self.sheet.signatures,
            "dispute_form": self.simple_form("dispute", DisputeForm),
            "settle_form": self.simple_form("settle", SettleForm),
            "settle_entries_form": self._form(
                "entries",
                SettleEntriesForm,
                initial=self.initial(),
                prefix="entries",
                entries=self.submissions if self.tournament.double_entry else (),
            ),
            "open_form": self.open_form,
        }
        context.update(overrides)
        return context


def table_page_etag(request, table: Table, *shown, secret: str | None = None) -> str | None:
    """The ETag of the table's page as this phone would be shown it now (``pagecache.private``, with its CSRF
    ``secret`` when not the one it sent), with ``shown`` besides (the card's); None while the session holds a
    refusal or a hand taken back for it (shown once)."""
    secret = table.secret
    if any((request.session.get(key) or {}).get("secret") == secret for key in (REFUSED, TAKEN_BACK)):
        return None
    tournament = table.round.tournament
    undo = request.session.get(UNDO)
    return private_etag(
        request,
        tournament.live_version,
        table.pk,
        table.version,
        clock_state(clock_view(table, tournament.rules)),
        undo if undo and undo["secret"] == secret else None,
        request.session.get(CARDS, {}).get(secret),
        request.session.get(TEAM_CODES, {}),
        # The phone's name, given on its first visit (``DeviceMiddleware``) and sent from then on.
        request.COOKIES.get(DEVICE_COOKIE) or getattr(request, "new_device", None),
        *shown,
        secret=secret,
    )


def render_page(request, page: TablePage, status=200, **overrides):
    if offline_refresh(request):
        overrides["messages"] = ()
    if page.undo and "hand" in page.undo:
        # A save just made is said once, on the row that offers to undo it; after a refusal, or later, the row
        # does not speak of it as news.
        said = list(overrides.get("messages", messages.get_messages(request)))
        overrides["messages"] = [message for message in said if str(message) != page.undo["saved"]]
        fresh = len(overrides["messages"]) < len(said)
        overrides["undo_words"] = (
            page.undo["saved"] if fresh else f"Last saved on this phone: hand {page.undo['number']}."
        )
    response = render(request, "table/table.html", page.context(**overrides), status=status)
    return offline_copy(response, keep=not page.locked)
