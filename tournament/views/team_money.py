"""A winning team confirms on its own phone, with its code, that it received its prize (the desk, which sees
every code, records a hand-over signed by the player instead: ``views.director.money``)."""

from functools import partial

from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from tournament.forms.money import PayoutCodeForm
from tournament.security import client_ip
from tournament.services.log import Actor
from tournament.services.money import payout_confirm
from tournament.views.common import form_action
from tournament.views.device import device_of
from tournament.views.team import _team


@require_POST
def team_payout_confirm(request, team_id, payout_id):
    """Only on the team's own page (opened with its code), and the code typed again: no one else has it. Wrong
    codes pause the address that typed them."""
    team = _team(request, team_id)
    payout = get_object_or_404(team.payouts.select_related("team"), pk=payout_id)
    device = device_of(request)
    confirm = partial(
        payout_confirm,
        payout=payout,
        where=f"on {device}",
        address=client_ip(request) or "",
        actor=Actor.team(team, device),
    )
    return form_action(
        request,
        PayoutCodeForm(request.POST),
        confirm,
        done=f"Thank you: receiving {payout.amount} is confirmed.",
        invalid="Type your team code to confirm.",
        to="team_page",
        team_id=team.pk,
    )
