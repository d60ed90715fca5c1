"""Registering teams by hand or from CSV, and the registration desk."""

from functools import partial

from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import SafeString
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from tournament import forms, printing, selectors
from tournament.addresses import Addresses
from tournament.errors import ImportRejected
from tournament.forms.money import PaymentForm
from tournament.models import Payment, Pot
from tournament.selectors.money import desk_money
from tournament.selectors.persons import event_link_rows
from tournament.services import teams
from tournament.services.teams import CSV_COLUMNS, PlayerEntry
from tournament.tables import SafeExport, TeamListing
from tournament.typed import whole_number
from tournament.views.common import (
    form_action,
    form_page,
    form_saved,
    pdf_response,
    refusal_say,
    request_actor,
    tournament_context,
)
from tournament.views.permissions import director_required


def _team_details(data: dict) -> dict:
    """The team form's fields as the team services take them: two PlayerEntry, then the rest as they are."""
    players = [
        PlayerEntry(data.pop(f"player{i}_name"), data.pop(f"player{i}_city", ""), data.pop(f"player{i}_phone", ""))
        for i in (1, 2)
    ]
    return {"players": players, **data}


def _next(request, default: str) -> str:
    """Where to go after the form: the page it was opened from, if that is on this site."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()}, require_https=request.is_secure()):
        return wanted
    return default


@director_required
def team_list(request, slug):
    tournament = selectors.tournament_get(slug)
    listing = TeamListing(selectors.teams_with_players(tournament), tournament=tournament, order_by="number")
    RequestConfig(request, paginate=False).configure(listing)
    export_format = request.GET.get("_export")
    if SafeExport.is_valid_format(export_format):
        exporter = SafeExport(export_format, listing, title="Teams", exclude_columns=("actions",))
        return exporter.response(f"{tournament.slug}-teams.{export_format}")
    context = tournament_context(tournament, listing=listing)
    return render(request, "director/teams.html", context)


@director_required
def team_create(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.TeamRegisterForm(request.POST or None, initial={"checked_in": request.GET.get("late") == "1"})

    def register(actor, **data):
        return teams.team_register(tournament=tournament, actor=actor, **_team_details(data))

    team = form_saved(request, form, register, lambda t: f"Team #{t.number} {t.display_name} registered.")
    if team is not None:
        if "add_another" in request.POST:
            return HttpResponseRedirect(_another(request, tournament, checked_in=team.checked_in))
        return redirect(_next(request, reverse("director:teams", args=[tournament.slug])))
    context = tournament_context(tournament, another=True, next=_next(request, ""))
    return form_page(request, form, "Register a team", "Register team", **context)


def _another(request, tournament, *, checked_in: bool) -> str:
    """The next registration form, keeping what belongs to the session at the desk rather than to one team: the
    check-in tick (a run of late teams, all here) and where the run ends (back to the desk)."""
    session = {"late": "1"} if checked_in else {}
    back = _next(request, "")
    if back:
        session["next"] = back
    search = f"?{urlencode(session)}" if session else ""
    return reverse("director:team_create", args=[tournament.slug]) + search


@director_required
def team_edit(request, slug, number):
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(selectors.teams_with_players(tournament), number=number)
    initial = {"name": team.name, "city": team.city, "number": team.number}
    for position, member in enumerate(team.members, start=1):
        initial.update(
            {
                f"player{position}_name": member.player.name,
                f"player{position}_city": member.player.city,
                f"player{position}_phone": member.player.phone,
            }
        )
    form = forms.TeamForm(request.POST or None, initial=initial)

    def update(actor, **data):
        return teams.team_update(team=team, actor=actor, **_team_details(data))

    if form_saved(request, form, update, lambda saved: f"Team #{saved.number} saved."):
        return redirect("director:teams", slug=tournament.slug)
    return form_page(request, form, f"Edit team #{team.number}", "Save team", **tournament_context(tournament))


@director_required
def team_import(request, slug):
    tournament = selectors.tournament_get(slug)
    form = forms.TeamImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            imported = teams.teams_import_csv(
                tournament=tournament, text=form.cleaned_data["file"], actor=request_actor(request)
            )
        except ImportRejected as error:
            problems = error.problems
            refusal_say(request, error.message)
        else:
            messages.success(request, f"{len(imported)} teams imported.")
            suggested = sum(1 for row in event_link_rows(tournament.event) if row.suggestions)
            if suggested:
                messages.info(
                    request,
                    f"{suggested} player(s) of this event may be persons who played before: link them from the "
                    "event's “Players and persons” page.",
                )
            return redirect("director:teams", slug=tournament.slug)
    context = tournament_context(tournament, form=form, problems=problems, columns=CSV_COLUMNS)
    return render(request, "director/import.html", context)


@director_required
def checkin_slips(request, slug):
    """Every team's check-in slip (its code), or one team's with ?team=N, as a PDF for the desk."""
    tournament = selectors.tournament_get(slug)
    teams = selectors.teams_with_players(tournament)
    number = request.GET.get("team", "")
    if number:
        teams = teams.filter(number=whole_number(number, digits=6) or 0)
        if not teams:
            raise Http404("No such team.")
    content = printing.checkin_slips_pdf(tournament, teams, base_url=printing.link_base(request))
    name = f"{tournament.slug}-slip-{number}.pdf" if number else f"{tournament.slug}-slips.pdf"
    return pdf_response(content, name)


@require_POST
@director_required
def team_code_new(request, slug, number):
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(tournament.teams, number=number)
    renew = partial(teams.team_code_renew, team=team, actor=request_actor(request))
    return form_action(request, None, renew, done=_new_code_said, to="director:desk", slug=slug)


def _new_code_said(team) -> str:
    return f"Team #{team.number} has a new code, {team.code}: the old one no longer works."


def _options(choices) -> SafeString:
    return format_html_join("", '<option value="{}">{}</option>', choices)


@director_required
def desk(request, slug):
    tournament = selectors.tournament_get(slug)
    query = request.GET.get("q", "")
    found = list(selectors.teams_search(tournament, query))
    # Every team's account for the totals: those found are every team when nothing is searched.
    money = desk_money(tournament, None if query else found)
    void, move = (Addresses(f"director:payment_{name}", tournament.slug, parts=2) for name in ("void", "move"))
    for team in found:
        team.account = money.accounts[team.pk]
        for payment in team.account.history:
            payment.void_address, payment.move_address = (
                void.of(team.number, payment.pk),
                move.of(team.number, payment.pk),
            )
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "teams": found,
        "arriving": [team for team in found if not team.checked_in and not team.withdrawn],
        "query": query,
        "counts": selectors.desk_counts(tournament),
        "money": money,
        "charges": tournament.entry_fee > 0 or tournament.side_pot_fee > 0,
        # Each team's money forms offer the same choices: their options drawn once.
        "method_options": _options(Payment.Method.choices),
        "pots": Pot.choices,
        "pot_options": _options(Pot.choices),
        "pay_pot_options": _options(PaymentForm.base_fields["pot"].choices),
        **{
            f"{name}_addresses": Addresses(f"director:{name}", tournament.slug)
            for name in ("desk_action", "team_edit", "team_code_new", "payment_add", "refund_add")
        },
    }
    return render(request, "director/desk.html", context)


DESK_ACTIONS = {
    "check_in": ({"checked_in": True}, "Team #{n} checked in."),
    "check_out": ({"checked_in": False}, "Team #{n}'s check-in undone."),
    "fee_paid": ({"fee_paid": True}, "Team #{n} has paid its fee."),
    "fee_unpaid": ({"fee_paid": False}, "Team #{n}'s fee is marked unpaid."),
    "side_pot": ({"side_pot": True}, "Team #{n} is in the side pot."),
    "no_side_pot": ({"side_pot": False}, "Team #{n} is out of the side pot."),
    "withdraw": ({"withdrawn": True}, "Team #{n} withdrawn."),
    "reinstate": ({"withdrawn": False}, "Team #{n} reinstated."),
}


@require_POST
@director_required
def desk_action(request, slug, number):
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(tournament.teams, number=number)
    action = request.POST.get("action", "")
    if action not in DESK_ACTIONS:
        refusal_say(request, "That is not a desk action.")
        return back_to_desk(request, tournament, team.number, done=False)
    changes, said = DESK_ACTIONS[action]
    update = partial(teams.team_desk_update, team=team, **changes, actor=request_actor(request))
    back = partial(back_to_desk, request, tournament, team.number)
    return form_action(request, None, update, done=said.format(n=team.number), to=back)


@require_POST
@director_required
def desk_check_in(request, slug):
    """Check in the teams ticked at the desk, or with *Check in all* every team the desk listed as not here."""
    tournament = selectors.tournament_get(slug)
    chosen = request.POST.getlist("shown" if "all" in request.POST else "teams")
    form = forms.TeamsCheckInForm({"teams": chosen}, tournament=tournament)
    check_in = partial(teams.teams_check_in, tournament=tournament, actor=request_actor(request))
    back = back_to_desk(request, tournament, None, False)  # the teams are many: the desk opens at the top
    return form_action(request, form, check_in, done=_checked_in_said, to=lambda done: back)


def _checked_in_said(arrived) -> str:
    if not arrived:
        return "Those teams were already checked in."
    return f"{len(arrived)} team(s) checked in: {', '.join(f'#{team.number}' for team in arrived)}."


def back_to_desk(request, tournament, number: int | None, done: bool) -> HttpResponseRedirect:
    """The desk, with the search kept: at the team's line when done, else at the top where what happened is
    (the answer of an action, given ``done``)."""
    back = reverse("director:desk", args=[tournament.slug])
    query = request.POST.get("q", "")
    search = f"?{urlencode({'q': query})}" if query else ""
    return HttpResponseRedirect(f"{back}{search}#team-{number}" if done else f"{back}{search}")
