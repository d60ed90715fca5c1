"""A winning team confirms on its own phone, with its code, that it received its prize."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from tournament.errors import ServiceError
from tournament.forms.money import PayoutCodeForm
from tournament.services.log import Actor
from tournament.services.money import payout_confirm
from tournament.views.device import device_of
from tournament.views.team import _team


@require_POST
def team_payout_confirm(request, team_id, payout_id):
    """Only on the team's own page (opened with its code), and the code typed again: no one else has it."""
    team = _team(request, team_id)
    payout = get_object_or_404(team.payouts.select_related("team"), pk=payout_id)
    form = PayoutCodeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Type your team code to confirm.")
    else:
        try:
            device = device_of(request)
            code = form.cleaned_data["code"]
            payout_confirm(payout=payout, code=code, where=f"on {device}", actor=Actor.team(team, device))
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, f"Thank you: receiving {payout.amount} is confirmed.")
    return redirect("team_page", team_id=team.pk)
