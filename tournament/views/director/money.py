"""Money pages, for directors only: the settings, payments and refunds at the desk, the payout sheet (on
screen, as a PDF for the prize-giving, as CSV or XLSX), prizes paid and confirmed at the desk."""

from functools import partial

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.money import MONEY_SETTINGS
from tournament import printing, selectors
from tournament.errors import ServiceError
from tournament.forms.money import (
    HandOverForm,
    MoneySettingsForm,
    PaymentForm,
    PaymentMoveForm,
    PayoutPayForm,
    ReasonForm,
    RefundForm,
)
from tournament.models import Payment
from tournament.models.money import PRIZE_FROM
from tournament.selectors.money import payout_sheet
from tournament.services import money
from tournament.tables import PayoutExport
from tournament.views.common import (
    form_action,
    form_page,
    form_saved,
    refusal_say,
    request_actor,
    run_and_redirect,
    service_run,
    tournament_context,
)
from tournament.views.director.exports import tournament_pdf_view
from tournament.views.director.teams import back_to_desk
from tournament.views.permissions import director_required


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
    """Booked where the team owes (the entry fee, then the side pot) unless the director chose one pot."""
    return _desk_money_action(
        request,
        slug,
        number,
        PaymentForm,
        money.payment_book,
        lambda team: lambda payments: f"Team #{team.number}: {money.payments_said(payments)}.",
    )


def _payment_correct(request, slug, number, pk, form_class, correct, done):
    """Void or move one of a team's payments, from its money history at the desk."""
    tournament = selectors.tournament_get(slug)
    team = get_object_or_404(tournament.teams, number=number)
    payment = get_object_or_404(Payment.objects.filter(team=team), pk=pk)
    form = form_class(request.POST)
    if not form.is_valid():
        refusal_say(request, "Say why (and, to move it, where to).")
        return back_to_desk(request, tournament, number, done=False)
    ran = service_run(request, partial(correct, tournament, payment, form.cleaned_data), done)
    return back_to_desk(request, tournament, number, done=ran.done)


@require_POST
@director_required
def payment_void(request, slug, number, pk):
    def void(tournament, payment, data):
        return money.payment_void(payment=payment, reason=data["reason"], actor=request_actor(request))

    return _payment_correct(
        request, slug, number, pk, ReasonForm, void, lambda p: f"Team #{number}: the {p.amount} was voided."
    )


@require_POST
@director_required
def payment_move(request, slug, number, pk):
    def move(tournament, payment, data):
        team = tournament.teams.filter(number=data["team"]).first()
        if team is None:
            raise ServiceError(f"There is no team #{data['team']}.", field="team")
        return money.payment_move(
            payment=payment, team=team, pot=data["pot"], reason=data["reason"], actor=request_actor(request)
        )

    return _payment_correct(
        request,
        slug,
        number,
        pk,
        PaymentMoveForm,
        move,
        lambda p: f"{p.amount} moved to team #{p.team.number}'s {p.get_pot_display().lower()}.",
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
    }
    return render(request, "director/payouts.html", context)


@director_required
def payout_pay(request, slug):
    """*Pay* confirms: the sheet's button opens this page, which says who is paid what, and pays on its own
    button."""
    tournament = selectors.tournament_get(slug)
    form = PayoutPayForm(request.POST or request.GET)
    if not form.is_valid():
        raise Http404("Pay which team's prize, from which pot?")
    team = get_object_or_404(tournament.teams, number=form.cleaned_data["team"])
    pot = form.cleaned_data["pot"]
    if request.method == "POST":
        pay = partial(money.payout_pay, tournament=tournament, team=team, pot=pot, actor=request_actor(request))
        return run_and_redirect(
            request,
            pay,
            lambda payout: (
                f"Team #{team.number} paid {payout.amount}: they confirm receipt on their phone, or sign for it here."
            ),
            "director:payouts",
            slug=slug,
        )
    line = next((line for line in payout_sheet(tournament).lines if (line.pot, line.team.pk) == (pot, team.pk)), None)
    if line is None:
        raise Http404("That team has no prize from that pot.")
    title = f"Pay #{team.number} {team.display_name} {line.amount} for place {line.label} ({PRIZE_FROM[pot].lower()})?"
    back = reverse("director:payouts", args=[slug])
    return form_page(
        request,
        form,
        title,
        f"Pay {line.amount}",
        back=back,
        back_label="Not now: back to the sheet",
        **tournament_context(tournament),
    )


def _payout_form_action(request, slug, pk, form_class, service, *, done, invalid):
    """A desk act on one prize paid (undone, or handed over), from its form on the payout sheet and back to it;
    ``done`` says it of the payout."""
    tournament = selectors.tournament_get(slug)
    payout = get_object_or_404(tournament.payouts.select_related("team"), pk=pk)
    act = partial(service, payout=payout, actor=request_actor(request))
    form = form_class(request.POST)
    return form_action(request, form, act, done=done(payout), invalid=invalid, to="director:payouts", slug=slug)


@require_POST
@director_required
def payout_undo(request, slug, pk):
    return _payout_form_action(
        request,
        slug,
        pk,
        ReasonForm,
        money.payout_undo,
        done=lambda payout: f"Team #{payout.team.number}'s prize of {payout.amount} is unpaid again.",
        invalid="Say why the prize payment is undone.",
    )


@require_POST
@director_required
def payout_confirm_at_desk(request, slug, pk):
    """The hand-over at the desk, signed by the player taking the prize (no team code: the desk sees them all)."""
    return _payout_form_action(
        request,
        slug,
        pk,
        HandOverForm,
        money.payout_hand_over,
        done=lambda payout: f"Team #{payout.team.number} signed for {payout.amount}.",
        invalid="The player taking the prize types their name.",
    )


payouts_pdf = tournament_pdf_view(printing.payouts_pdf, "payouts", director_required)


@director_required
def payouts_export(request, slug, export_format):
    if export_format not in ("csv", "xlsx"):
        raise Http404("The payout sheet as CSV or XLSX.")
    tournament = selectors.tournament_get(slug)
    export = PayoutExport(PayoutExport.sheet_rows(payout_sheet(tournament)))
    return export.response(export_format, f"{tournament.slug}-payouts.{export_format}")
