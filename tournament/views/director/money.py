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
    request_actor,
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


DESK_MONEY_INVALID = "Fill in the amount (and, for a refund, why)."


@require_POST
@director_required
def payment_add(request, slug, number):
    """Booked where the team owes (the entry fee, then the side pot) unless the director chose one pot."""
    tournament = selectors.tournament_get(slug)
    book = partial(
        money.payment_book, team=get_object_or_404(tournament.teams, number=number), actor=request_actor(request)
    )
    done = lambda payments: f"Team #{number}: {money.payments_said(payments)}."  # noqa: E731
    back = partial(back_to_desk, request, tournament, number)
    return form_action(request, PaymentForm(request.POST), book, done=done, invalid=DESK_MONEY_INVALID, to=back)


PAYMENT_INVALID = "Say why (and, to move it, where to)."


@require_POST
@director_required
def payment_void(request, slug, number, pk):
    """Void one of a team's payments, from its money history at the desk."""
    tournament = selectors.tournament_get(slug)
    payment = get_object_or_404(Payment, team__tournament=tournament, team__number=number, pk=pk)
    void = partial(money.payment_void, payment=payment, actor=request_actor(request))
    done, back = (
        (lambda p: f"Team #{number}: the {p.amount} was voided."),
        partial(back_to_desk, request, tournament, number),
    )
    return form_action(request, ReasonForm(request.POST), void, done=done, invalid=PAYMENT_INVALID, to=back)


@require_POST
@director_required
def payment_move(request, slug, number, pk):
    """Move one of a team's payments to another team or pot, from its money history at the desk."""
    tournament = selectors.tournament_get(slug)
    payment = get_object_or_404(Payment, team__tournament=tournament, team__number=number, pk=pk)

    def move(team, pot, reason):
        to_team = tournament.teams.filter(number=team).first()
        if to_team is None:
            raise ServiceError(f"There is no team #{team}.", field="team")
        return money.payment_move(payment=payment, team=to_team, pot=pot, reason=reason, actor=request_actor(request))

    def moved(p) -> str:
        return f"{p.amount} moved to team #{p.team.number}'s {p.get_pot_display().lower()}."

    form, back = PaymentMoveForm(request.POST), partial(back_to_desk, request, tournament, number)
    return form_action(request, form, move, done=moved, invalid=PAYMENT_INVALID, to=back)


@require_POST
@director_required
def refund_add(request, slug, number):
    tournament = selectors.tournament_get(slug)
    refund = partial(
        money.refund_record, team=get_object_or_404(tournament.teams, number=number), actor=request_actor(request)
    )
    form, back = RefundForm(request.POST), partial(back_to_desk, request, tournament, number)
    done = lambda made: f"Team #{number}: {made.amount} refunded."  # noqa: E731
    return form_action(request, form, refund, done=done, invalid=DESK_MONEY_INVALID, to=back)


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
        return form_action(
            request,
            None,
            pay,
            done=lambda payout: (
                f"Team #{team.number} paid {payout.amount}: they confirm receipt on their phone, or sign for it here."
            ),
            to="director:payouts",
            slug=slug,
        )
    line = next((line for line in payout_sheet(tournament).lines if (line.pot, line.team.pk) == (pot, team.pk)), None)
    if line is None:
        raise Http404("That team has no prize from that pot.")
    title = f"Pay #{team.number} {team.display_name} {line.amount} for place {line.place} ({PRIZE_FROM[pot].lower()})?"
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
