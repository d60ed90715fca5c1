"""A winning team confirms on its own phone, with its code, that it received its prize."""

from functools import partial

from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from tournament.forms.money import PayoutCodeForm
from tournament.services.log import Actor
from tournament.services.money import payout_confirm
from tournament.views.common import form_action
from tournament.views.device import device_of
from tournament.views.team import _team


def payout_code_confirm(request, payout, *, where: str, actor, done: str, invalid: str, to: str, **url):
    """Confirm the payout received with the team's code typed into the form (at the desk or on the team's
    phone), and go to ``to``."""
    confirm = partial(payout_confirm, payout=payout, where=where, actor=actor)
    return form_action(request, PayoutCodeForm(request.POST), confirm, done=done, invalid=invalid, to=to, **url)


@require_POST
def team_payout_confirm(request, team_id, payout_id):
    """Only on the team's own page (opened with its code), and the code typed again: no one else has it."""
    team = _team(request, team_id)
    payout = get_object_or_404(team.payouts.select_related("team"), pk=payout_id)
    device = device_of(request)
    return payout_code_confirm(
        request,
        payout,
        where=f"on {device}",
        actor=Actor.team(team, device),
        done=f"Thank you: receiving {payout.amount} is confirmed.",
        invalid="Type your team code to confirm.",
        to="team_page",
        team_id=team.pk,
    )
