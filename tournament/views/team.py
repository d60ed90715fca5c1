"""The team's own page on its phone, opened with the team's code: where it plays, its sheet, its signature.

The browser remembers the teams whose codes it was given (in its session); a new code issued by the director
closes the page on every phone that had the old one.
"""

from functools import partial

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from tournament.forms.table import TeamCodeForm, TeamHandForm, TeamRedealForm, TeamSignForm, VersionForm, hand_entry
from tournament.models import Team
from tournament.pagecache.private import private_answer, private_etag
from tournament.pagecache.serving import RESULTS, page_version, piece
from tournament.security import client_ip
from tournament.selectors.clock import clock_view
from tournament.selectors.prefetch import members
from tournament.selectors.tables import SeatView, team_signers
from tournament.selectors.team_page import team_now, team_page_state
from tournament.selectors.teams import team_rounds
from tournament.services import sheets
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext
from tournament.services.teams import team_code_open, team_self_check_in, team_withdraw_request
from tournament.views.common import form_action, form_saved
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
    address = client_ip(request) or ""
    team = form_saved(request, form, lambda code, actor: team_code_open(code=code, address=address), None)
    if team is not None:
        request.session[SESSION_KEY] = {**_opened(request), str(team.pk): team.code}
        return redirect("team_page", team_id=team.pk)
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


def _rounds(team: Team):
    """The team's rounds so far, drawn once per change of what they show (the version of its public page)."""
    version = page_version(team.tournament, RESULTS, team_number=team.number)
    return piece(
        f"team-rounds:{team.pk}", version, lambda: render_to_string("team/_rounds.html", {"rounds": team_rounds(team)})
    )


def _page(request, team: Team, status=200, **overrides):
    prefetch_related_objects([team], members())  # its name and players, read a few times by the page
    now = team_now(team, rounds=False)
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
        "rounds": _rounds(team),
    }
    context.update(overrides)
    return render(request, "team/mine.html", context, status=status)


def team_page(request, team_id):
    """The team's page; 304 to the phone that has it as it stands (``pagecache.private``): the new-table banner
    and its memory of the rounds shown are in the ETag too."""
    team = _team(request, team_id)
    state = team_page_state(team)

    def etag_of(secret: str | None) -> str | None:
        seen = request.session.get(SEEN_ROUNDS, {}).get(str(team.pk))
        return private_etag(request, state, seen, secret=secret)

    return private_answer(request, etag_of, lambda: _page(request, team))


def _enters(now) -> bool:
    """Whether the team's page draws its entry forms (blind double entry, the round still playing)."""
    return now.team.tournament.double_entry and not now.table.complete and not now.table.signed


def _table_and_pair(team: Team):
    now = team_now(team, rounds=False)
    if now.table is None:
        raise Http404("Your team has no table in the current round.")
    return now


@require_POST
def team_sign(request, team_id):
    team = _team(request, team_id)
    now = _table_and_pair(team)
    signers = {seat.signer: seat for seat in team_signers(now.seats, now.pair)}
    form = TeamSignForm(request.POST, signers=list(signers.values()))

    def sign(version, player, actor):
        signer = signer_of(signers[player])
        context = ChangeContext(version=version, actor=actor)
        return sheets.sheet_sign(table=now.table, pair=now.pair, **signer, code=team.code, context=context)

    def signed(signature) -> str:
        return f"Signed by {signature.signer_name} for your team."

    actor = Actor.team(team, device_of(request))
    if not now.may_sign:  # the page does not draw the form: a refusal is said above it
        return form_action(request, form, partial(sign, actor=actor), done=signed, to="team_page", team_id=team.pk)
    if form_saved(request, form, sign, signed, actor=actor) is None and form.errors:
        return _page(request, team, status=400, sign_form=form)
    return redirect("team_page", team_id=team.pk)


@require_POST
def team_accept(request, team_id, sequence):
    team = _team(request, team_id)
    now = _table_and_pair(team)
    hand = next((hand for hand in now.hands if hand.sequence == sequence), None)
    if hand is None:
        raise Http404("No such hand at your table.")
    actor = Actor.team(team, device_of(request))

    def accept(version):
        context = ChangeContext(version=version, actor=actor)
        return sheets.hand_accept(table=now.table, hand=hand, code=team.code, context=context)

    done = f"Hand {hand.hand_number} accepted."
    return form_action(request, VersionForm(request.POST), accept, done=done, to="team_page", team_id=team.pk)


def _submitted(result) -> str:
    if result.status == result.RECORDED:
        return f"Both teams agree: hand {result.hand.hand_number} is on the sheet."
    if result.status == result.DIFFER:
        return "Your entry differs from the other team's: see both below, then agree on one."
    return "Entered. It goes on the sheet when the other team's entry agrees."


@require_POST
def team_submit(request, team_id, kind):
    """Blind double entry: the team's own entry of the next deal, a hand played (``enter``) or dealt again
    (``redeal``)."""
    team = _team(request, team_id)
    now = _table_and_pair(team)
    if kind == "enter":
        form = TeamHandForm(request.POST, seats=now.seats, min_bid=team.tournament.rules.min_bid, prefix="enter")
    else:
        form = TeamRedealForm(request.POST, seats=now.seats, prefix="redeal")

    def submit(actor, version, **data):
        dealt = {"entry": hand_entry(data)} if kind == "enter" else data
        context = ChangeContext(version=version, actor=actor)
        return sheets.hand_submit(table=now.table, pair=now.pair, code=team.code, context=context, **dealt)

    actor = Actor.team(team, device_of(request))
    if not _enters(now):  # the round is over here: the page draws no entry form, a refusal is said above it
        return form_action(request, form, partial(submit, actor), done=_submitted, to="team_page", team_id=team.pk)
    if form_saved(request, form, submit, _submitted, actor=actor) is None and form.errors:
        return _page(request, team, status=400, **{f"{kind}_form": form})
    return redirect("team_page", team_id=team.pk)


TEAM_ASKS = {
    "here": (team_self_check_in, "Checked in: the desk sees your team is here."),
    "withdraw": (team_withdraw_request, "The director is told your team withdraws after this round."),
}


@require_POST
def team_ask(request, team_id, what):
    """What the team tells the desk from its own page: "We're here" (``here``, it checks itself in), or
    "Withdraw after this round" (``withdraw``, a request the director confirms at the desk)."""
    team = _team(request, team_id)
    service, done = TEAM_ASKS[what]
    ask = partial(service, team=team, actor=Actor.team(team, device_of(request)))
    return form_action(request, None, ask, done=done, to="team_page", team_id=team.pk)
