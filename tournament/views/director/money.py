"""Money pages, for directors only: the settings, payments and refunds at the desk, the payout sheet (on
screen, as a PDF for the prize-giving, as CSV or XLSX), prizes paid and confirmed at the desk."""

from functools import partial

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournament import printing, selectors
from tournament.forms.money import MoneySettingsForm, PaymentForm, PayoutCodeForm, RefundForm
from tournament.models.money import MONEY_SETTINGS
from tournament.selectors.money import payout_sheet
from tournament.services import money
from tournament.tables import PayoutExport
from tournament.typed import whole_number
from tournament.views.common import (
    form_saved,
    refusal_say,
    request_actor,
    run_and_redirect,
    service_run,
)
from tournament.views.director.exports import tournament_pdf_view
from tournament.views.director.teams import back_to_desk
from tournament.views.permissions import director_required
from tournament.views.team_money import payout_code_confirm


@director_required
def money_settings(request, slug):
    tournament = selectors.tournament_get(slug)
    initial = {name: getattr(tournament, name) for name in MONEY_SETTINGS}
    form = MoneySettingsForm(request.POST or None, initial=initial)
    if form_saved(request, form, money.money_settings_set, "Money settings saved.", tournament=tournament):
        return redirect("director:payouts", slug=tournament.slug)
    context = {"form": form, "title": f"Money: {tournament.name}", "submit": "Save", "tournament": tournament}
    return render(request, "director/form.html", {**context, "event": tournament.event})


def _desk_money_action(request, slug, number, form_class, service, done):
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(tournament.teams, number=number)
    form = form_class(request.POST)
    if not form.is_valid():
        refusal_say(request, "Fill in the amount (and, for a refund, why).")
        return back_to_desk(request, tournament, number, done=False)
    record = partial(service, team=team, actor=request_actor(request), **form.cleaned_data)
    ran = service_run(request, record, done(team))
    return back_to_desk(request, tournament, number, done=ran.done)


@require_POST
@director_required
def payment_add(request, slug, number):
    return _desk_money_action(
        request,
        slug,
        number,
        PaymentForm,
        money.payment_record,
        lambda team: lambda payment: f"Team #{team.number}: {payment.amount} received.",
    )


@require_POST
@director_required
def refund_add(request, slug, number):
    return _desk_money_action(
        request,
        slug,
        number,
        RefundForm,
        money.refund_record,
        lambda team: lambda refund: f"Team #{team.number}: {refund.amount} refunded.",
    )


@director_required
def payouts(request, slug):
    """The payout sheet: from the final placings, or a preview from the standings so far."""
    tournament = selectors.tournament_get(slug)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "sheet": payout_sheet(tournament),
        "code_form": PayoutCodeForm(),
    }
    return render(request, "director/payouts.html", context)


@require_POST
@director_required
def payout_pay(request, slug):
    tournament = selectors.tournament_get(slug)
    number = whole_number(request.POST.get("team", ""), digits=6)
    team = get_object_or_404(tournament.teams, number=number or 0)
    pay = partial(
        money.payout_pay,
        tournament=tournament,
        team=team,
        pot=request.POST.get("pot", ""),
        actor=request_actor(request),
    )
    return run_and_redirect(
        request,
        pay,
        lambda payout: f"Team #{team.number} paid {payout.amount}: have them confirm with their code.",
        "director:payouts",
        slug=slug,
    )


@require_POST
@director_required
def payout_confirm_at_desk(request, slug, pk):
    tournament = selectors.tournament_get(slug)
    payout = get_object_or_404(tournament.payouts.select_related("team"), pk=pk)
    return payout_code_confirm(
        request,
        payout,
        where="at the desk",
        actor=request_actor(request),
        done=f"Team #{payout.team.number} confirmed receiving {payout.amount}.",
        invalid="Type the team's code.",
        to="director:payouts",
        slug=slug,
    )


payouts_pdf = tournament_pdf_view(printing.payouts_pdf, "payouts", director_required)


@director_required
def payouts_export(request, slug, export_format):
    if export_format not in ("csv", "xlsx"):
        raise Http404("The payout sheet as CSV or XLSX.")
    tournament = selectors.tournament_get(slug)
    export = PayoutExport(PayoutExport.sheet_rows(payout_sheet(tournament)))
    return export.response(export_format, f"{tournament.slug}-payouts.{export_format}")
