"""The team's own page on its phone, opened with the team's code: where it plays, its sheet, its signature.

The browser remembers the teams whose codes it was given (in its session); a new code issued by the director
closes the page on every phone that had the old one.
"""

from functools import partial

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournament.forms.table import TeamCodeForm, TeamHandForm, TeamRedealForm, TeamSignForm, VersionForm, hand_entry
from tournament.models import Team
from tournament.security import client_ip
from tournament.selectors.clock import clock_view
from tournament.selectors.tables import SeatView, team_signers
from tournament.selectors.team_page import team_now
from tournament.services import sheets
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext
from tournament.services.teams import team_code_open, team_self_check_in, team_withdraw_request
from tournament.views.common import first_error_focus, refusal_say, service_run
from tournament.views.device import device_of

SESSION_KEY = "team_codes"


def _opened(request) -> dict[str, str]:
    return request.session.get(SESSION_KEY, {})


def team_code_opened(request, team: Team) -> str:
    """The team's code if this browser opened the team's page with its current code (else ""): the team has
    shown it here already and is not asked to type it again."""
    code = _opened(request).get(str(team.pk), "")
    return code if code and code == team.code else ""


def signer_of(seat: SeatView) -> dict:
    """``sheet_sign``'s signer for whoever sat in ``seat``: the substitute of the round, or the player."""
    return {"substitute": seat.substitute} if seat.substitute else {"player": seat.player}


def _team(request, team_id: int) -> Team:
    """The team, if this browser was given its current code; else not found (nothing about it is told)."""
    code = _opened(request).get(str(team_id))
    team = Team.objects.select_related("tournament__event").filter(pk=team_id, code=code).first() if code else None
    if team is None:
        raise Http404("Open your team's page with your team code.")
    return team


def team_open(request):
    """Enter a team code (or follow the slip's QR code) to open the team's page on this phone."""
    form = TeamCodeForm(request.POST or None, initial={"code": request.GET.get("code", "")[:12]})
    if request.method == "POST" and form.is_valid():
        address = client_ip(request) or ""
        code = form.cleaned_data["code"]
        ran = service_run(request, lambda: team_code_open(code=code, address=address), None, form=form)
        if ran.done:
            request.session[SESSION_KEY] = {**_opened(request), str(ran.result.pk): ran.result.code}
            return redirect("team_page", team_id=ran.result.pk)
    first_error_focus(form)
    opened = Team.objects.select_related("tournament").filter(
        pk__in=[int(pk) for pk in _opened(request)], code__in=list(_opened(request).values())
    )
    return render(request, "team/open.html", {"form": form, "opened": opened})


@require_POST
def team_forget(request, team_id):
    request.session[SESSION_KEY] = {pk: code for pk, code in _opened(request).items() if pk != str(team_id)}
    messages.success(request, "This phone no longer opens that team's page.")
    return redirect("team_open")


SEEN_ROUNDS = "team_seen_rounds"


def _new_table(request, team: Team, now) -> bool:
    """Whether the team's latest round came out since this phone last showed the page (the page then shows a
    banner and the phone vibrates); the first showing only remembers it."""
    seen = request.session.get(SEEN_ROUNDS, {})
    number = now.round.number if now.round else 0
    shown_before = seen.get(str(team.pk))
    if shown_before != number:
        request.session[SEEN_ROUNDS] = {**seen, str(team.pk): number}
    return shown_before is not None and number > shown_before


def _page(request, team: Team, status=200, **overrides):
    now = team_now(team)
    version = now.table.version if now.table else 0
    context = {
        "team": team,
        "tournament": team.tournament,
        "event": team.tournament.event,
        "now": now,
        "sign_form": TeamSignForm(initial={"version": version}, signers=team_signers(now.seats, now.pair)),
        "enter_form": TeamHandForm(
            initial={"version": version, "dealer": now.table.next_dealer or None},
            seats=now.seats,
            min_bid=team.tournament.rules.min_bid,
            prefix="enter",
        )
        if now.table
        else None,
        "redeal_form": TeamRedealForm(
            initial={"version": version, "dealer": now.table.next_dealer or None}, seats=now.seats, prefix="redeal"
        )
        if now.table
        else None,
        "double": team.tournament.double_entry,
        "enters": now.table is not None and _enters(now),
        "clock": clock_view(now.table, team.tournament.rules) if now.table else None,
        "new_table": _new_table(request, team, now),
    }
    context.update(overrides)
    return render(request, "team/mine.html", context, status=status)


def team_page(request, team_id):
    return _page(request, _team(request, team_id))


def _act(request, team: Team, form, call, done, *, drawn: bool = True, **refused):
    """Run a sheet service the team asked for on its page (see ``service_run``): back to the page, or the page
    again with the refusal beside its field of ``form`` when the page draws it (``drawn``), else above it."""
    if form.is_valid():
        ran = service_run(request, lambda: call(**form.cleaned_data), done, form=form if drawn else None)
        if not ran.in_form:
            return redirect("team_page", team_id=team.pk)
    elif not drawn:
        refusal_say(request, " ".join(error for errors in form.errors.values() for error in errors))
        return redirect("team_page", team_id=team.pk)
    first_error_focus(form)
    return _page(request, team, status=400, **refused)


def _team_change(request, team: Team, version: int) -> ChangeContext:
    """A change to the sheet the team makes on its own phone, from the sheet's ``version`` it was shown."""
    return ChangeContext(version=version, actor=Actor.team(team, device_of(request)))


def _enters(now) -> bool:
    """Whether the team's page draws its entry forms (blind double entry, the round still playing)."""
    return now.team.tournament.double_entry and not now.table.complete and not now.table.signed


def _table_and_pair(team: Team):
    now = team_now(team)
    if now.table is None:
        raise Http404("Your team has no table in the current round.")
    return now


@require_POST
def team_sign(request, team_id):
    team = _team(request, team_id)
    now = _table_and_pair(team)
    signers = {seat.signer: seat for seat in team_signers(now.seats, now.pair)}
    form = TeamSignForm(request.POST, signers=list(signers.values()))

    def sign(version, player):
        return sheets.sheet_sign(
            table=now.table,
            pair=now.pair,
            **signer_of(signers[player]),
            code=team.code,
            context=_team_change(request, team, version),
        )

    def signed(signature) -> str:
        return f"Signed by {signature.signer_name} for your team."

    return _act(request, team, form, sign, signed, drawn=now.may_sign, sign_form=form)


@require_POST
def team_accept(request, team_id, sequence):
    team = _team(request, team_id)
    now = _table_and_pair(team)
    hand = next((hand for hand in now.hands if hand.sequence == sequence), None)
    if hand is None:
        raise Http404("No such hand at your table.")
    form = VersionForm(request.POST)

    def accept(version):
        return sheets.hand_accept(
            table=now.table, hand=hand, code=team.code, context=_team_change(request, team, version)
        )

    return _act(request, team, form, accept, f"Hand {hand.hand_number} accepted.", drawn=False)


def _submitted(result) -> str:
    if result.status == result.RECORDED:
        return f"Both teams agree: hand {result.hand.hand_number} is on the sheet."
    if result.status == result.DIFFER:
        return "Your entry differs from the other team's: see both below, then agree on one."
    return "Entered. It goes on the sheet when the other team's entry agrees."


@require_POST
def team_enter(request, team_id):
    """Blind double entry: the team's own entry of the next hand."""
    team = _team(request, team_id)
    now = _table_and_pair(team)
    form = TeamHandForm(request.POST, seats=now.seats, min_bid=team.tournament.rules.min_bid, prefix="enter")

    def enter(**data):
        return sheets.hand_submit(
            table=now.table,
            pair=now.pair,
            code=team.code,
            entry=hand_entry(data),
            context=_team_change(request, team, data["version"]),
        )

    return _act(request, team, form, enter, _submitted, drawn=_enters(now), enter_form=form)


@require_POST
def team_redeal(request, team_id):
    team = _team(request, team_id)
    now = _table_and_pair(team)
    form = TeamRedealForm(request.POST, seats=now.seats, prefix="redeal")

    def submit(version, **redeal):
        context = _team_change(request, team, version)
        return sheets.hand_submit(table=now.table, pair=now.pair, code=team.code, **redeal, context=context)

    return _act(request, team, form, submit, _submitted, drawn=_enters(now), redeal_form=form)


def _team_service_run(request, team_id, service, done: str):
    """Run ``service(team=, actor=)`` for the team whose own page asks it, then show that page again."""
    team = _team(request, team_id)
    service_run(request, partial(service, team=team, actor=Actor.team(team, device_of(request))), done)
    return redirect("team_page", team_id=team.pk)


@require_POST
def team_here(request, team_id):
    """ "We're here": the team checks itself in from its own page."""
    return _team_service_run(request, team_id, team_self_check_in, "Checked in: the desk sees your team is here.")


@require_POST
def team_withdraw(request, team_id):
    """ "Withdraw after this round": a request the director confirms at the desk."""
    done = "The director is told your team withdraws after this round."
    return _team_service_run(request, team_id, team_withdraw_request, done)
